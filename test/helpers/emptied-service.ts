import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";

/** What the service answers once emptied: no run at all, or its runs with no records. */
export type Emptiness = "none" | "runs" | "records";

/**
 * The real emulator behind a proxy that can make the service answer empty, as an outage or a wiped
 * account does (issue 40): `runs` answers `GET /api/evals` with `{"runs": []}`, `records` every export
 * with no record (a bulk stream with no lines, a run's `{"records": []}`).
 */
export async function emptiedService(emu: RunningEmulator): Promise<{ service: RunningEmulator; empty: (how: Emptiness) => void }> {
  let how: Emptiness = "none";
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", emu.url).pathname;
    const upstream = request(new URL(req.url ?? "/", emu.url), { method: req.method, headers: req.headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on("data", (d: Buffer) => parts.push(d));
      answer.on("end", () => {
        let body = Buffer.concat(parts).toString("utf8");
        const ndjson = String(answer.headers["content-type"] ?? "").includes("ndjson");
        if (answer.statusCode === 200 && how === "runs" && path === "/api/evals") body = JSON.stringify({ runs: [] });
        if (answer.statusCode === 200 && how === "records" && ndjson) body = "";
        if (answer.statusCode === 200 && how === "records" && !ndjson && path.includes("/finetuning")) body = JSON.stringify({ records: [] });
        const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(body)) };
        delete headers["transfer-encoding"];
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { service: { ...emu, url }, empty: (next) => void (how = next) };
}
