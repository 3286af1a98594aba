import type { RunningEmulator } from "../../src/service/index.js";
import { rewritingProxy } from "./rewriting-proxy.js";

/** What the service answers once emptied: no run at all, or its runs with no records. */
export type Emptiness = "none" | "runs" | "records";

/**
 * The real emulator behind a proxy that can make the service answer empty, as an outage or a wiped
 * account does (issue 40): `runs` answers `GET /api/evals` with `{"runs": []}`, `records` every export
 * with no record (a bulk stream with no lines, a run's `{"records": []}`).
 */
export async function emptiedService(emu: RunningEmulator): Promise<{ service: RunningEmulator; empty: (how: Emptiness) => void }> {
  let how: Emptiness = "none";
  const url = await rewritingProxy(emu.url, (target, body, answer) => {
    if (answer.statusCode !== 200) return body;
    const path = new URL(target, emu.url).pathname;
    const ndjson = String(answer.headers["content-type"] ?? "").includes("ndjson");
    if (how === "runs" && path === "/api/evals") return Buffer.from(JSON.stringify({ runs: [] }));
    if (how === "records" && ndjson) return Buffer.alloc(0);
    if (how === "records" && !ndjson && path.includes("/finetuning")) return Buffer.from(JSON.stringify({ records: [] }));
    return body;
  });
  return { service: { ...emu, url }, empty: (next) => void (how = next) };
}
