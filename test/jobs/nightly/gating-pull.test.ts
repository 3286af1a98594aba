import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runNightly } from "../../../src/jobs/nightly/run-nightly.js";
import { parsePipeline } from "../../../src/pipeline-file/load-pipeline.js";
import type { RunningEmulator } from "../../../src/service/index.js";
import { clientFor, listed } from "../../pull/support.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator, fastClock } from "./support.js";

// Issue 39: a pull gates by the one rule convert uses: a seat by its own card (gate_by: seat, the
// default), or every seat of a run one of whose cards is gated (gate_by: run); a stamp that cannot be
// read drops its seat. The expectation is read from the emulator's own scorecard routes.
const root = tempDir("evalshard-gating-pull-");
let n = 0;

interface Row {
  run_id?: string;
  seat?: { agent_key_id: string | null };
  run_chosen?: string;
  run_rejected?: string;
}

async function pull(emu: RunningEmulator, format: "sft" | "rl" | "dpo", extra = "") {
  const out = join(root, `o${n++}`);
  const env = { EVAL_BASE_URL: emu.url, EVAL_OWNER_TOKEN: emu.ownerToken };
  const text = `version: 1\nname: g\nsource:\n  kind: http\n  base_url: \${EVAL_BASE_URL}\n  format: ${format}\n${extra}output: {dir: "${out}", to: jsonl, compression: none}\n`;
  const { manifest } = await runNightly(parsePipeline(text, "g.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
  const rows = readdirSync(join(out, "data"))
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readFileSync(join(out, "data", f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l) as Row);
  return { manifest, rows };
}

/** The gated seats (`run/key`) and runs, as the emulator's owner routes stamp them. */
async function gatedOf(emu: RunningEmulator): Promise<{ seats: Set<string>; runs: Set<string> }> {
  const owner = clientFor(emu, "owner");
  const seats = new Set<string>();
  const runs = new Set<string>();
  for (const run of (await listed(owner)).filter((r) => r.scored)) {
    const { scorecards } = await owner.getJson<{ scorecards: { agent_key_id: string | null; participation_gated?: unknown }[] }>(`/api/evals/${run.run_id}/scorecard`);
    for (const card of scorecards.filter((c) => c.participation_gated === true)) {
      seats.add(`${run.run_id}/${card.agent_key_id}`);
      runs.add(run.run_id);
    }
  }
  return { seats, runs };
}

const seatOf = (r: Row) => `${r.run_id}/${r.seat?.agent_key_id}`;

describe("a pull gates by the one rule (seat, or run when asked)", () => {
  for (const format of ["sft", "rl"] as const) {
    it(`${format}: gate_by seat drops gated seats only; gate_by run drops every seat of their runs`, async () => {
      const emu = await emulator({ seed: 41, runs: 80 });
      const gated = await gatedOf(emu);
      expect(gated.seats.size).toBeGreaterThan(0);

      const seat = await pull(emu, format);
      expect(seat.manifest.gate_by).toBe("seat");
      expect(seat.rows.filter((r) => gated.seats.has(seatOf(r)))).toEqual([]);
      // Runs with a gated seat and an ungated one keep the ungated one.
      const keptInGatedRuns = seat.rows.filter((r) => gated.runs.has(r.run_id as string)).length;
      expect(keptInGatedRuns).toBeGreaterThan(0);
      expect(seat.manifest.dropped.participation_gated).toBeGreaterThan(0);
      expect(seat.manifest.dropped.unreadable_gating ?? 0).toBe(0);

      const run = await pull(emu, format, "gate_by: run\n");
      expect(run.manifest.gate_by).toBe("run");
      expect(run.rows.filter((r) => gated.runs.has(r.run_id as string))).toEqual([]);
      expect(run.manifest.records_out).toBe(seat.manifest.records_out - keptInGatedRuns);
      // The filter comes before the selection: a gated run's aic seats, dropped as adversary_seat by seat, are gated by run.
      const aicOfGatedRuns = (seat.manifest.dropped.adversary_seat ?? 0) - (run.manifest.dropped.adversary_seat ?? 0);
      expect(run.manifest.dropped.participation_gated).toBe((seat.manifest.dropped.participation_gated ?? 0) + keptInGatedRuns + aicOfGatedRuns);
    }, 120_000);
  }

  it("an object stamp gates as true does; a text stamp (\"true\", \"false\") drops every agent seat as unreadable_gating, named", async () => {
    const plain = await pull(await emulator({ seed: 42, runs: 60 }), "sft");
    const detail = await pull(await emulator({ seed: 42, runs: 60, gateStamp: "detail" }), "sft");
    expect(detail.rows.map(seatOf)).toEqual(plain.rows.map(seatOf));
    expect(detail.manifest.dropped).toEqual(plain.manifest.dropped);

    const text = await pull(await emulator({ seed: 42, runs: 60, gateStamp: "text" }), "sft");
    expect(text.manifest.records_out).toBe(0);
    expect(text.manifest.dropped.unreadable_gating).toBeGreaterThan(0);
    expect(text.manifest.dropped.participation_gated ?? 0).toBe(0);
    expect(text.manifest.pull?.unreadableGating[0]).toMatch(/^scorecard of run \S+, agent_key_id "[^"]+": participation_gated is "(true|false)"; its seat\(s\) are dropped as unreadable_gating$/);
    expect(text.manifest.warnings.join("\n")).toMatch(/scorecards: \d+ card\(s\) unreadable_gating \(first: scorecard of run/);
  }, 120_000);
});

describe("DPO pairing reads the same rule", () => {
  it("gated runs are never paired, whatever the stamp's shape; a run whose stamp cannot be read is not paired either", async () => {
    const seed = 43;
    const emu = await emulator({ seed, runs: 80 });
    const gated = await gatedOf(emu);
    expect(gated.runs.size).toBeGreaterThan(0);
    const plain = await pull(emu, "dpo", "");
    expect(plain.rows.length).toBeGreaterThan(0);
    expect(plain.rows.filter((r) => gated.runs.has(r.run_chosen as string) || gated.runs.has(r.run_rejected as string))).toEqual([]);

    const detail = await pull(await emulator({ seed, runs: 80, gateStamp: "detail" }), "dpo");
    expect(detail.rows).toEqual(plain.rows);
    expect(detail.manifest.pull?.pairs).toEqual(plain.manifest.pull?.pairs);

    const text = await pull(await emulator({ seed, runs: 80, gateStamp: "text" }), "dpo");
    expect(text.rows).toEqual([]);
    expect(text.manifest.pull?.pairs.planned).toBe(0);
    expect(text.manifest.pull?.pairs.excluded).toBe(text.manifest.pull?.runsScored);
  }, 120_000);
});
