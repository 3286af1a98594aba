import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import type { FormatName } from "../../src/formats/format.js";
import { FORMATS } from "../../src/formats/index.js";
import { parsePath, type PathStep } from "../../src/schema/field-path.js";
import { hasInjection, type RunningEmulator } from "../../src/service/index.js";
import { tempDir } from "../helpers/temp-dir.js";
import { call, emulator, ndjsonLines } from "./support.js";

// The issue: untrusted text fields carry realistic prompt-injection strings "so stripping can be tested
// end to end". Here the emulator's exports go through the pipeline, and nothing injected comes out.

let emu: RunningEmulator;
const dir = tempDir("evalshard-emulator-e2e-");
const exports: Record<FormatName, string> = { sft: "", rl: "", dpo: "" };

beforeAll(async () => {
  emu = await emulator({ seed: 5, runs: 300 });
  const owner = emu.ownerToken;
  exports.sft = (await call(emu, "/api/evals/finetuning?limit=500", owner)).text;
  exports.rl = (await call(emu, "/api/evals/finetuning/rl?limit=500", owner)).text;
  const scored = ndjsonLines(exports.sft).filter((r) => r.scored && r.reconstruction === "per_seat_trace" && r.seat.seat_index === 0);
  const dpo: string[] = [];
  for (const [i, a] of scored.entries()) {
    const b = scored.slice(i + 1).find((x) => x.scenario.campaign_id === a.scenario.campaign_id);
    const got = b === undefined ? null : await call(emu, `/api/evals/dpo?run_id_a=${a.run_id}&run_id_b=${b.run_id}`, owner);
    if (got?.status === 200) dpo.push(...got.json().records.map((r: unknown) => JSON.stringify(r)));
  }
  exports.dpo = `${dpo.join("\n")}\n`;
  for (const format of ["sft", "rl", "dpo"] as const) writeFileSync(join(dir, `${format}.ndjson`), exports[format]);
});
afterAll(() => emu.close());

/** Every value at a path (`a.b[].c`), and a copy of the record without them. */
function valuesAt(value: unknown, steps: readonly PathStep[]): unknown[] {
  const [step, ...rest] = steps;
  if (step === undefined) return [value];
  if (step.kind === "items") return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : [];
  if (value === null || typeof value !== "object") return [];
  const object = value as Record<string, unknown>;
  const children = step.kind === "field" ? (step.name in object ? [object[step.name]] : []) : Object.values(object);
  return children.flatMap((v) => valuesAt(v, rest));
}

function without(value: unknown, steps: readonly PathStep[]): void {
  const [step, ...rest] = steps;
  if (step === undefined || value === null || typeof value !== "object") return;
  if (step.kind === "items") {
    if (Array.isArray(value)) for (const v of value) without(v, rest);
    return;
  }
  const object = value as Record<string, unknown>;
  if (step.kind === "field" && rest.length === 0) delete object[step.name];
  else for (const key of step.kind === "field" ? [step.name] : Object.keys(object)) without(object[key], rest);
}

const FORMAT_NAMES = ["sft", "rl", "dpo"] as const;

describe("injection strings sit exactly where the spec says text is untrusted (spec 4.8, 4.9)", () => {
  it.each(FORMAT_NAMES)("%s: some at every untrusted path, none anywhere else", (format) => {
    const records = ndjsonLines(exports[format]);
    expect(records.length).toBeGreaterThan(format === "dpo" ? 5 : 100);
    const paths = FORMATS[format].untrustedPaths;
    // The bulk exports carry no transcript: it comes only from the owner single-run route on request.
    for (const path of paths.filter((p) => p !== "transcript")) {
      const texts = records.flatMap((r) => valuesAt(r, parsePath(path))).flat();
      expect(texts.some((t) => typeof t === "string" && hasInjection(t)), `${format} ${path}`).toBe(true);
    }
    for (const record of records) {
      for (const path of paths) without(record, parsePath(path));
      expect(hasInjection(JSON.stringify(record))).toBe(false);
    }
  });
});

describe("end to end: evalshard convert removes every injection the emulator exported", () => {
  it.each(FORMAT_NAMES)("%s, with every filter off so every record is kept and stripped", async (format) => {
    expect(hasInjection(exports[format])).toBe(true);
    const out = join(dir, `out-${format}`);
    const { manifest } = await convert({
      inputs: [join(dir, `${format}.ndjson`)],
      out,
      to: "jsonl",
      compression: "none",
      filters: { flagged: false, unscored: false, no_trace: false, no_pairs: false, participation_gated: false },
      seats: "all", // every seat, aic ones too (issue 19's default keeps agent seats only)
    });
    expect(manifest.quarantined).toEqual({});
    expect(manifest.records_out).toBe(ndjsonLines(exports[format]).length);
    const data = readdirSync(join(out, "data")).map((f) => readFileSync(join(out, "data", f), "utf8")).join("");
    expect(data.split("\n").filter(Boolean)).toHaveLength(manifest.records_out);
    expect(hasInjection(data)).toBe(false);
  });

  it("gating from the emulator's own scorecards: seats stamped participation_gated are dropped (per seat, issue 20)", async () => {
    const runIds = [...new Set(ndjsonLines(exports.sft).filter((r) => r.scored).map((r) => r.run_id as string))];
    const cards: string[] = [];
    const gated = new Set<string>();
    for (const run of runIds) {
      const body = (await call(emu, `/api/evals/${run}/scorecard`, emu.ownerToken)).json();
      for (const c of body.scorecards as { agent_key_id: string | null; participation_gated?: boolean }[]) if (c.participation_gated === true) gated.add(JSON.stringify([run, c.agent_key_id]));
      cards.push(JSON.stringify(body));
    }
    expect(gated.size).toBeGreaterThan(0);
    writeFileSync(join(dir, "scorecards.ndjson"), `${cards.join("\n")}\n`);
    const out = join(dir, "out-gated");
    const { manifest } = await convert({ inputs: [join(dir, "sft.ndjson")], out, to: "jsonl", compression: "none", scorecards: join(dir, "scorecards.ndjson") });
    expect(manifest.dropped.participation_gated ?? 0).toBeGreaterThan(0);
    const kept = readdirSync(join(out, "data")).flatMap((f) => ndjsonLines(readFileSync(join(out, "data", f), "utf8")));
    expect(kept.length).toBeGreaterThan(0);
    for (const r of kept) expect(gated.has(JSON.stringify([r.run_id, r.seat.agent_key_id]))).toBe(false);
  });
});
