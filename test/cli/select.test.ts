import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePipeline } from "../../src/pipeline-file/load-pipeline.js";
import { runNightly } from "../../src/jobs/nightly/run-nightly.js";
import { emulator, fastClock } from "../pull/support.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";
import { withoutLogLines } from "../helpers/log-lines.js";
import { spawnCli } from "../helpers/spawn-cli.js";

// Selection and scorecards (issues 19, 20) as users meet them: the built CLI, and nightly pulls from the
// bundled emulator. Async spawn: an emulator runs in this process.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const fx = (name: string) => `${FIXTURES}records/${name}.ndjson`;
const root = tempDir();
let n = 0;
const outDir = () => join(root, `out-${n++}`);

function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
const manifestOf = (out: string) => JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));

describe("selection flags on convert and validate", () => {
  it("--role and --campaign are repeatable; counts by rule in the summary and manifest", async () => {
    const out = outDir();
    const r = await cli("convert", fx("sft-selection"), "--out", out, "--role", "guard", "--role", "negotiator", "--campaign", "camp-2", "--no-filter-participation-gated");
    expect([r.code, withoutLogLines(r.stderr)]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/records in 7, out 3/);
    expect(r.stdout).toMatch(/adversary_seat 1, not_selected 3/);
    const m = manifestOf(out);
    expect(m.options.selection).toMatchObject({ seats: "agent", roles: ["guard", "negotiator"], campaigns: ["camp-2"], minComposite: null });
    expect(m.output.engine).toBe("parallel");
  });

  it("--top-k-per-scenario keeps the same seats on either executor", async () => {
    const expected = { records_out: 2, dropped: { not_top_k: 5 } };
    for (const workers of ["2", "0"]) {
      const out = outDir();
      expect((await cli("convert", fx("sft-selection"), "--out", out, "--top-k-per-scenario", "1", "--seats", "all", "--workers", workers)).code).toBe(0);
      expect(manifestOf(out)).toMatchObject(expected);
    }
  });

  it("a threshold without scores exits 2 and publishes nothing", async () => {
    const out = outDir();
    const r = await cli("convert", fx("rl-selection"), "--out", out, "--min-composite", "3");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--min-composite needs scores: RL records carry none; pass --scorecards/);
    expect(existsSync(join(out, "manifest.json"))).toBe(false);
    expect((await cli("validate", fx("rl-selection"), "--min-objective-rate", "0.5")).code).toBe(2);
    expect((await cli("convert", fx("sft-selection"), "--out", outDir(), "--min-composite", "high")).code).toBe(2);
  });

  // Issue 38: a usage error names the real problem first. The service here refuses every connection, so a
  // pull that tried to fetch before judging its selection would fail with exit 1 on the connection instead.
  it("a DPO pull with a seat rule exits 2 before it fetches anything", async () => {
    const env = { EVAL_OWNER_TOKEN: "owner-token-never-sent", HOME: root };
    const pull = (format: string, ...flags: string[]) => spawnCli(["pull", format, "--base-url", "http://127.0.0.1:9", "--out", join(root, `pull-${n++}`), ...flags], env);
    for (const [format, flags, message] of [
      ["dpo", ["--top-k-per-scenario", "2"], /^evalshard: --top-k-per-scenario cannot apply to DPO pairs/],
      ["dpo", ["--agent-key", "k1"], /^evalshard: --agent-key cannot apply to DPO pairs/],
    ] as const) {
      const r = await pull(format, ...flags);
      expect(r.stderr, `${format} ${flags.join(" ")}`).toMatch(message);
      expect(r.status).toBe(2);
    }
    expect(readdirSync(root).filter((name) => name.startsWith("pull-"))).toEqual([]);
  });

  it("validate reports what a selection would keep", async () => {
    const r = await cli("validate", fx("sft-selection"), "--min-composite", "0.65", "--json", "--no-filter-participation-gated");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ records_in: 7, records_out: 3, dropped: { adversary_seat: 1, below_threshold: 3 }, selection: { minComposite: 0.65 }, warnings: [] });
  });
});

