import { spawn } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, HttpError, NetworkError } from "../../src/http/index.js";
import { tempDir } from "../helpers/temp-dir.js";
import { fakeClock, reply, serve, type TestServer } from "./support.js";

// A failure that no retry can mend is thrown at once; a transient one is retried with the backoff.

const TOKEN = "esk_permanent_errors_test_token";
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const client = (baseUrl: string) => createServiceClient({ baseUrl, auth: "agent", token: TOKEN, clock: fakeClock(), retry: { maxAttempts: 5 } });

/** A loopback port nothing listens on (connection refused: transient). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("permanent network errors are not retried", () => {
  it.each([
    ["a port the runtime refuses (bad port)", "http://127.0.0.1:6000", /bad port.*not retried/],
    ["a host name that does not exist (NXDOMAIN)", "https://no-such-host.invalid", /ENOTFOUND.*not retried/],
  ])("%s: one attempt, a message that says so", async (_, baseUrl, message) => {
    const error = await client(baseUrl).getJson("/api/agent/runs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(1);
    expect((error as Error).message).toMatch(message);
  });

  it("a refused connection is transient: retried up to maxAttempts", async () => {
    const error = await client(`http://127.0.0.1:${await closedPort()}`).getJson("/api/agent/runs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).attempts).toBe(5);
  });
});

describe("4xx statuses are final, but 408 and 429", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve((req, res) => reply(res, Number(req.url?.slice(1)), { error: { code: "x", message: "no" } }, { "retry-after": "0" }));
  });
  afterAll(() => server.close());

  it.each([400, 401, 403, 404, 405, 409, 410, 422])("%i: one request", async (status) => {
    const before = server.seen.length;
    const error = await client(server.url).getJson(`/${status}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(server.seen.length - before).toBe(1);
  });

  it.each([408, 429])("%i: retried with the backoff, up to maxAttempts", async (status) => {
    const before = server.seen.length;
    const error = await client(server.url).getJson(`/${status}`).catch((e: unknown) => e);
    expect((error as HttpError).status).toBe(status);
    expect(server.seen.length - before).toBe(5);
  });
});

describe("through the CLI", () => {
  it("pull from a bad port fails at once, naming the cause, within seconds", async () => {
    const out = tempDir("evalshard-permanent-");
    const started = Date.now();
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, "pull", "sft", "--base-url", "http://127.0.0.1:6000", "--out", out, "--auth", "agent"], {
        env: { PATH: process.env.PATH ?? "", EVAL_API_KEY: TOKEN },
      });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (status) => resolve({ status, stderr }));
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/bad port/);
    expect(r.stderr).toMatch(/not retried/);
    // Eight attempts with the default backoff take tens of seconds; one takes well under that.
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
