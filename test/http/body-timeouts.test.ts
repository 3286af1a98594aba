import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, httpSource, NetworkError, StreamCutError } from "../../src/index.js";
import { tempDir } from "../helpers/temp-dir.js";
import { drain, fakeClock } from "./support.js";

// A raw TCP server that sends response headers and then stalls (or trickles forever): once headers are in,
// the body still has an idle and a total timeout, on every request, so the job fails with a clear message
// instead of hanging (a half-open connection looks exactly like this to the client).

const TOKEN = "esk_body_timeouts_test_token";
const IDLE = 150;

type Behaviour = (socket: Socket) => void;

const headers = (type: string) => `HTTP/1.1 200 OK\r\ncontent-type: ${type}\r\ntransfer-encoding: chunked\r\n\r\n`;
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

/** Per path: what the server writes before it goes silent (the socket stays open). */
const ROUTES: Record<string, Behaviour> = {
  // JSON: headers, then nothing.
  "/json-stall": (s) => s.write(headers("application/json")),
  // JSON: half a body, then nothing.
  "/json-half": (s) => s.write(headers("application/json") + chunk('{"runs": [')),
  // NDJSON: two lines, then nothing.
  "/ndjson-stall": (s) => s.write(headers("application/x-ndjson") + chunk('{"a":1}\n{"a":2}\n')),
  // NDJSON: a byte every 40 ms for ever: never idle, never done.
  "/ndjson-trickle": (s) => {
    s.write(headers("application/x-ndjson"));
    const timer = setInterval(() => s.writable && s.write(chunk(" ")), 40);
    s.on("close", () => clearInterval(timer));
  },
  // The owner run list answers; the bulk export stalls after one record.
  "/api/evals": (s) => {
    const body = JSON.stringify({ runs: [{ run_id: "r1", campaign_id: "c1", status: "completed", scored: true, created_at: "2025-01-01T00:00:00Z" }] });
    s.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  },
  "/api/evals/finetuning": (s) => s.write(headers("application/x-ndjson") + chunk(`${JSON.stringify({ format_version: "1.1", run_id: "r1", seat: { seat_index: 0 } })}\n`)),
};

let server: Server;
let url: string;
const sockets = new Set<Socket>();
const resets: string[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A client that gives up on a body with bytes still unread in its socket closes with a reset
    // (ECONNRESET here); with no listener that reset is an uncaught error of the test process, which
    // vitest reports after every test passed. Resets are what these tests provoke: they are recorded.
    socket.on("error", (error: NodeJS.ErrnoException) => resets.push(error.code ?? error.message));
    socket.once("data", (data) => {
      const path = /^GET (\S+)/.exec(data.toString("latin1"))?.[1]?.split("?")[0] ?? "";
      (ROUTES[path] ?? ((s: Socket) => s.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n")))(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const client = (options: { totalTimeoutMs?: number; auth?: "agent" | "owner" } = {}) =>
  createServiceClient({ baseUrl: url, auth: options.auth ?? "agent", token: TOKEN, clock: fakeClock(), retry: { maxAttempts: 2 }, idleTimeoutMs: IDLE, ...(options.totalTimeoutMs === undefined ? {} : { totalTimeoutMs: options.totalTimeoutMs }) });

describe("a body that stalls after the headers fails, retried, with a message naming the limit", () => {
  it.each(["/json-stall", "/json-half"])("JSON %s: NetworkError 'the body stalled: no bytes for 150 ms' after 2 attempts", async (path) => {
    const started = performance.now();
    const error = await client().getJson(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("timeout");
    expect((error as NetworkError).attempts).toBe(2);
    expect((error as Error).message).toMatch(/failed after 2 attempts: the body stalled: no bytes for 150 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("NDJSON: the lines before the stall are handed out, then StreamCutError 'stalled'", async () => {
    const { items, error } = await drain(client().getNdjson("/ndjson-stall"));
    expect(items).toEqual(['{"a":1}', '{"a":2}']);
    expect(error).toBeInstanceOf(StreamCutError);
    expect((error as StreamCutError).reason).toBe("stalled");
    expect((error as Error).message).toMatch(/ended early \(the body stalled: no bytes for 150 ms\) after 2 complete line/);
  });

  it("a body that trickles for ever passes the idle limit but not the total one", async () => {
    const { items, error } = await drain(client({ totalTimeoutMs: 600 }).getNdjson("/ndjson-trickle"));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(StreamCutError);
    expect((error as Error).message).toMatch(/the response was not complete within 600 ms/);
  });

  it("a body given up with bytes unread resets the connection, and the reset is no uncaught error", async () => {
    // On a loaded machine the server's next trickle write and the client's timeout fall in one turn of
    // the event loop: the bytes land unread and the client's close becomes a reset. Blocking the loop
    // past both makes that turn happen every time.
    const before = resets.length;
    const drained = drain(client({ totalTimeoutMs: 300 }).getNdjson("/ndjson-trickle"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let round = 0; round < 2; round++) {
      const until = performance.now() + 400;
      while (performance.now() < until);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    const { error } = await drained;
    expect(error).toBeInstanceOf(StreamCutError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resets.slice(before)).toContain("ECONNRESET");
  });

  it("a pull whose bulk stream stalls fails the job (no hang), naming the request and the limit", async () => {
    const src = httpSource({ client: client({ auth: "owner" }), auth: "owner", format: "sft", spoolDir: tempDir("evalshard-stall-") });
    const started = performance.now();
    const error = await (async () => {
      for await (const _ of src.lines()) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamCutError);
    expect((error as Error).message).toMatch(/GET \/api\/evals\/finetuning\?limit=500&campaign_id=c1 ended early \(the body stalled: no bytes for 150 ms\)/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
