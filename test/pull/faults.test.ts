import { describe, expect, it } from "vitest";
import type { HttpSource } from "../../src/pull/index.js";
import { byKey, emulator, readAll, source } from "./support.js";

const FAULTS = "429=0.08,502=0.05,503=0.02,504=0.02,reset=0.03,cut=0.03,partial=0.05";
const SEED = 23;
const RUNS = 200;

/** Record lines apart from the `partial_stream` lines passed through. */
function split(lines: readonly string[]) {
  const errors = lines.filter((l) => l.includes('"partial_stream"') && JSON.parse(l).error === "partial_stream");
  return { records: byKey(lines), errors };
}

describe("httpSource under faults", async () => {
  const clean = await emulator({ seed: SEED, runs: RUNS, platform: { agentExportLimitCap: 30 } });
  const faulty = await emulator({ seed: SEED, runs: RUNS, faults: FAULTS, platform: { agentExportLimitCap: 30 } });

  for (const [auth, format] of [["owner", "sft"], ["owner", "rl"], ["agent", "sft"], ["agent", "rl"], ["owner", "dpo"]] as const) {
    it(`${auth} ${format}: the same records as a fault-free pull of the same world`, async () => {
      const want = split(await readAll(source(clean, { auth, format, dpo: { strategy: "all" } })));
      const src: HttpSource = source(faulty, { auth, format, dpo: { strategy: "all" } });
      const got = split(await readAll(src));
      expect(want.errors).toEqual([]);
      expect(want.records.size).toBeGreaterThan(0);
      expect(got.records).toEqual(want.records);
      const report = src.report();
      expect(report.retries).toBeGreaterThan(0);
      // partial_stream lines are passed through as they came, and counted.
      if (format !== "dpo") expect(got.errors.length).toBe(report.streamErrors);
    });
  }

  it("faults were injected, cut streams were completed, partial_stream runs were recovered", async () => {
    const src = source(faulty, { auth: "owner", format: "sft" });
    await readAll(src);
    const kinds = new Set(faulty.faultLog.map((f) => f.kind));
    for (const kind of ["429", "502", "503", "504", "reset", "cut", "partial"]) expect(kinds).toContain(kind);
    const report = src.report();
    expect(report.streamErrors).toBeGreaterThan(0);
    expect(report.perRunFetches).toBeGreaterThan(0);
  });
});
