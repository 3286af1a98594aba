import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { VerifyReport } from "../../src/index.js";
import { sealedManifestText } from "../../src/output/manifest-seal.js";
import { emulator } from "../pull/support.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 39 item 1, issue 40 item 10: `verify` understands every dataset evalshard writes. Each is built by the
// built CLI (convert, or pull against the bundled emulator); untouched it verifies (exit 0), and a one-byte
// change in a shard, the quarantine or the manifest exits 5 with a finding naming that file.
const FIXTURES = fileURLToPath(new URL("../../fixtures/records/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, name);
const RL = [fixture("views-rl.ndjson"), fixture("rl-valid.ndjson"), fixture("rl-invalid-trajectory.ndjson")];
const DPO = [fixture("views-dpo.ndjson"), fixture("dpo-invalid-pair.ndjson"), "--context", fixture("views-rl.ndjson")];
const SFT = [fixture("sft-selection.ndjson"), fixture("sft-bad-lines.ndjson"), "--seats", "all", "--no-filter-participation-gated"];
const root = tempDir("evalshard-verify-every-");
let copies = 0;

interface Manifest {
  shards: { path: string; rows: number }[];
  quarantine: { path: string } | null;
  records_out: number;
  view?: { rows_out: number };
  [key: string]: unknown;
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;

async function verifyCli(dir: string): Promise<{ code: number | null; report: VerifyReport }> {
  const r = await spawnCli(["verify", dir, "--json"]);
  return { code: r.status, report: JSON.parse(r.stdout) as VerifyReport };
}

/** A copy of a dataset (its snapshot links kept relative) with one byte of `path` flipped at `at` (default the middle). */
function tampered(dir: string, path: string, at?: (bytes: Buffer) => number): string {
  const copy = join(root, `copy-${copies++}`);
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  const bytes = readFileSync(join(copy, path));
  const i = at === undefined ? bytes.length >> 1 : at(bytes);
  bytes[i] = bytes[i]! ^ 0x01;
  writeFileSync(join(copy, path), bytes);
  return copy;
}

/** A copy whose manifest is `change`d and sealed again, as a careful forger would. */
function forged(dir: string, change: (m: Manifest) => Manifest): string {
  const copy = join(root, `copy-${copies++}`);
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  writeFileSync(join(copy, "manifest.json"), sealedManifestText(change(manifestOf(copy))));
  return copy;
}

const named = (report: VerifyReport) => report.findings.map((f) => f.path);

const datasets: Record<string, string> = {};
const converts: Record<string, string[]> = {
  records: [...SFT, "--max-quarantined", "1"],
  "split (--split-by run)": [...SFT, "--split", "train=0.5,test=0.5", "--split-by", "run", "--max-quarantined", "1"],
  "trl-prompt-completion": [...RL, "--view", "trl-prompt-completion", "--max-quarantined", "1"],
  "trl-kto": [...RL, "--view", "trl-kto", "--max-quarantined", "1"],
  "openai-sft": [...RL, "--view", "openai-sft", "--max-quarantined", "1"],
  "rl-steps (jsonl.gz)": [...RL, "--view", "rl-steps", "--to", "jsonl", "--compression", "gzip", "--max-quarantined", "1"],
  "trl-preference": [...DPO, "--view", "trl-preference", "--max-quarantined", "1"],
  "openai-dpo": [...DPO, "--view", "openai-dpo", "--max-quarantined", "1"],
};
const pulls: Record<string, string[]> = {
  "nightly pull rl --view trl-prompt-completion --split": ["rl", "--view", "trl-prompt-completion", "--split", "train=0.5,test=0.5", "--buckets", "4"],
  "nightly pull dpo --view trl-preference": ["dpo", "--view", "trl-preference", "--buckets", "4", "--to", "jsonl"],
};

beforeAll(async () => {
  for (const [name, args] of Object.entries(converts)) {
    const out = join(root, `convert-${Object.keys(datasets).length}`);
    const r = await spawnCli(["convert", ...args, "--out", out]);
    expect(r.status, `${name}: ${r.stderr}`).toBe(0);
    datasets[name] = out;
  }
  const emu = await emulator({ seed: 39, runs: 40 });
  for (const [name, args] of Object.entries(pulls)) {
    const out = join(root, `pull-${Object.keys(datasets).length}`);
    // Two nights: the second reuses unchanged buckets, so the manifest's night sums are not all "added". No grace:
    // verify reads the dataset after the publish, not during it.
    for (let night = 0; night < 2; night++) {
      const r = await spawnCli(["pull", ...args, "--base-url", emu.url, "--out", out, "--snapshot-grace", "0"], { EVAL_OWNER_TOKEN: emu.ownerToken });
      expect(r.status, `${name}: ${r.stderr}`).toBe(0);
      await emu.advance();
    }
    datasets[name] = out;
  }
}, 240_000);

describe.each([...Object.keys(converts), ...Object.keys(pulls)])("%s", (name) => {
  it("verifies untouched (exit 0): every row its manifest promises, the view's rows for a view", async () => {
    const dir = datasets[name]!;
    const manifest = manifestOf(dir);
    const { code, report } = await verifyCli(dir);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    expect(report.checked.shards).toBe(manifest.shards.length);
    expect(report.checked.rows).toBe(manifest.view?.rows_out ?? manifest.records_out);
    expect(report.checked.rows).toBeGreaterThan(0);
  });

  it("a one-byte change in a shard exits 5 naming the shard", async () => {
    const dir = datasets[name]!;
    const shard = manifestOf(dir).shards.find((s) => s.rows > 0)!.path;
    const { code, report } = await verifyCli(tampered(dir, shard));
    expect(code).toBe(5);
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: "sha256_mismatch", path: shard }));
  });

  it("a one-byte change in the manifest exits 5 naming it: in the middle, in a number, in its spacing", async () => {
    const dir = datasets[name]!;
    const digit = (bytes: Buffer) => bytes.indexOf('"records_in": ') + '"records_in": '.length;
    const space = (bytes: Buffer) => bytes.indexOf("\n ") + 1;
    for (const at of [undefined, digit, space]) {
      const { code, report } = await verifyCli(tampered(dir, "manifest.json", at));
      expect(code).toBe(5);
      expect(named(report)).toContain("manifest.json");
    }
  });

  it("a one-byte change in the quarantine exits 5 naming it", async (context) => {
    const dir = datasets[name]!;
    const quarantine = manifestOf(dir).quarantine;
    // The emulator's exports are valid records: a nightly here has no quarantine to change.
    if (quarantine === null) return context.skip();
    const { code, report } = await verifyCli(tampered(dir, quarantine.path));
    expect(code).toBe(5);
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: "sha256_mismatch", path: quarantine.path }));
  });
});

