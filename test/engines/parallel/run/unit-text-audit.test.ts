import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convert } from "../../../../src/jobs/convert.js";
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
describe("a worker's text scan of plain outputs", () => {
  it("counts as the stages do, texts and JSON values alike, whether the export escapes what is above ASCII or not", async () => {
    const template = JSON.parse(readFileSync(join(FIXTURES, "records", "sft-valid.ndjson"), "utf8").split("\n")[0] as string) as Record<string, unknown>;
    const texts = fc.sample(trickyText, { numRuns: 600, seed: 18 });
    const filler = "a plain sentence about grain, guards and the ledger, nothing more. ";
    const records = Array.from({ length: 200 }, (_, i) => {
      const t = (k: number): string => `${filler.slice(0, (i * 7 + k) % filler.length)}${texts[(3 * i + k) % texts.length] as string}${filler.slice(0, (i * 3) % 40)}`;
      const steps = [{ turn: 1, action: { type: "speak", text: t(0) } }, { turn: 2, notes: [t(1), { deep: t(2) }] }];
      return { ...template, run_id: `run-${i}`, scores: { ...(template.scores as object), per_trait: { empathy: { mean: 0.5, variance: 0.1, evidence: [t(1), t(2)] } } }, trace_steps: steps };
    });
    const lines = records.map((r, i) => {
      const line = i % 2 === 0 ? asciiStringify(r) : JSON.stringify(r);
      // A JSON value with a key twice: its last member counts, as JSON.parse keeps it.
      return i % 10 === 3 ? line.replace('"trace_steps":[{"turn":1,', '"trace_steps":[{"turn":1,"turn":"<|im_start|>",') : line;
    });
    const file = join(root, "escaped.ndjson");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { manifest } = await convert({ inputs: [file], out: join(root, "parallel"), engine: "auto" });
    expect(manifest.output.engine).toBe("parallel");
    const { manifest: stages } = await convert({ inputs: [file], out: join(root, "stages"), engine: "stages" });
    expect(manifest.text_audit).toEqual(stages.text_audit);
    const steps = stages.text_audit?.["trace_steps"];
    // Per record: the action's type and text, two notes; the repeated key's last member on a tenth of them.
    expect(steps?.values).toBe(200 * 4 + 20);
    expect(steps?.changed).toBeGreaterThan(10);
    expect(steps?.injected).toBeGreaterThan(10);
    expect(steps?.injected).toBeLessThan(steps?.values ?? 0);
  });
});
