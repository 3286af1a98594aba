import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../src/http/index.js";

/** A clock whose sleeps return at once and move time forward; every wait is recorded. */
export interface FakeClock extends Clock {
  readonly sleeps: number[];
  advance(ms: number): void;
}

export function fakeClock(start = Date.parse("2025-06-02T12:00:00Z")): FakeClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

export { seededRandom } from "../helpers/seeded-random.js";

export interface TestServer {
  readonly url: string;
  /** Requests seen, in order. */
  readonly seen: { method: string; url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** A loopback HTTP server answering with `handler`; the nth request (from 0) is passed along. */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse, n: number) => unknown): Promise<TestServer> {
  const seen: TestServer["seen"] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization });
    Promise.resolve(handler(req, res, seen.length - 1)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and headers. */
export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** Everything an error shows: message, stack, JSON, inspect output, and the same for its causes. */
export async function everythingShown(value: unknown): Promise<string> {
  const { inspect } = await import("node:util");
  const parts: string[] = [];
  let current: unknown = value;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    parts.push(String(current), JSON.stringify(current) ?? "", inspect(current, { depth: 5, showHidden: true }));
    if (current instanceof Error) parts.push(current.message, current.stack ?? "");
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join("\n");
}

/** Collects an async iterable, returning what came before a throw and the error. */
export async function drain<T>(items: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const out: T[] = [];
  try {
    for await (const item of items) out.push(item);
    return { items: out, error: undefined };
  } catch (error) {
    return { items: out, error };
  }
}
