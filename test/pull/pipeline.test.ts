import { describe, expect, it } from "vitest";
import type { Flow } from "../../src/core/flow.js";
import { planPipeline, runPipeline } from "../../src/library/stream-pipeline.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { emulator, readAll, source } from "./support.js";

describe("httpSource in convert's pipeline (two reads)", async () => {
  const emu = await emulator({ seed: 17, runs: 150, faults: "partial=0.05" });

  for (const format of ["sft", "rl", "dpo"] as const) {
    it(`${format}: every spooled line becomes one flow item; gated runs are dropped by the filter`, async () => {
      const src = source(emu, { auth: "owner", format, dpo: { strategy: "adjacent" } });
      const plan = await planPipeline([src]);
      expect(plan.format.name).toBe(format);
      // planPipeline reads only as far as the first record: the pull's gates are known after a full read.
      const lines = await readAll(src);
      const gates = src.gates();
      const out: Flow<ValidRecord>[] = [];
      for await (const item of runPipeline([src], plan, { gates })) out.push(item);
      expect(out).toHaveLength(lines.length);
      expect(out.filter((f) => f.kind === "quarantined")).toEqual([]);
      expect(out.filter((f) => f.kind === "stream_error")).toHaveLength(format === "dpo" ? 0 : src.report().streamErrors);
      const dropped = out.flatMap((f) => (f.kind === "dropped" ? [f.reason] : []));
      if (format !== "dpo") expect(dropped).toContain("participation_gated");
      expect(out.filter((f) => f.kind === "kept").length).toBeGreaterThan(0);
    });
  }
});
