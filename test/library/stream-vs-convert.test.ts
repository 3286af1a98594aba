import { execFile } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Tally } from "../../src/core/tally.js";
import type { Flow } from "../../src/core/flow.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { planPipeline, runPipeline } from "../../src/library/stream-pipeline.js";
import type { PipelineOptions } from "../../src/library/stream-pipeline.js";
import { tabularRow } from "../../src/sinks/tabular-row.js";
import { fileSource } from "../../src/sources/file-source.js";
import type { LineSource } from "../../src/sources/line-source.js";
import { readScorecardFile } from "../../src/stages/read-scorecards.js";
import { stringifyExact } from "../../src/core/exact-json.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

// The library's stream and `evalshard convert --to jsonl` (the built CLI) of the same files: the same rows, in
// order, the same counts and the same quarantined lines.
const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const run = promisify(execFile);
const root = tempDir("evalshard-stream-vs-convert-");
const fixture = (name: string) => `${FIXTURES}records/${name}`;
let n = 0;

async function convertJsonl(files: readonly string[], flags: readonly string[]) {
  const out = join(root, `out-${n++}`);
  await run(process.execPath, [BIN, "convert", ...files, "--out", out, "--to", "jsonl", "--compression", "none", "--max-quarantined", "1", ...flags]);
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as Record<string, unknown> & { quarantine: { path: string } | null };
  const data = join(out, "data");
  const rows = readdirSync(data)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readFileSync(join(data, f), "utf8").split("\n").filter((l) => l !== ""));
  const quarantine = manifest.quarantine === null ? [] : readFileSync(join(out, manifest.quarantine.path), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { reason: string; line: number });
  return { manifest, rows, quarantine: quarantine.map(({ reason, line }) => ({ reason, line })) };
}

async function stream(files: readonly string[], options: PipelineOptions) {
  const sources = files.map((f) => fileSource(f));
  const plan = await planPipeline(sources, options);
  const items: Flow<ValidRecord>[] = [];
  for await (const item of runPipeline(sources, plan, options)) items.push(item);
  const tally = new Tally();
  for (const item of items) tally.add(item);
  // The dataset's JSON Lines row of each kept record (the shard writes tabular rows).
  const rows = items.flatMap((i) => (i.kind === "kept" ? [stringifyExact(tabularRow(plan.columns, i.value.record))] : []));
  const quarantine = items.flatMap((i) => (i.kind === "quarantined" ? [{ reason: i.reason, line: i.provenance.line }] : []));
  return { counts: tally.counts(), rows, quarantine, items };
}

const CASES: { name: string; files: string[]; flags: string[]; options: () => Promise<PipelineOptions> }[] = [
  {
    name: "SFT: duplicates across inputs, filters, gating, bad lines, stream errors, an oversized line",
    files: ["sft-valid.ndjson", "sft-duplicates.ndjson", "sft-filters.ndjson", "sft-bad-lines.ndjson", "sft-stream-errors.ndjson", "sft-long-line.ndjson", "sft-valid.ndjson"].map(fixture),
    flags: ["--scorecards", fixture("scorecards-gated.ndjson"), "--max-line-bytes", "4096", "--max-stream-errors", "10"],
    options: async () => ({ gates: (await readScorecardFile(fixture("scorecards-gated.ndjson"))).gates, read: { maxLineBytes: 4096 } }),
  },
  {
    name: "RL: selection by scorecards, invalid trajectories, untrusted paths kept",
    files: ["rl-valid.ndjson", "rl-selection.ndjson", "rl-invalid-trajectory.ndjson", "rl-valid.ndjson"].map(fixture),
    flags: ["--scorecards", fixture("scorecards-selection.ndjson"), "--seats", "all", "--untrusted", "outcome.dm_messages=keep"],
    options: async () => {
      const cards = await readScorecardFile(fixture("scorecards-selection.ndjson"));
      return { gates: cards.gates, scores: cards.book, selection: { seats: "all" }, untrusted: { "outcome.dm_messages": "keep" } };
    },
  },
  {
    name: "DPO: pairs pruned, invalid pairs",
    files: ["dpo-valid.ndjson", "dpo-invalid-pair.ndjson"].map(fixture),
    flags: [],
    options: () => Promise.resolve({}),
  },
];

describe("the library's stream and `evalshard convert --to jsonl` of the same inputs", () => {
  for (const { name, files, flags, options } of CASES) {
    it(name, async () => {
      const [converted, streamed] = await Promise.all([convertJsonl(files, flags), options().then((o) => stream(files, o))]);
      const { records_in, records_out, dropped, quarantined, stream_errors } = converted.manifest;
      expect(streamed.counts).toMatchObject({ records_in, records_out, dropped, quarantined, stream_errors });
      expect(streamed.rows).toEqual(converted.rows);
      expect(streamed.quarantine).toEqual(converted.quarantine);
      expect(streamed.rows.length).toBeGreaterThan(0);
    });
  }

  it("strip: false yields each kept line's record whole, and the same decisions", async () => {
    const files = ["sft-valid.ndjson", "sft-unknown-fields.ndjson", "sft-duplicates.ndjson"].map(fixture);
    const [stripped, whole] = await Promise.all([stream(files, {}), stream(files, { strip: false })]);
    expect(whole.counts).toEqual(stripped.counts);
    const kept = whole.items.flatMap((i) => (i.kind === "kept" ? [i] : []));
    expect(kept.length).toBeGreaterThan(0);
    for (const { provenance, value } of kept) expect(value.record).toEqual(JSON.parse(readFileSync(provenance.source, "utf8").split("\n")[provenance.line - 1] as string));
  });

  it("stops when its consumer leaves", async () => {
    const sources = [fileSource(fixture("sft-valid.ndjson")), fileSource(fixture("sft-duplicates.ndjson"))];
    const plan = await planPipeline(sources);
    let seen = 0;
    for await (const item of runPipeline(sources, plan)) {
      expect(item.provenance.line).toBe(1);
      seen++;
      break;
    }
    expect(seen).toBe(1);
  });
});

describe("the library's stream over a source with lines only", () => {
  it("spools it, and gives the items the file gives", async () => {
    const file = fileSource(fixture("sft-bad-lines.ndjson"));
    const linesOnly: LineSource = { name: file.name, lines: (read) => file.lines(read), info: () => file.info() };
    const items = async (source: LineSource) => {
      const out: Flow<ValidRecord>[] = [];
      for await (const item of runPipeline([source], await planPipeline([source]))) out.push(item);
      return out;
    };
    const [fromFile, fromLines] = await Promise.all([items(file), items(linesOnly)]);
    expect(fromLines).toEqual(fromFile);
    expect(new Set(fromFile.map((i) => i.kind))).toEqual(new Set(["kept", "quarantined"]));
  });
});
