import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lineDigest } from "../../src/core/line-digest.js";
import { FORMATS } from "../../src/formats/index.js";
import { planPipeline, runPipeline } from "../../src/library/stream-pipeline.js";
import { fileSource } from "../../src/sources/file-source.js";
import { collect, FIXTURES, outcomes } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";
import type { Flow } from "../../src/core/flow.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";

const src = (name: string) => fileSource(`${FIXTURES}records/${name}`);

describe("planPipeline and runPipeline (the library's composable path)", () => {
  it("settle the format, then decide every line once, dedup across the inputs", async () => {
    const sources = [src("sft-duplicates.ndjson"), src("sft-filters.ndjson")];
    const plan = await planPipeline(sources);
    expect(plan.format.name).toBe("sft");
    expect(plan.forced).toBe(false);
    const out = (await collect(runPipeline(sources, plan))) as Flow<ValidRecord>[];
    expect(out).toHaveLength(12);
    expect(outcomes(out).filter((o) => o.startsWith("kept"))).toEqual(["kept:run-050", "kept:run-051", "kept:run-050", "kept:run-060", "kept:run-065"]);
  });

  it("dedups across inputs whatever their order", async () => {
    const a = [src("sft-valid.ndjson"), src("sft-valid.ndjson")];
    const plan = await planPipeline(a);
    // run-002 is an `aic` seat: kept with `seats: "all"` (the default drops it as adversary_seat, issue 19).
    expect(outcomes((await collect(runPipeline(a, plan, { selection: { seats: "all" } }))) as Flow<ValidRecord>[])).toEqual([
      "kept:run-001",
      "kept:run-002",
      "kept:run-003",
      "dropped:duplicate",
      "dropped:duplicate",
      "dropped:duplicate",
    ]);
  });

  it("with a forced format, records of another format are unsupported, not mixed", async () => {
    const sources = [src("rl-valid.ndjson")];
    const plan = await planPipeline(sources, { format: FORMATS.dpo });
    expect(plan.forced).toBe(true);
    const out = await collect(runPipeline(sources, plan, { format: FORMATS.dpo }));
    expect(out.every((f) => f.kind === "quarantined" && f.reason === "unsupported_format_version")).toBe(true);
  });

  it("resolves the untrusted policy and the output columns", async () => {
    const plan = await planPipeline([src("rl-valid.ndjson")], { untrusted: { "outcome.dm_messages": "keep" } });
    expect(plan.policy.summary["outcome.dm_messages"]).toBe("keep");
    expect(plan.columns.map((c) => c.name)).toContain("outcome");
  });

  it("gives each line's place in its input, and a kept line's length and digest, past blank lines and CRLF endings", async () => {
    const lines = ["sft-duplicates.ndjson", "sft-bad-lines.ndjson"].flatMap((name) => readFileSync(`${FIXTURES}records/${name}`, "utf8").split("\n").filter((l) => l !== ""));
    const path = join(tempDir(), "crlf.ndjson");
    writeFileSync(path, lines.map((l, i) => (i % 3 === 0 ? `${l}\r\n\n` : `${l}\n`)).join(""));
    const bytes = readFileSync(path);
    const sources = [fileSource(path)];
    const out = (await collect(runPipeline(sources, await planPipeline(sources)))) as Flow<ValidRecord>[];
    expect(out).toHaveLength(lines.length);
    expect(new Set(out.map((i) => i.kind))).toEqual(new Set(["kept", "dropped", "quarantined"]));
    for (const [i, item] of out.entries()) {
      const { source, line, offset } = item.provenance;
      expect(source).toBe(path);
      expect(bytes.toString("utf8", 0, offset).split("\n")).toHaveLength(line);
      const text = Buffer.from(lines[i] as string);
      expect(bytes.subarray(offset, offset + text.length).equals(text)).toBe(true);
      if (item.kind === "kept") {
        expect(item.value.bytes).toBe(text.length);
        expect(item.value.digest).toBe(lineDigest(text));
      }
    }
  });
});
