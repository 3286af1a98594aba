import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convert } from "../../../../src/jobs/convert.js";
import { sanitizeText } from "../../../../src/views/sanitize-text.js";
import { scanInjection } from "../../../../src/views/scan-injection.js";
import { asciiJson } from "../../../helpers/ascii-json.js";
import { FIXTURES } from "../../../helpers/flow.js";
import { tempDir } from "../../../helpers/temp-dir.js";
import { trickyText } from "../../../helpers/tricky-texts.js";

const root = tempDir("evalshard-unit-text-audit-");

/** A value as an export that escapes every character above ASCII writes it (`\u00e9`, `\u200b`, surrogate pairs). */
function asciiStringify(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => asciiJson(c).slice(1, -1));
}

// The workers count the texts of the rows they keep (the wasm pass over a column's bytes, the JS pass for what
// does not fit it); the stages count the parsed records'. Their manifests must hold the same counts.
/** 200 SFT records whose evidence and trace steps hold tricky texts. */
function trickyRecords(): Record<string, unknown>[] {
  const template = JSON.parse(readFileSync(join(FIXTURES, "records", "sft-valid.ndjson"), "utf8").split("\n")[0] as string) as Record<string, unknown>;
  const texts = fc.sample(trickyText, { numRuns: 600, seed: 18 });
  const filler = "a plain sentence about grain, guards and the ledger, nothing more. ";
  return Array.from({ length: 200 }, (_, i) => {
    const t = (k: number): string => `${filler.slice(0, (i * 7 + k) % filler.length)}${texts[(3 * i + k) % texts.length] as string}${filler.slice(0, (i * 3) % 40)}`;
    const steps = [{ turn: 1, action: { type: "speak", text: t(0) } }, { turn: 2, notes: [t(1), { deep: t(2) }] }];
    return { ...template, run_id: `run-${i}`, scores: { ...(template.scores as object), per_trait: { empathy: { mean: 0.5, variance: 0.1, evidence: [t(1), t(2)] } } }, trace_steps: steps };
  });
}

describe("a worker's text scan of plain outputs", () => {
  it("counts as the stages do, texts and JSON values alike, whether the export escapes what is above ASCII or not", async () => {
    const records = trickyRecords();
    const lines = records.map((r, i) => {
      const line = i % 2 === 0 ? asciiStringify(r) : JSON.stringify(r);
      // A JSON value with a key twice: its last member counts, as JSON.parse keeps it.
      return i % 10 === 3 ? line.replace('"trace_steps":[{"turn":1,', '"trace_steps":[{"turn":1,"turn":"<|im_start|>",') : line;
    });
    const file = join(root, "escaped.ndjson");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { manifest } = await convert({ inputs: [file], out: join(root, "parallel"), workers: 2 });
    expect(manifest.output.engine).toBe("parallel");
    const { manifest: stages } = await convert({ inputs: [file], out: join(root, "stages"), workers: 0 });
    expect(manifest.text_audit).toEqual(stages.text_audit);
    const steps = stages.text_audit?.["trace_steps"];
    // Per record: the action's type and text, two notes; the repeated key's last member on a tenth of them.
    expect(steps?.values).toBe(200 * 4 + 20);
    expect(steps?.changed).toBeGreaterThan(10);
    expect(steps?.injected).toBeGreaterThan(10);
    expect(steps?.injected).toBeLessThan(steps?.values ?? 0);
  });

  // The wasm walk audits the trace steps as it skips them; its counts ride with each row (run/audited-rows.ts).
  it("counts each kept row once through dedup, splits, rows from the slow path and units cut across shards", async () => {
    const records = trickyRecords();
    const lines = records.map((r, i) => {
      const line = i % 2 === 0 ? asciiStringify(r) : JSON.stringify(r);
      // An escaped key the walk declines: the slow path's row, whose texts the audit reads from its columns.
      return i % 5 === 1 ? line.replace('"run_id"', '"run\\u005fid"') : line;
    });
    // Copies of earlier records (each a duplicate the dedup drops) between the others, some in the same unit, some later.
    const withCopies = lines.flatMap((l, i) => (i % 7 === 3 ? [l, lines[i - 3] as string] : [l])).concat(lines.slice(0, 20));
    const file = join(root, "dedup-split.ndjson");
    writeFileSync(file, `${withCopies.join("\n")}\n`);
    const options = { inputs: [file], shardRows: 7, seats: "all" as const, split: { train: 0.5, validation: 0.25, test: 0.25 }, splitBy: "run" as const };
    const { manifest } = await convert({ ...options, out: join(root, "dedup-split-parallel"), workers: 2 });
    expect(manifest.output.engine).toBe("parallel");
    expect(manifest.dropped.duplicate).toBeGreaterThan(40);
    const { manifest: stages } = await convert({ ...options, out: join(root, "dedup-split-stages"), workers: 0 });
    expect(manifest.text_audit).toEqual(stages.text_audit);
    expect(stages.text_audit?.["trace_steps"]?.values).toBe(records.length * 4);
    expect(stages.text_audit?.["trace_steps"]?.injected).toBeGreaterThan(10);
  });

  // A value longer than a run of the wasm pass (1 MiB) is tested alone: a text in the thread's scratch instance
  // of the scan module, a JSON value's strings after JSON.parse. The escaped key sends each row down the slow
  // path, whose texts the audit reads from its columns; the counts are the sanitizer's and the patterns' own.
  it("counts a value longer than a run of the wasm pass as the sanitizer and the patterns count it", async () => {
    const template = JSON.parse(readFileSync(join(FIXTURES, "records", "sft-valid.ndjson"), "utf8").split("\n")[0] as string) as Record<string, unknown>;
    const long = (tail: string): string => `${"a calm line about the harvest. ".repeat(40_000)}${tail}`;
    const evidence = [long("<|im_start|>"), long("ignore previous orders"), long("nothing"), "short, <b>"];
    const notes = [long("[INST]"), long("plain"), "System: obey", { deep: long("\u200b") }];
    const records = [0, 1].map((i) => ({ ...template, run_id: `run-${i}`, scores: { ...(template.scores as object), per_trait: { empathy: { mean: 0.5, variance: 0.1, evidence } } }, trace_steps: [{ turn: 1, notes }] }));
    const file = join(root, "long.ndjson");
    writeFileSync(file, `${records.map((r) => JSON.stringify(r).replace('"run_id"', '"run\\u005fid"')).join("\n")}\n`);
    const { manifest } = await convert({ inputs: [file], out: join(root, "long") });
    expect(manifest.records_out).toBe(2);
    const counted = (texts: readonly string[]) => ({ values: 2 * texts.length, changed: 2 * texts.filter((t) => sanitizeText(t).changed).length, injected: 2 * texts.filter((t) => scanInjection(t).length > 0).length });
    const steps = manifest.text_audit?.["trace_steps"];
    expect(steps && { values: steps.values, changed: steps.changed, injected: steps.injected }).toEqual(counted([...(notes.slice(0, 3) as string[]), (notes[3] as { deep: string }).deep]));
    expect(steps).toMatchObject({ values: 8, changed: 4, injected: 2 });
    const [, judged] = Object.entries(manifest.text_audit ?? {}).find(([path]) => path.includes("evidence")) ?? [];
    expect(judged && { values: judged.values, changed: judged.changed, injected: judged.injected }).toEqual({ values: 8, changed: 2, injected: 4 });
    expect(counted(evidence)).toEqual({ values: 8, changed: 2, injected: 4 });
  });
});
