import { describe, expect, it } from "vitest";
import type { EmulatorOptions, RunningEmulator } from "../../src/service/index.js";
import { discover, ENDPOINTS, send, tokenFor } from "./endpoints.js";
import { call, emulator, keysOf } from "./support.js";

/** A session touching every route group, in a fixed order; returns what each answer looked like. */
async function session(emu: RunningEmulator): Promise<string[]> {
  const keys = keysOf(emu);
  const seen: string[] = [];
  const record = async (path: string, token: string, init: RequestInit = {}) => {
    const got = await call(emu, path, token, init);
    const headers = [...got.headers.entries()].filter(([name]) => name !== "keep-alive" && name !== "connection");
    seen.push(`${init.method ?? "GET"} ${path} -> ${got.status} ${JSON.stringify(headers)}\n${got.text}`);
    return got;
  };
  // Discovery calls are retried past injected faults (and recorded, faults included).
  const until200 = async (path: string, token: string) => {
    for (;;) {
      const got = await record(path, token);
      if (got.status === 200) return got;
    }
  };
  const runs = (await until200("/api/agent/runs", keys.primary)).json() as { run_id: string; scored: boolean }[];
  const scored = runs.filter((r) => r.scored).slice(0, 4);
  for (const r of scored) {
    for (const path of ["status", "scorecard", "coaching", "finetuning", "finetuning/rl"]) await record(`/api/agent/runs/${r.run_id}/${path}`, keys.primary);
    for (const path of ["scorecard", "coaching", "transcript", "finetuning?include_transcript=true", "finetuning/rl"]) await record(`/api/evals/${r.run_id}/${path}`, keys.owner);
  }
  await record(`/api/agent/runs/${scored[0]?.run_id}/dpo?other=${scored[1]?.run_id}`, keys.primary);
  await record(`/api/evals/dpo?run_id_a=${scored[0]?.run_id}&run_id_b=${scored[2]?.run_id}`, keys.owner);
  for (const path of ["/api/agent/finetuning?limit=30", "/api/agent/finetuning/rl?limit=10", "/api/agent/batches", "/api/agent/suites"]) await record(path, keys.primary);
  const batch = (await until200("/api/agent/batches", keys.primary)).json().batches[0].batch_id;
  await record(`/api/agent/batches/${batch}`, keys.primary);
  await record(`/api/agent/runs?batch_id=${batch}`, keys.primary);
  await record("/api/api-keys", keys.owner, { method: "POST", body: JSON.stringify({ name: "det", scopes: ["play", "read:scores"] }) });
  await record("/api/api-keys", keys.owner);
  await record("/_emulator/advance", keys.owner, { method: "POST" });
  for (const path of ["/api/evals", "/api/evals/finetuning?limit=200", "/api/evals/finetuning/rl?limit=50"]) await record(path, keys.owner);
  return seen;
}

async function twice(options: EmulatorOptions): Promise<[string[], string[], RunningEmulator, RunningEmulator]> {
  const a = await emulator(options);
  const b = await emulator(options);
  const result: [string[], string[], RunningEmulator, RunningEmulator] = [await session(a), await session(b), a, b];
  await Promise.all([a.close(), b.close()]);
  return result;
}

describe("determinism (same seed and options, same bytes)", () => {
  it("two servers answer every endpoint of the issue with identical status, headers and body, before and after an advance", async () => {
    const [a, b] = await Promise.all([emulator({ seed: 11, runs: 300 }), emulator({ seed: 11, runs: 300 })]);
    const [ca, cb] = [await discover(a), await discover(b)];
    expect({ ...b.info, url: null }).toEqual({ ...a.info, url: null });
    expect({ ...cb, emu: null }).toEqual({ ...ca, emu: null });
    for (let round = 0; round < 2; round++) {
      for (const e of ENDPOINTS) {
        const [x, y] = [await send(e, ca, e.path(ca), tokenFor(e, ca)), await send(e, cb, e.path(cb), tokenFor(e, cb))];
        const ok = e.method === "POST" ? 201 : 200;
        // After the advance the DPO pair may no longer be answerable; every route still answers alike.
        if (round === 0 || e.records !== "dpo") expect(x.status, `${e.route} ${x.text.slice(0, 200)}`).toBe(ok);
        expect(y.status, e.route).toBe(x.status);
        expect([...y.headers.entries()], e.route).toEqual([...x.headers.entries()]);
        expect(y.text === x.text, e.route).toBe(true);
      }
      await Promise.all([a.advance(), b.advance()]);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("injects the same faults in the same places", async () => {
    const [a, b, first, second] = await twice({ seed: 42, runs: 300, faults: "429=0.15,502=0.1,503=0.05,partial=0.2" });
    expect(b).toEqual(a);
    expect(first.faultLog.length).toBeGreaterThan(5);
    expect(second.faultLog).toEqual(first.faultLog);
  });

  it("another seed gives another world", async () => {
    const a = await emulator({ seed: 1 });
    const b = await emulator({ seed: 2 });
    const [x, y] = [await call(a, "/api/evals", a.ownerToken), await call(b, "/api/evals", b.ownerToken)];
    expect(x.text).not.toBe(y.text);
    expect(a.apiKeys[0]?.api_key).not.toBe(b.apiKeys[0]?.api_key);
    await Promise.all([a.close(), b.close()]);
  });
});
