import { ConfigError, PartsMissingError, SuitesError } from "../core/errors.js";
import { AuthError, ForbiddenError } from "../http/http-errors.js";
import { describeDecision, type PublishDecision } from "../output/publish-guard.js";
import { EXIT, exitOfDecision } from "./exit-codes.js";

/** Every line the CLI writes about a failure or warning starts with this, commander's usage errors too. */
export const ERROR_PREFIX = "evalshard: ";

/** Wraps a command's action: prints an error as one line naming what was wrong, and sets the exit code. */
export function runAction<A extends unknown[]>(action: (...args: A) => Promise<number>) {
  return async (...args: A): Promise<void> => {
    try {
      process.exitCode = await action(...args);
    } catch (error) {
      process.exitCode = exitCodeOf(error);
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${ERROR_PREFIX}${message}\n`);
      if (process.env.EVALSHARD_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    }
  };
}

/** A run the publish guards judged: its tripped guards said on stderr; returns the first one's exit code. */
export function reportDecision(decision: PublishDecision, location: string): number {
  if (decision.tripped.length > 0) process.stderr.write(`${ERROR_PREFIX}${describeDecision(decision, location)}\n`);
  return exitOfDecision(decision);
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof AuthError || error instanceof ForbiddenError) return EXIT.credentialsRefused;
  if (error instanceof SuitesError) return EXIT.badSuites;
  if (error instanceof PartsMissingError) return EXIT.partsMissing;
  return error instanceof ConfigError ? EXIT.usage : EXIT.failure;
}
