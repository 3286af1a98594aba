import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockedError } from "../../../src/core/errors.js";
import { lockOutput } from "../../../src/output/lock-output.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, night } from "./support.js";

const root = tempDir("evalshard-nightly-");
let n = 0;
const out = () => join(root, `o${n++}`);

describe("nightly runs against the emulator", () => {
  it("three nights with rescoring and late flags end in what one fresh pull produces", async () => {
    const emu = await emulator({ seed: 11, runs: 240 });
    const nightly = out();
    const results = [];
    for (let i = 0; i < 3; i++) {
      results.push(await night("nightly-sft", envFor(emu, nightly)));
      await emu.advance();
    }
    const fresh = out();
    await emu.close().catch(() => undefined);
    // A fresh world at the same epoch answers the same bytes (the emulator is deterministic).
    const again = await emulator({ seed: 11, runs: 240, epoch: 3 });
    const last = await night("nightly-sft", envFor(again, nightly));
    const full = await night("nightly-sft", envFor(again, fresh));
    expect(datasetOf(join(nightly, "nightly-sft"))).toEqual(datasetOf(join(fresh, "nightly-sft")));
    expect(full.manifest.records_out).toBe(last.manifest.records_out);
    const totals = results.map((r) => r.manifest.night);
    expect(totals.slice(1).some((t) => t.replaced > 0)).toBe(true);
    expect(totals.slice(1).some((t) => t.removed > 0)).toBe(true);
    expect(totals.slice(1).some((t) => t.added > 0)).toBe(true);
  });

  it("a rerun with nothing new changes nothing", async () => {
    const emu = await emulator({ seed: 12, runs: 120 });
    const dir = out();
    await night("nightly-rl", envFor(emu, dir));
    const files = readdirSync(join(dir, "nightly-rl/data")).map((f) => [f, statSync(join(dir, "nightly-rl/data", f)).mtimeMs]);
    const manifest = readFileSync(join(dir, "nightly-rl/manifest.json"), "utf8");
    const second = await night("nightly-rl", envFor(emu, dir));
    expect(second.changed).toBe(false);
    expect(second.manifest.night).toMatchObject({ added: 0, replaced: 0, removed: 0 });
    expect(readdirSync(join(dir, "nightly-rl/data")).map((f) => [f, statSync(join(dir, "nightly-rl/data", f)).mtimeMs])).toEqual(files);
    expect(readFileSync(join(dir, "nightly-rl/manifest.json"), "utf8")).toBe(manifest);
  });

  it("a rerun over a ledger that no longer matches its state fails, as before the ledger was read only to build", async () => {
    const emu = await emulator({ seed: 12, runs: 120 });
    const dir = out();
    await night("nightly-rl", envFor(emu, dir));
    const ledger = join(dir, "nightly-rl/_state/ledger.ndjson");
    const lines = readFileSync(ledger, "utf8").trim().split("\n");
    const manifest = readFileSync(join(dir, "nightly-rl/manifest.json"), "utf8");
    writeFileSync(ledger, `${lines.slice(1).join("\n")}\n`);
    // Nothing new on the service: without the check at open, the no-op shortcut would not notice.
    await expect(night("nightly-rl", envFor(emu, dir))).rejects.toThrow(/does not match/);
    expect(readFileSync(join(dir, "nightly-rl/manifest.json"), "utf8")).toBe(manifest);
  });

  it("a pull through seeded faults produces the same dataset as one without", async () => {
    const clean = await emulator({ seed: 13, runs: 200 });
    const faulty = await emulator({ seed: 13, runs: 200, faults: "429=0.08,502=0.05,503=0.02,504=0.02,reset=0.03,cut=0.03,partial=0.05" });
    const a = out();
    const b = out();
    await night("nightly-sft", envFor(clean, a));
    const withFaults = await night("nightly-sft", envFor(faulty, b));
    expect(faulty.faultLog.length).toBeGreaterThan(0);
    expect(datasetOf(join(b, "nightly-sft"))).toEqual(datasetOf(join(a, "nightly-sft")));
    expect(withFaults.manifest.stream_errors).toBe(withFaults.manifest.pull?.streamErrors);
  });

  it("N=4 partitions together produce the single-job dataset", async () => {
    const emu = await emulator({ seed: 14, runs: 200 });
    const single = out();
    await night("nightly-sft", envFor(emu, single));
    const parts = out();
    const ledgers: string[] = [];
    for (let k = 0; k < 4; k++) {
      const r = await night("nightly-sft", envFor(emu, parts, { EVALSHARD_PARTITION: `${k}/4` }));
      expect(r.outDir).toBe(join(parts, "nightly-sft", "_parts", `part-${k}-of-4`));
      ledgers.push(...readFileSync(join(r.outDir, "_state/ledger.ndjson"), "utf8").trim().split("\n").filter(Boolean));
    }
    const keysOf = (lines: string[]) => lines.map((l) => { const { key, version, sha256 } = JSON.parse(l); return JSON.stringify([key, version, sha256]); }).sort();
    expect(keysOf(ledgers)).toEqual(keysOf(readFileSync(join(single, "nightly-sft/_state/ledger.ndjson"), "utf8").trim().split("\n")));
  });

  it("writes the shipped Parquet layout, loadable as a Hugging Face dataset card describes", async () => {
    const emu = await emulator({ seed: 15, runs: 60 });
    const dir = out();
    const r = await night("nightly-dpo", envFor(emu, dir), false);
    expect(r.manifest.shards.every((s) => /^data\/train-\d{5}-of-00016\.parquet$/.test(s.path))).toBe(true);
    expect(readFileSync(join(dir, "nightly-dpo/README.md"), "utf8")).toMatch(/path: data\/train-\*/);
    expect(r.manifest.pull?.pairs.fetched).toBeGreaterThan(0);
  });

  it("a second job on the same output fails at once and changes nothing", async () => {
    const emu = await emulator({ seed: 16, runs: 40 });
    const dir = out();
    await night("nightly-sft", envFor(emu, dir));
    const before = datasetOf(join(dir, "nightly-sft"));
    const release = await lockOutput(join(dir, "nightly-sft"));
    try {
      await emu.advance();
      await expect(night("nightly-sft", envFor(emu, dir))).rejects.toThrow(LockedError);
    } finally {
      await release();
    }
    expect(datasetOf(join(dir, "nightly-sft"))).toEqual(before);
  });
});
