import { spawn } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetReadObjects } from "hyparquet";
import { zstdDecompressSync as zstdDecompress } from "node:zlib";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { validateInputs } from "../../src/jobs/validate.js";
import type { ConvertOptions } from "../../src/plan/options.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 39: one gating rule for convert (both executors) and validate. A seat is gated by its own card's
// stamp (`true` or an object); absent, null and false pass; anything else, or a card whose key cannot be
// read, drops the seat as unreadable_gating. Cards faulty elsewhere (no partial_credit) still gate.
const root = tempDir("evalshard-gating-");
let n = 0;
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;

const template = JSON.parse(readFileSync(`${FIXTURES}records/rl-selection.ndjson`, "utf8").split("\n")[0] as string) as Record<string, unknown>;
/** An RL record of `runId`'s seat `index` (agent key `key-a` or `key-b`). */
const record = (runId: string, index: number) => ({ ...template, run_id: runId, seat: { seat_index: index, role: "negotiator", agent_key_id: index === 0 ? "key-a" : "key-b" } });
const outcomes = { met_count: 1, total_checks: 2, total_actions: 3, win_conditions: [], partial_credit: { per_condition: {}, total: 0, max_possible: 1 } };
const { partial_credit: _, ...withoutPartialCredit } = outcomes;
const card = (runId: string, key: unknown, over: Record<string, unknown> = {}) => ({ run_id: runId, agent_key_id: key, outcomes, traits: { per_trait: { empathy: { mean: 0.5, variance: 0, evidence: [] } } }, ...over });

/** Each run's key-a card shows one case; key-b's card is plain (no stamp). Named after the case. */
const CASES: Record<string, Record<string, unknown> | "no-key"> = {
  "g-true": { participation_gated: true, outcomes: withoutPartialCredit },
  "g-object": { participation_gated: { player_messages: 2, min_player_messages: 5 }, outcomes: withoutPartialCredit },
  "g-absent": {},
  "g-null": { participation_gated: null },
  "g-false": { participation_gated: false },
  "g-string-false": { participation_gated: "false" },
  "g-number": { participation_gated: 1 },
  "g-no-key": "no-key",
};

function world(): { inputs: string; scorecards: string } {
  const dir = join(root, `w${n++}`);
  const inputs = `${dir}-records.ndjson`;
  const scorecards = `${dir}-scorecards.ndjson`;
  const runs = Object.keys(CASES);
  writeFileSync(inputs, `${runs.flatMap((id) => [record(id, 0), record(id, 1)]).map((r) => JSON.stringify(r)).join("\n")}\n`);
  const cards = runs.flatMap((id) => {
    const c = CASES[id] as Record<string, unknown> | "no-key";
    return [c === "no-key" ? card(id, 7) : card(id, "key-a", c), card(id, "key-b")];
  });
  // As the service answers: one `{scorecards, versions}` response per run.
  writeFileSync(scorecards, `${runs.map((id) => JSON.stringify({ scorecards: cards.filter((c) => c.run_id === id), versions: [1] })).join("\n")}\n`);
  return { inputs, scorecards };
}

async function keptSeats(dir: string): Promise<string[]> {
  const rows: Record<string, unknown>[] = [];
  for (const f of readdirSync(join(dir, "data")).filter((f) => f.endsWith(".parquet")).sort()) {
    const bytes = readFileSync(join(dir, "data", f));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    rows.push(...((await parquetReadObjects({ file, compressors: { ZSTD: (input: Uint8Array) => new Uint8Array(zstdDecompress(input)) } })) as Record<string, unknown>[]));
  }
  return rows.map((r) => `${r.run_id as string}/${(r.seat as { agent_key_id: string }).agent_key_id}`);
}

/** convert on both executors (worker threads, main's thread): the same counts and the same rows, which it returns. */
async function bothExecutors(options: Omit<ConvertOptions, "out">) {
  const [a, b] = [join(root, `${n++}-threads`), join(root, `${n++}-main`)];
  const threads = await convert({ ...options, out: a, workers: 2 });
  const main = await convert({ ...options, out: b, workers: 0 });
  expect({ out: threads.manifest.records_out, dropped: threads.manifest.dropped }).toEqual({ out: main.manifest.records_out, dropped: main.manifest.dropped });
  const seats = await keptSeats(a);
  expect(seats).toEqual(await keptSeats(b));
  return { manifest: main.manifest, seats };
}

