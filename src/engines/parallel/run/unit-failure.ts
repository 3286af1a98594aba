import { ConfigError } from "../../../core/errors.js";
import type { FailedMessage } from "./protocol.js";

/** What a unit's thread sends when it fails: a ConfigError (a template failing on a row) stays one across threads. */
export function failedMessage(error: unknown): FailedMessage {
  return { type: "failed", message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined, config: error instanceof ConfigError };
}

/** The error main throws for a unit's failure: a usage error (exit 2) where the unit's was one. */
export function errorOf(message: FailedMessage): Error {
  return Object.assign(message.config ? new ConfigError(message.message) : new Error(message.message), { stack: message.stack });
}

/**
 * The error a worker thread rethrows to die. Its 'error' event may reach main before the failed message, and
 * crosses as a plain Error keeping its own properties: a ConfigError is marked so that main still sees one.
 */
export function rethrown(error: unknown): unknown {
  return error instanceof ConfigError ? Object.assign(error, { usageError: true }) : error;
}

/** A worker's 'error' event's error, a ConfigError again where the worker marked one ({@link rethrown}). */
export function errorFromThread(error: Error): Error {
  if (!("usageError" in error) || error.usageError !== true) return error;
  return errorOf({ type: "failed", message: error.message, stack: error.stack, config: true });
}
