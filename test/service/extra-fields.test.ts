import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/service/index.js";
import { agentScorecard, coaching, ownerScorecard, withExtras } from "./spec-shapes.js";
import { call, emulator, keysOf } from "./support.js";

// The emulator serves only the fields the spec shows unless it is started with `extraFields: true`; then
// its documented additions (docs/emulator.md) come too. Same seed, same world: only the fields differ.

let strict: RunningEmulator;
let extras: RunningEmulator;
/** A scored run the primary key is seated in, with a generated coaching item for that seat. */
let coached: string;

beforeAll(async () => {
  strict = await emulator({ seed: 11, runs: 300 });
  extras = await emulator({ seed: 11, runs: 300, extraFields: true });
  const key = keysOf(strict).primary;
  const runs = (await call(strict, "/api/agent/runs", key)).json<{ run_id: string; scored: boolean }[]>();
  for (const run of runs.filter((r) => r.scored)) {
    const got = await call(strict, `/api/agent/runs/${run.run_id}/coaching`, key);
    if (got.json<{ coaching: unknown[] }>().coaching.length > 1) {
      coached = run.run_id;
      break;
    }
  }
  expect(coached).toBeDefined();
});
afterAll(async () => {
  await strict.close();
  await extras.close();
});

describe("extra response fields are served only behind the emulator's extraFields option", () => {
  const cases = [
    ["agent scorecard", (id: string) => `/api/agent/runs/${id}/scorecard`, "primary", agentScorecard, withExtras.agentScorecard],
    ["owner scorecard", (id: string) => `/api/evals/${id}/scorecard`, "owner", ownerScorecard, withExtras.ownerScorecard],
    ["agent coaching", (id: string) => `/api/agent/runs/${id}/coaching`, "primary", coaching, withExtras.coaching],
    ["owner coaching", (id: string) => `/api/evals/${id}/coaching`, "owner", coaching, withExtras.coaching],
  ] as const;
  it.each(cases)("%s: spec fields only by default; the additions with extraFields", async (_, path, who, spec, extended) => {
    const a = await call(strict, path(coached), keysOf(strict)[who]);
    const b = await call(extras, path(coached), keysOf(extras)[who]);
    const plain = spec.safeParse(a.json());
    expect(plain.success, plain.error?.message).toBe(true);
    // The extended shape requires the additions, so the strict body fails it and the extended one passes.
    expect(extended.safeParse(a.json()).success).toBe(false);
    const full = extended.safeParse(b.json());
    expect(full.success, full.error?.message).toBe(true);
    expect(spec.safeParse(b.json()).success).toBe(false);
  });
});
