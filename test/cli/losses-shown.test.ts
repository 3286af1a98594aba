import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { emulator } from "../pull/support.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 36: losses are shown where they happen. A view's rows and what it left out, by reason, on convert's and a
// pull's output and in inspect; a split far from its asked fractions is a warning naming the group counts.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const root = tempDir("evalshard-losses-");
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));

interface ViewSection {
  name: string;
  trainer: string | null;
  records_in: number;
  rows_out: number;
  steps_dropped?: Record<string, number>;
  pairs_dropped?: Record<string, number>;
}

/** The line the CLI must print, rebuilt from the manifest's own numbers. */
function expectedLine(v: ViewSection): RegExp {
  const leftOut = v.steps_dropped ?? v.pairs_dropped ?? {};
  const total = Object.values(leftOut).reduce((a, b) => a + b, 0);
  const unit = v.steps_dropped === undefined ? "pairs" : "steps";
  const head = `view ${v.name}${v.trainer === null ? "" : ` (${v.trainer})`}: ${v.rows_out} rows from ${v.records_in} records; `;
  const tail = total === 0 ? "none left out" : `left out ${total} ${unit}, [0-9.]+% \\(${Object.entries(leftOut).map(([r, n]) => `${r} ${n}`).join(", ")}\\)`;
  return new RegExp(`^${head.replace(/[()]/g, "\\$&")}${tail}$`, "m");
}

describe("a view's losses on convert's summary and in inspect", () => {
  it.each([
    ["trl-prompt-completion", [fixture("views-rl.ndjson"), fixture("rl-valid.ndjson"), "--view", "trl-prompt-completion"]],
    ["trl-preference", [fixture("views-dpo.ndjson"), fixture("dpo-invalid-pair.ndjson"), "--context", fixture("views-rl.ndjson"), "--view", "trl-preference", "--max-quarantined", "1"]],
  ])("%s: the summary line carries the manifest's rows and left-out counts; inspect names the view, not the record policy", async (view, args) => {
    const out = join(root, view);
    const r = await spawnCli(["convert", ...(args as string[]), "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const m = manifestOf(out);
    expect(m.view.name).toBe(view);
    const line = expectedLine(m.view);
    expect(r.stdout).toMatch(line);
    // The fixtures do lose steps or pairs: a line saying "none left out" would not prove the counts are shown.
    expect(Object.keys(m.view.steps_dropped ?? m.view.pairs_dropped).length).toBeGreaterThan(0);

    const i = await spawnCli(["inspect", out, "--rows", "0"]);
    expect(i.status, i.stderr).toBe(0);
    expect(i.stdout).toMatch(line);
    expect(i.stdout).not.toMatch(/^untrusted: /m);
    expect(i.stdout).toMatch(/^view rows: every text sanitized/m);
  });

  it("a plain convert's summary has no view line, and inspect keeps the record policy", async () => {
    const out = join(root, "plain");
    const r = await spawnCli(["convert", fixture("sft-valid.ndjson"), "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^view /m);
    const i = await spawnCli(["inspect", out, "--rows", "0"]);
    expect(i.stdout).toMatch(/^untrusted: /m);
  });
});

describe("a split far from its asked fractions", () => {
  const SPLIT = ["--split", "train=0.8,validation=0.1,test=0.1", "--split-by", "run", "--split-seed", "s36", "--seats", "all"];

  it("is a warning with the group counts, on stderr and in the manifest, when a split lands more than 5 points off", async () => {
    const out = join(root, "skewed");
    const r = await spawnCli(["convert", fixture("sft-valid.ndjson"), fixture("sft-filters.ndjson"), "--out", out, ...SPLIT]);
    expect(r.status, r.stderr).toBe(0);
    const m = manifestOf(out);
    const splits = m.split.splits as Record<string, { rows: number; groups: number; row_fraction: number }>;
    const off = Object.entries(splits).filter(([name, c]) => Math.abs(c.row_fraction - m.split.fractions[name]) > 0.05).map(([name]) => name);
    // A handful of runs cannot land on 80/10/10.
    expect(off.length).toBeGreaterThan(0);
    const warning = (m.warnings as string[]).find((w) => w.startsWith("split: "));
    expect(warning).toBeDefined();
    expect(warning).toContain(`split: ${off.join(", ")} landed more than 5 points from the asked fraction`);
    const groups = Object.values(splits).reduce((n, c) => n + c.groups, 0);
    for (const [name, c] of Object.entries(splits)) expect(warning).toContain(`${name} ${(c.row_fraction * 100).toFixed(1)}% of rows (asked ${(m.split.fractions[name] * 100).toFixed(1)}%; ${c.groups} of ${groups} groups)`);
    expect(r.stderr).toContain(`evalshard: warning: ${warning}`);
  });

  it("says nothing when every split lands within 5 points", async () => {
    const out = join(root, "even");
    const r = await spawnCli(["convert", fixture("sft-valid.ndjson"), "--out", out, "--split", "train=1", "--split-by", "run", "--seats", "all"]);
    expect(r.status, r.stderr).toBe(0);
    expect(manifestOf(out).warnings.filter((w: string) => w.startsWith("split: "))).toEqual([]);
    expect(r.stderr).not.toMatch(/warning: split: /);
  });
});

describe("a pull's summary", () => {
  let emu: Awaited<ReturnType<typeof emulator>>;
  beforeAll(async () => {
    emu = await emulator({ seed: 36, runs: 24 });
  });

  it("--json gives the view's losses as the manifest counts them", async () => {
    const out = join(root, "pull-dpo");
    const r = await spawnCli(["pull", "dpo", "--view", "trl-preference", "--buckets", "2", "--base-url", emu.url, "--out", out, "--snapshot-grace", "0", "--json"], { EVAL_OWNER_TOKEN: emu.ownerToken });
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split("\n").at(-1) as string);
    const m = manifestOf(out);
    const leftOut = m.view.pairs_dropped as Record<string, number>;
    expect(summary.view).toEqual({
      view: "trl-preference",
      trainer: m.view.trainer,
      records_in: m.view.records_in,
      rows_out: m.view.rows_out,
      unit: "pairs",
      left_out: leftOut,
      left_out_total: Object.values(leftOut).reduce((a, b) => a + b, 0),
    });
    expect(summary.warnings).toEqual(m.warnings);
  });
});
