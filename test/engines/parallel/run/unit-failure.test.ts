import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../../src/core/errors.js";
import { errorOf, failedMessage } from "../../../../src/engines/parallel/run/unit-failure.js";
import type { FailedMessage } from "../../../../src/engines/parallel/run/protocol.js";

/** The error main throws for `error` failing a unit on another thread: its failed message, posted across a port. */
function crossed(error: unknown): Promise<Error> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port2.once("message", (message: FailedMessage) => {
      port1.close();
      resolve(errorOf(message));
    });
    port1.postMessage(failedMessage(error));
  });
}

describe("a unit's failure crossing threads", () => {
  it("a ConfigError a unit fails with reaches main as a ConfigError (exit 2)", async () => {
    const back = await crossed(new ConfigError("The chat template failed on a row"));
    expect(back).toBeInstanceOf(ConfigError);
    expect(back.message).toBe("The chat template failed on a row");
  });

  it("any other error stays a plain Error", async () => {
    const back = await crossed(new Error("disk full"));
    expect(back).not.toBeInstanceOf(ConfigError);
    expect(back.message).toBe("disk full");
  });
});
