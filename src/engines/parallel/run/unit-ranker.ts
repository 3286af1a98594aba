import { Buffer, isUtf8 } from "node:buffer";
import { lineParserOf } from "../fast/line-parser-of.js";
import type { LineParser } from "../fast/line-parser.js";
import type { RecordFacts } from "../../../formats/format.js";
import { RECORD_RULES, skeletonReads } from "../../../formats/record-rules.js";
import type { RecordRules } from "../../../formats/record-rules.js";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import type { RankedMessage, WorkerConfig } from "./protocol.js";
import { BatchCopy } from "./batch-copy.js";
import type { SlowPath } from "./slow-path.js";
import { splitBatch } from "../../../sources/split-batch.js";
import type { BatchLine } from "../../../sources/split-batch.js";
import { workerRules } from "./worker-rules.js";

/** What the parser writes into: nothing (its schema is bound to no columns). */
const NO_LEAVES: readonly LeafWriter[] = [];

/**
 * A worker's half of `--top-k-per-scenario`'s first read: parses a batch's lines as the converter does (the
 * fast parser, zod's validate for what it declines) and reports each valid record's key, scorecard
 * version and, when it competes (every other filter and selection rule keeps it, and it has a composite),
 * its scenario and composite. Nothing is kept or encoded; main ranks (see `rankInParallel`).
 */
export class UnitRanker {
  readonly #config: WorkerConfig;
  readonly #rules: RecordRules;
  readonly #parser: LineParser;
  readonly #keep: (facts: RecordFacts, read: Readonly<Record<string, unknown>>) => number | null;
  #slow: SlowPath | null = null;
  /** Where the batches are copied to be walked; the converter that follows takes it over. */
  readonly copy = new BatchCopy();

  constructor(config: WorkerConfig) {
    this.#config = config;
    this.#rules = RECORD_RULES[config.format];
    if (config.rankSchema === null) throw new Error("Internal error: a ranking read without its schema");
    // Bound to no columns: the parser validates and builds the skeleton the rules read, and shreds nothing.
    this.#parser = lineParserOf(config.rankSchema, config.columns, skeletonReads(this.#rules, { scores: true, suites: config.suites !== null }));
    // A seat competes only when every other rule keeps it: the converter's rules, top k left out (a pinned
    // seat does not compete: the rank follows the filter's rule; this read counts nothing).
    const { filter, select: others, score } = workerRules(config, { ...config.selection, topKPerScenario: null });
    this.#keep = (facts, read) => {
      const seat = score(facts, read);
      const composite = seat?.composite;
      if (composite === null || composite === undefined) return null;
      return filter(facts) === "keep" && others(facts, () => seat) === "keep" ? composite : null;
    };
  }

  /** Ranks a batch's valid records; `bytes` may lie in shared memory (copied first, as the converter's are). */
  async rank(batch: number, shared: Buffer): Promise<RankedMessage> {
    const bytes = this.copy.local(shared);
    const lines: BatchLine[] = [];
    splitBatch(bytes, this.#config.maxLineBytes, (line) => lines.push(line));
    const keys: string[] = [];
    const versions: number[] = [];
    const campaigns: string[] = [];
    const composites: number[] = [];
    const note = (facts: RecordFacts, read: Readonly<Record<string, unknown>>): void => {
      const composite = this.#keep(facts, read);
      keys.push(facts.key);
      versions.push(facts.scorecardVersion ?? 0);
      campaigns.push(composite === null ? "" : facts.campaignId);
      composites.push(composite ?? Number.NaN);
    };
    const utf8 = isUtf8(bytes);
    for (const line of lines) {
      if (line.kind === "too_long") continue;
      const { start, end } = line;
      const skeleton = utf8 || isUtf8(bytes.subarray(start, end)) ? this.#parser.parse(bytes, start, end, NO_LEAVES) : null;
      if (skeleton !== null) {
        // A fault is a quarantine, which the converter's read notes, not this one.
        if (this.#rules.check(skeleton as never) === null) note(this.#rules.facts(skeleton as never), skeleton);
        continue;
      }
      const valid = await this.#validate(bytes, start, end);
      if (valid !== null) note(valid.facts, valid.record);
    }
    return { type: "ranked", batch, keys, versions: Float64Array.from(versions), campaigns, composites: Float64Array.from(composites) };
  }

  /** Zod's validate (src/stages/validate.ts), for a line the fast parser declined: the record and its facts, or null when not valid. */
  async #validate(bytes: Buffer, start: number, end: number): Promise<{ facts: RecordFacts; record: Readonly<Record<string, unknown>> } | null> {
    this.#slow ??= (await import("./slow-path.js")).slowPath(this.#config);
    const item = this.#slow.validate(bytes, start, end);
    return item.kind === "kept" ? { facts: item.value.facts, record: item.value.record } : null;
  }
}