describe("--gate-by seat (the default): a seat by its own card", () => {
  it("true and an object gate, even on a card without partial_credit; absent, null and false pass; \"false\", 1 and a card without a key drop as unreadable_gating", async () => {
    const { inputs, scorecards } = world();
    const { manifest, seats } = await bothExecutors({ inputs: [inputs], scorecards });
    expect(manifest.dropped).toEqual({ participation_gated: 2, unreadable_gating: 4 });
    expect(seats.sort()).toEqual(["g-absent/key-a", "g-absent/key-b", "g-false/key-a", "g-false/key-b", "g-null/key-a", "g-null/key-b", "g-number/key-b", "g-object/key-b", "g-string-false/key-b", "g-true/key-b"]);
    const summary = manifest.options.scorecards as Record<string, unknown>;
    expect(summary).toMatchObject({ cards: 13, gating_cards: 16, gated_runs: 2, gated_seats: 2, unreadable_cards: 3, quarantined_count: 0, warnings_count: 6 });
    // Each unreadable card is named by run, key and field; the cards without partial_credit gate but give no score.
    const warnings = manifest.warnings.join("\n");
    expect(warnings).toMatch(/3 card\(s\) unreadable_gating: their seats are dropped as unreadable_gating \(first, line 6 scorecards\[0\]: run g-string-false, agent_key_id "key-a", field participation_gated: participation_gated is "false"/);
    expect(warnings).toMatch(/3 card\(s\) not_scored: read for gating, not for scores \(first, line 1 scorecards\[0\]: run g-true, agent_key_id "key-a", field outcomes\.partial_credit/);
    const listed = (summary.warnings as { run_id: string; agent_key_id: string; field: string; reason: string }[]).filter((w) => w.reason === "unreadable_gating");
    expect(listed.map((w) => `${w.run_id} ${w.agent_key_id} ${w.field}`)).toEqual(['g-string-false "key-a" participation_gated', 'g-number "key-a" participation_gated', "g-no-key 7 agent_key_id"]);
  });

  it("validate counts what convert drops", async () => {
    const { inputs, scorecards } = world();
    const result = await validateInputs({ inputs: [inputs], scorecards });
    expect(result.dropped).toMatchObject({ participation_gated: 2, unreadable_gating: 4 });
  });

  it("with the rule off, no stamp is read: every seat is kept", async () => {
    const { inputs, scorecards } = world();
    const { manifest } = await bothExecutors({ inputs: [inputs], scorecards, filters: { participation_gated: false } });
    expect(manifest.records_out).toBe(16);
  });
});

describe("--gate-by run: every seat of a run any of whose cards is gated", () => {
  it("drops both seats of a gated run, and of a run with an unreadable card", async () => {
    const { inputs, scorecards } = world();
    const { manifest, seats } = await bothExecutors({ inputs: [inputs], scorecards, gateBy: "run" });
    expect(manifest.dropped).toEqual({ participation_gated: 4, unreadable_gating: 6 });
    expect(seats.sort()).toEqual(["g-absent/key-a", "g-absent/key-b", "g-false/key-a", "g-false/key-b", "g-null/key-a", "g-null/key-b"]);
    expect(manifest.options).toMatchObject({ gate_by: "run" });
  });
});

describe("the CLI", () => {
  const cli = (...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args]);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });

  it("--gate-by run, the unreadable card named on stderr; --gate-by team is a usage error", async () => {
    const { inputs, scorecards } = world();
    const out = join(root, `cli-${n++}`);
    const r = await cli("convert", inputs, "--out", out, "--scorecards", scorecards, "--gate-by", "run");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/participation_gated 4/);
    expect(r.stdout).toMatch(/unreadable_gating 6/);
    expect(r.stderr).toMatch(/warning: scorecards: 3 card\(s\) unreadable_gating.*run g-string-false, agent_key_id "key-a", field participation_gated/);
    const bad = await cli("convert", inputs, "--out", join(root, `cli-${n++}`), "--gate-by", "team");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/gate-by/);
  });
});
