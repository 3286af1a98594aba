import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emulator, envFor, PIPELINES } from "../jobs/nightly/support.js";
import { gracelessPipeline } from "../helpers/graceless-pipeline.js";
import { HAS_SCRIPT, onTerminal } from "../helpers/on-terminal.js";
import { s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// `run|pull --dry-run` through the built CLI against the bundled emulator (in this process: async spawns only).
// A dry run fetches, validates, converts and judges the guards as the night would, reports the counts a real
// night then publishes, and leaves every byte of the output as it was: no snapshot, no lock, no score cache.
const root = tempDir("evalshard-dry-run-");
const SFT = gracelessPipeline(join(PIPELINES, "nightly-sft.yaml"), root);

/** Every entry under `dir` (links as their target, files as their sha256): equal trees, equal outputs. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, rel);
    const stat = lstatSync(path);
    out[rel] = stat.isSymbolicLink() ? `-> ${readlinkSync(path)}` : stat.isDirectory() ? "dir" : createHash("sha256").update(readFileSync(path)).digest("hex");
  }
  return out;
}

interface Summary {
  event: string;
  changed: boolean;
  would_publish?: boolean;
  added: number;
  replaced: number;
  removed: number;
  unchanged: number;
  records_out: number;
}
const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Summary;
const counts = (s: Summary) => ({ added: s.added, replaced: s.replaced, removed: s.removed, unchanged: s.unchanged, records_out: s.records_out });

describe("evalshard run --dry-run", () => {
  it("counts what a night would change, publishes nothing, and the real night then does exactly that", async () => {
    const emu = await emulator({ seed: 31, runs: 120 });
    const out = join(root, "nights");
    const env = envFor(emu, out);
    const dataset = join(out, "nightly-sft");

    // The first night, dry: everything would be added, and no folder is left behind.
    const firstDry = await spawnCli(["run", SFT, "--dry-run", "--json"], env);
    expect(firstDry.status, firstDry.stderr).toBe(0);
    const first = summaryOf(firstDry.stdout);
    expect(first).toMatchObject({ event: "night_dry_run", changed: false, would_publish: true, replaced: 0, removed: 0, unchanged: 0 });
    expect(first.added).toBeGreaterThan(0);
    expect(existsSync(out)).toBe(false);

    const real = await spawnCli(["run", SFT, "--json"], env);
    expect(real.status, real.stderr).toBe(0);
    expect(summaryOf(real.stdout)).toMatchObject({ event: "night_finished", changed: true, ...counts(first) });

    // The service moves on (new runs, rescores, late flags): the dry run says what the next night will do.
    await emu.advance();
    const before = tree(dataset);
    expect(Object.keys(before).some((p) => p.includes("score"))).toBe(true); // the score cache is part of what must not change
    const dry = await spawnCli(["run", SFT, "--dry-run"], env); // off a terminal: the summary is a JSON line anyway
    expect(dry.status, dry.stderr).toBe(0);
    const predicted = summaryOf(dry.stdout);
    expect(predicted).toMatchObject({ event: "night_dry_run", changed: false, would_publish: true });
    expect(predicted.added + predicted.replaced + predicted.removed).toBeGreaterThan(0);
    expect(tree(dataset)).toEqual(before); // no snapshot, no lock, no score cache written, nothing removed
    // Its log lines end with the dry run's phase, never "published".
    const phases = dry.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => (JSON.parse(l) as { phase: string }).phase);
    expect(phases.at(-1)).toBe("dry_run");
    expect(phases).not.toContain("published");

    const next = await spawnCli(["run", SFT, "--json"], env);
    expect(next.status, next.stderr).toBe(0);
    expect(summaryOf(next.stdout)).toMatchObject({ event: "night_finished", changed: true, ...counts(predicted) });

    // Nothing left to change: a dry run says the night would leave the dataset as it is.
    const idle = await spawnCli(["run", SFT, "--dry-run", "--json"], env);
    expect(idle.status, idle.stderr).toBe(0);
    expect(summaryOf(idle.stdout)).toMatchObject({ would_publish: false, added: 0, replaced: 0, removed: 0 });
  });

  it("`pull --dry-run` judges the publish guards: the exit code a real night gives, with nothing published or kept", async () => {
    const emu = await emulator({ seed: 32, runs: 60 });
    const out = join(root, "guarded");
    const env = envFor(emu, out);
    const pull = ["pull", "sft", "--base-url", emu.url, "--out", out, "--json"];
    const ok = await spawnCli([...pull, "--min-records", "1", "--dry-run"], env);
    expect(ok.status, ok.stderr).toBe(0);
    expect(summaryOf(ok.stdout)).toMatchObject({ event: "night_dry_run", would_publish: true });
    expect(existsSync(out)).toBe(false);

    const dry = await spawnCli([...pull, "--min-records", "100000", "--dry-run"], env);
    expect(dry.status, dry.stderr).toBe(7);
    expect(summaryOf(dry.stdout)).toMatchObject({ event: "night_dry_run", would_publish: false });
    expect(dry.stderr).toMatch(/^evalshard: .*min-records/m);
    expect(existsSync(out)).toBe(false); // not even a refused attempt under _rejected/

    const real = await spawnCli([...pull, "--min-records", "100000"], env);
    expect(real.status).toBe(dry.status);
    expect(existsSync(join(out, "_rejected"))).toBe(true); // the real night keeps what it refused
  });
});

describe("evalshard pull --dry-run on object storage", () => {
  it("leaves every object as it was: no snapshot, no lease lock, no pointer or score cache written", { timeout: 120_000 }, async () => {
    const server = await startS3rver("datasets");
    try {
      const emu = await emulator({ seed: 33, runs: 60 });
      const env = { ...s3rverCliEnv(server), ...envFor(emu, "unused") };
      const pull = ["pull", "sft", "--base-url", emu.url, "--out", "s3://datasets/nightly", "--json"];
      const first = await spawnCli(pull, env);
      expect(first.status, first.stderr).toBe(0);
      await emu.advance();
      const before = tree(server.dir);
      const dry = await spawnCli([...pull, "--dry-run"], env);
      expect(dry.status, dry.stderr).toBe(0);
      const predicted = summaryOf(dry.stdout);
      expect(predicted).toMatchObject({ event: "night_dry_run", would_publish: true });
      expect(tree(server.dir)).toEqual(before);
      const next = await spawnCli(pull, env);
      expect(next.status, next.stderr).toBe(0);
      expect(summaryOf(next.stdout)).toMatchObject({ changed: true, ...counts(predicted) });
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!HAS_SCRIPT)("evalshard run --dry-run on a terminal", () => {
  it("says nothing was published and what a night would do, with its counts", async () => {
    const emu = await emulator({ seed: 34, runs: 40 });
    const out = join(root, "terminal");
    const shown = await onTerminal(["run", SFT, "--dry-run"], envFor(emu, out));
    expect(shown).toMatch(new RegExp(`nightly-sft: dry run, nothing published; a night would publish ${join(out, "nightly-sft")}`));
    expect(shown).toMatch(/added [1-9]\d*, replaced 0, removed 0, unchanged 0/);
    expect(shown).not.toContain('{"ts"');
    expect(existsSync(out)).toBe(false);
  });
});
