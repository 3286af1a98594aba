import { ConfigError } from "../core/errors.js";
import { AuthError, ForbiddenError } from "../http/http-errors.js";
import { EXIT } from "./exit-codes.js";

/** Wraps a command's action: prints an error as one line naming what was wrong, and sets the exit code. */
export function runAction<A extends unknown[]>(action: (...args: A) => Promise<number>) {
  return async (...args: A): Promise<void> => {
    try {
      process.exitCode = await action(...args);
    } catch (error) {
      process.exitCode = exitCodeOf(error);
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`evalshard: ${message}\n`);
      if (process.env.EVALSHARD_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    }
  };
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof AuthError || error instanceof ForbiddenError) return EXIT.credentialsRefused;
  return error instanceof ConfigError ? EXIT.usage : EXIT.failure;
}
