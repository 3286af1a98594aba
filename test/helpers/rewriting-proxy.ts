import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, expect } from "vitest";

/**
 * A raw HTTP proxy in front of `upstream` (closed after the test file): every answer is read whole,
 * uncompressed, and handed to `edit` with the request's path and query (and the answer, for its status and
 * headers), which returns the bytes to send.
 */
export async function rewritingProxy(upstream: string, edit: (url: string, body: Buffer, answer: IncomingMessage) => Buffer): Promise<string> {
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, "accept-encoding": "identity" } }, (answer: IncomingMessage) => {
      const parts: Buffer[] = [];
      answer.on("data", (d: Buffer) => parts.push(d));
      answer.on("end", () => {
        expect(answer.headers["content-encoding"] ?? "identity").toBe("identity");
        const body = edit(req.url ?? "", Buffer.concat(parts), answer);
        const headers = { ...answer.headers };
        delete headers["content-length"];
        delete headers["transfer-encoding"];
        res.writeHead(answer.statusCode ?? 502, { ...headers, "content-length": String(body.length) });
        res.end(body);
      });
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