describe("scorecards: checked, gated per seat, missing ones said out loud", () => {
  it("without --scorecards: a warning on stderr, in the manifest, from validate and inspect", async () => {
    const out = outDir();
    const r = await cli("convert", fx("rl-valid"), "--out", out);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: participation_gated: no scorecards were given/);
    expect(manifestOf(out).warnings).toEqual([expect.stringMatching(/no scorecards were given/)]);
    const v = await cli("validate", fx("rl-valid"));
    expect(v.stderr).toMatch(/warning: participation_gated: no scorecards/);
    expect((await cli("inspect", out, "--rows", "0")).stdout).toMatch(/warning: participation_gated: no scorecards/);
  });

  it("--require-scorecards makes it an error (exit 2), unless gating is off", async () => {
    const r = await cli("convert", fx("rl-valid"), "--out", outDir(), "--require-scorecards");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--require-scorecards/);
    expect((await cli("validate", fx("rl-valid"), "--require-scorecards")).code).toBe(2);
    expect((await cli("validate", fx("rl-valid"), "--require-scorecards", "--scorecards", fx("scorecards-selection"))).code).toBe(0);
    expect((await cli("validate", fx("rl-valid"), "--require-scorecards", "--no-filter-participation-gated")).code).toBe(0);
  });

  it('a card faulty elsewhere still gates; a "false" stamp drops its seat as unreadable_gating (issue 39)', async () => {
    const out = outDir();
    const r = await cli("convert", fx("rl-selection"), "--out", out, "--scorecards", fx("scorecards-invalid"));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: scorecards: 1 card\(s\) unreadable_gating: .*line 1: run run-600, agent_key_id "key-1", field participation_gated/);
    expect(r.stderr).toMatch(/warning: scorecards: 1 card\(s\) not_scored: read for gating, not for scores \(first, line 2: run run-601/);
    const m = manifestOf(out);
    expect(m.options.scorecards).toMatchObject({ cards: 2, gating_cards: 3, gated_runs: 2, gated_seats: 2, unreadable_cards: 1, quarantined_count: 0 });
    // run-600's key-2 and run-601's key-1 are stamped; run-600's key-1 card says "false", which is no answer.
    expect(m).toMatchObject({ records_out: 2, dropped: { participation_gated: 2, unreadable_gating: 1 } });
  });
});

describe("a pipeline file with a files source", () => {
  it("takes select: keys, and gates and scores RL seats by their own scorecards", async () => {
    const out = outDir();
    const text = `version: 1\nname: sel\nsource: {kind: files, inputs: ["${fx("rl-selection")}"], scorecards: "${fx("scorecards-selection")}"}\nselect: {min_composite: 0.5}\noutput: {dir: "${out}", to: jsonl, compression: none}\n`;
    const result = await runNightly(parsePipeline(text, "sel.yaml", {}), { env: {} });
    expect(result.manifest).toMatchObject({ records_in: 5, records_out: 2, dropped: { participation_gated: 1, no_scorecard: 2 } });
  });
});

describe("the aic default on emulator data (a nightly pull)", () => {
  it("drops every aic seat as adversary_seat; select: {seats: all} keeps them", async () => {
    const emu = await emulator({ seed: 11, runs: 60 });
    const env = { EVAL_BASE_URL: emu.url, EVAL_OWNER_TOKEN: emu.ownerToken };
    const pull = async (select: string) => {
      const out = outDir();
      const text = `version: 1\nname: sel\nsource:\n  kind: http\n  base_url: \${EVAL_BASE_URL}\n  format: sft\n${select}output: {dir: "${out}", to: jsonl, compression: none}\n`;
      const result = await runNightly(parsePipeline(text, "sel.yaml", env), { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
      const rows = readdirSync(join(out, "data"))
        .filter((f) => f.endsWith(".jsonl"))
        .flatMap((f) => readFileSync(join(out, "data", f), "utf8").split("\n").filter((l) => l !== ""))
        .map((l) => JSON.parse(l) as { seat: { agent_key_id: string | null }; scores: { per_trait: { key: string; value: { mean: number } }[] } | null });
      return { manifest: result.manifest, rows };
    };
    const all = await pull("select: {seats: all}\n");
    const aic = all.rows.filter((r) => r.seat.agent_key_id === null).length;
    expect(aic).toBeGreaterThan(0);
    const agent = await pull("");
    expect(agent.rows.some((r) => r.seat.agent_key_id === null)).toBe(false);
    expect(agent.manifest.dropped.adversary_seat).toBe(aic);
    expect(agent.manifest.records_out).toBe(all.manifest.records_out - aic);
    // SFT carries its own scores: a threshold works on pulls too, and every kept seat meets it.
    const good = await pull("select: {min_composite: 3.5}\n");
    expect(good.manifest.dropped.below_threshold).toBeGreaterThan(0);
    for (const r of good.rows) {
      // JSONL rows hold maps as {key, value} lists, as Parquet rows do.
      const means = (r.scores?.per_trait ?? []).map((t) => t.value.mean);
      expect(means.reduce((s, m) => s + m, 0) / means.length).toBeGreaterThanOrEqual(3.5);
    }
  }, 120_000);
});
