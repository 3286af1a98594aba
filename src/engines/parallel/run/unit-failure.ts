import { ConfigError } from "../../../core/errors.js";
import type { FailedMessage } from "./protocol.js";

/**
 * What a unit's thread sends when it fails: a ConfigError (a template failing on a row) stays one across
 * threads. The thread then lives on until main, failing the run, ends it: a thread that died by rethrowing
 * raced its own failed message with an 'error' event that carries no class.
 */
export function failedMessage(error: unknown): FailedMessage {
  return { type: "failed", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined, config: error instanceof ConfigError };
}

/** The error main throws for a unit's failure: a usage error (exit 2) where the unit's was one. */
export function errorOf(message: FailedMessage): Error {
  return Object.assign(message.config ? new ConfigError(message.message) : new Error(message.message), { stack: message.stack });
}
