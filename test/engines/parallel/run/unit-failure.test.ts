import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../../src/core/errors.js";
import { errorFromThread, rethrown } from "../../../../src/engines/parallel/run/unit-failure.js";

/** The error a worker thread's 'error' event hands main when the thread throws `error`. */
function crossed(error: unknown): Promise<Error> {
  return new Promise((resolve, reject) => {
    const worker = new Worker("const { workerData } = require('node:worker_threads'); throw Object.assign(new Error(workerData.message), workerData.own);", {
      eval: true,
      workerData: { message: (error as Error).message, own: { ...(error as object) } },
    });
    worker.on("error", resolve);
    worker.on("exit", () => reject(new Error("the worker exited without an error event")));
  });
}

describe("a unit's failure crossing threads", () => {
  it("a ConfigError a worker rethrows reaches main as a ConfigError (exit 2), even by the thread's 'error' event", async () => {
    const thrown = rethrown(new ConfigError("The chat template failed on a row"));
    const back = errorFromThread(await crossed(thrown));
    expect(back).toBeInstanceOf(ConfigError);
    expect(back.message).toBe("The chat template failed on a row");
  });

  it("any other error stays a plain Error", async () => {
    const thrown = rethrown(new Error("disk full"));
    const back = errorFromThread(await crossed(thrown));
    expect(back).not.toBeInstanceOf(ConfigError);
    expect(back.message).toBe("disk full");
  });
});
