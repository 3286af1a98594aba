import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePipeline, runNightly } from "../../../src/index.js";
import type { NightlyResult } from "../../../src/index.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, fastClock, PIPELINES } from "./support.js";

// A rerun whose pulled input has the digest the published dataset was made from converts nothing
// (issue 21: a no-op rerun at most 1.5x a bare download). What it reports must be what converting says.

async function nightOf(name: string, env: Record<string, string>, edit = (text: string) => text): Promise<NightlyResult> {
  const text = edit(readFileSync(join(PIPELINES, `${name}.yaml`), "utf8").replace("to: parquet", "to: jsonl").replace("compression: zstd", "compression: none"));
  return runNightly(parsePipeline(text, `${name}.yaml`, env), { env, clock: fastClock(), retry: { maxAttempts: 12, baseDelayMs: 1 } });
}

/**
 * A published SFT night whose manifest carries a planted warning: a rerun that reports it read the
 * published manifest rather than converting.
 */
async function plantedNight(seed: number, runs: number) {
  const emu = await emulator({ seed, runs });
  const out = tempDir("evalshard-unchanged-");
  await nightOf("nightly-sft", envFor(emu, out));
  const path = join(out, "nightly-sft", "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as { warnings: string[] };
  writeFileSync(path, JSON.stringify({ ...manifest, warnings: [...manifest.warnings, "planted"] }));
  return { emu, out };
}

/** A manifest without tonight's times. */
const timeless = ({ started_at: _s, finished_at: _f, manifest_sha256: _d, ...rest }: NightlyResult["manifest"]) => rest;

describe("a rerun with nothing new converts nothing and reports what converting reports", () => {
  it.each(["nightly-sft", "nightly-rl"])("%s: the unconverted rerun's result equals a converting rerun's", async (name) => {
    const emu = await emulator({ seed: 61, runs: 150 });
    const out = tempDir("evalshard-unchanged-");
    const dataset = join(out, name);
    await nightOf(name, envFor(emu, out));
    const before = datasetOf(dataset);
    const published = readFileSync(join(dataset, "manifest.json"), "utf8");
    expect(JSON.parse(readFileSync(join(dataset, "_state/night-input.json"), "utf8"))).toMatchObject({ input_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const fast = await nightOf(name, envFor(emu, out));
    // Without the digest, the same rerun converts every record again.
    rmSync(join(dataset, "_state/night-input.json"));
    const converted = await nightOf(name, envFor(emu, out));
    expect(converted.changed).toBe(false);
    expect(fast.changed).toBe(false);
    expect(fast.decision).toEqual(converted.decision);
    expect(timeless(fast.manifest)).toEqual(timeless(converted.manifest));
    expect(fast.manifest.night).toEqual({ added: 0, replaced: 0, removed: 0, unchanged: converted.manifest.night.unchanged, buckets_rewritten: [] });
    expect(datasetOf(dataset)).toEqual(before);
    expect(readFileSync(join(dataset, "manifest.json"), "utf8")).toBe(published);
  });

  it("takes the published manifest's counts instead of converting, and converts again once the service changes", async () => {
    const { emu, out } = await plantedNight(62, 120);
    const rerun = await nightOf("nightly-sft", envFor(emu, out));
    expect(rerun.changed).toBe(false);
    expect(rerun.manifest.warnings).toContain("planted");

    await emu.advance();
    const next = await nightOf("nightly-sft", envFor(emu, out));
    expect(next.changed).toBe(true);
    expect(next.manifest.warnings).not.toContain("planted");
  });

  it("a changed pipeline converts: the digest covers the pipeline", async () => {
    const { emu, out } = await plantedNight(63, 80);
    const other = await nightOf("nightly-sft", envFor(emu, out), (text) => text.replace("concurrency: 4", "concurrency: 2"));
    expect(other.changed).toBe(false);
    expect(other.manifest.warnings).not.toContain("planted");
  });
});
