import { join } from "node:path";
import { sha256Hex } from "../../core/sha256-hex.js";
import { outputLocation } from "../../output/output-location.js";
import type { FormatBasics } from "../../formats/format.js";
import type { Field } from "../../schema/column-type.js";
import type { Files } from "../../output/storage.js";
import { readText, writeText } from "../../output/write-text.js";
import { PARTS_DIR } from "../../output/evalshard-own.js";

/** A part's own incremental dataset, under {@link PARTS_DIR}: its lock, ledger and shards between nights. */
export function partDirName(index: number, count: number): string {
  return `part-${index}-of-${count}`;
}

/** Where part k of N's dataset is under `out` (a directory or `s3://BUCKET/PREFIX`). */
export function partLocation(out: string, index: number, count: number): string {
  const part = `${PARTS_DIR}/${partDirName(index, count)}`;
  return outputLocation(out).kind === "s3" ? `${out.replace(/\/+$/, "")}/${part}` : join(out, part);
}

/**
 * What a part's dataset keeps for the commit's card: the columns and format of its rows (a night that
 * changed nothing runs no engine, so they are saved with the snapshot).
 */
export const PART_CARD_FILE = "_part/card.json";

/** A part's dataset statistics as a mergeable partial (`DatasetStats.toPartial`): the commit merges the parts'. */
export const PART_STATS_FILE = "_part/stats.json";

export interface PartCard {
  readonly format: FormatBasics;
  readonly columns: readonly Field[];
  readonly view?: { readonly name: string; readonly lines: readonly string[] };
}

/** The record that part k finished night `night`, as its dataset stood then. */
export interface StagedPart {
  readonly format: "evalshard-staged-part/1";
  readonly night: string;
  readonly index: number;
  readonly count: number;
  readonly by: string;
  /** The part dataset's manifest when it finished: the commit takes the part only while it still is. */
  readonly manifest_sha256: string;
  readonly records_out: number;
  readonly finished_at: string;
}

/**
 * `_parts/nights/<key>/part-k-of-N.json`. The night is a label the operator chose (a date, the array's
 * job id), so it is hashed into the path and kept whole inside.
 */
export function stagedPartPath(night: string, index: number, count: number): string {
  const key = sha256Hex(night).slice(0, 16);
  return `${PARTS_DIR}/nights/${key}/${partDirName(index, count)}.json`;
}

/** The night of a partitioned job or commit: EVALSHARD_NIGHT, else the UTC date of `at`. */
export function nightOf(env: Readonly<Record<string, string | undefined>>, at: Date): string {
  const given = env.EVALSHARD_NIGHT;
  return given === undefined || given === "" ? at.toISOString().slice(0, 10) : given;
}

export async function writeStagedPart(root: Files, part: StagedPart): Promise<void> {
  await writeText(root, stagedPartPath(part.night, part.index, part.count), `${JSON.stringify(part)}\n`);
}

/** The staged record of part `index`, or null when it never staged this night. */
export async function readStagedPart(root: Files, night: string, index: number, count: number): Promise<StagedPart | null> {
  const text = await readText(root, stagedPartPath(night, index, count));
  if (text === null) return null;
  const part = JSON.parse(text) as StagedPart;
  return part.format === "evalshard-staged-part/1" && part.night === night && part.index === index && part.count === count ? part : null;
}
