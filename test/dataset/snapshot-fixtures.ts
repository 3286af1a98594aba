import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { sft } from "../../src/formats/sft.js";
import type { Field } from "../../src/schema/column-type.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import type { SnapshotOptions } from "../../src/dataset/write-snapshot.js";
import { evalshardLeftovers } from "../helpers/local-layout.js";
import type { SnapshotRecord } from "../../src/dataset/incoming.js";

/** Small records with a typed column list, enough to exercise Parquet. */
export const COLUMNS: readonly Field[] = [
  { name: "id", type: { kind: "string" }, nullable: false },
  { name: "v", type: { kind: "int64" }, nullable: true },
  { name: "text", type: { kind: "string" }, nullable: true },
];

/** A snapshot record keyed like the dedup key: a JSON array of the id. */
export function rec(id: string, v: number, text = `text of ${id} v${v}`): SnapshotRecord {
  return { key: JSON.stringify([id]), version: v, record: { id, v, text } };
}

/** A snapshot of ids at version 1, or at the versions given. */
export function snapshot(versions: Record<string, number>): SnapshotRecord[] {
  return Object.entries(versions).map(([id, v]) => rec(id, v));
}

export function jsonlOptions(outDir: string, extra: Partial<SnapshotOptions> = {}): SnapshotOptions {
  return { outDir, format: sft, columns: COLUMNS, shardFormat: jsonlFormat({ compression: "none" }), buckets: 4, ...extra };
}

/** Every published file under dir (evalshard's dot-entries left out), with the sha256 of its content. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (d === dir && name.startsWith(".evalshard")) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The rows of every JSONL shard under dir/data, as a sorted list of JSON texts. */
export function jsonlRows(dir: string): string[] {
  const data = join(dir, "data");
  if (!existsSync(data)) return [];
  return readdirSync(data)
    .flatMap((name) => readFileSync(join(data, name), "utf8").split("\n").filter((l) => l !== ""))
    .sort();
}

/** What evalshard left behind: staging, old-entry and lock files in the output directory. */
export function leftovers(dir: string): string[] {
  return evalshardLeftovers(dir);
}

export async function* iterate<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}