describe("a manifest forged to look sealed still has to add up", () => {
  it("records_in off by one: counts_mismatch", async () => {
    const dir = forged(datasets.records!, (m) => ({ ...m, records_in: (m.records_in as number) + 1 }));
    const { code, report } = await verifyCli(dir);
    expect(code).toBe(5);
    expect(report.findings.map((f) => f.kind)).toContain("counts_mismatch");
  });

  it("a view's rows_out off by one: view_rows_mismatch; records_out changed instead: the view read other records", async () => {
    const dir = forged(datasets["trl-prompt-completion"]!, (m) => ({ ...m, view: { ...m.view!, rows_out: m.view!.rows_out + 1 } }));
    const { code, report } = await verifyCli(dir);
    expect([code, report.findings.map((f) => f.kind)]).toEqual([5, ["view_rows_mismatch"]]);
    const other = forged(datasets["trl-prompt-completion"]!, (m) => ({ ...m, records_out: m.records_out - 1, dropped: { ...(m.dropped as object), flagged: 2 } }));
    const kinds = (await verifyCli(other)).report.findings.map((f) => `${f.kind} ${f.message}`);
    expect(kinds).toContainEqual(expect.stringMatching(/^manifest_field_mismatch manifest.json's view.records_in/));
  });

  it("a split's rows moved to the other split: split_rows_mismatch", async () => {
    const dir = forged(datasets["split (--split-by run)"]!, (m) => {
      const split = m.split as { splits: Record<string, { rows: number }> };
      const { train, test } = split.splits as { train: { rows: number }; test: { rows: number } };
      return { ...m, split: { ...split, splits: { train: { ...train, rows: train.rows - 1 }, test: { ...test, rows: test.rows + 1 } } } };
    });
    const { code, report } = await verifyCli(dir);
    expect(code).toBe(5);
    expect(report.findings.map((f) => f.kind)).toEqual(["split_rows_mismatch", "split_rows_mismatch"]);
  });

  it("a night whose changes do not add up to its rows", async () => {
    const dir = forged(datasets["nightly pull dpo --view trl-preference"]!, (m) => ({ ...m, night: { ...(m.night as object), added: 10_000 } }));
    const { code, report } = await verifyCli(dir);
    expect(code).toBe(5);
    expect(report.findings.map((f) => f.message)).toContainEqual(expect.stringMatching(/^manifest.json's night adds 10000/));
  });
});

describe("a path that leaves the dataset is a finding (exit 5), never a file opened (exit 2)", () => {
  for (const path of ["../outside.parquet", "/etc/passwd", "data/../../x.parquet", "data//x.parquet", "C:\\x.parquet"]) {
    it(`a shard at ${JSON.stringify(path)}`, async () => {
      const dir = forged(datasets.records!, (m) => ({ ...m, shards: m.shards.map((s, i) => (i === 0 ? { ...s, path } : s)) }));
      const { code, report } = await verifyCli(dir);
      expect(code).toBe(5);
      expect(report.findings).toContainEqual(expect.objectContaining({ kind: "path_outside_dataset", path }));
    });
  }

  it("the quarantine at ../../etc/passwd", async () => {
    const dir = forged(datasets.records!, (m) => ({ ...m, quarantine: { ...m.quarantine!, path: "../../etc/passwd" } }));
    const { code, report } = await verifyCli(dir);
    expect(code).toBe(5);
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: "path_outside_dataset", path: "../../etc/passwd" }));
  });
});
