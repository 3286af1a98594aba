import type { KeyedRows } from "../../engine.js";
import type { EncodedRowGroup } from "../../../parquet/encode-row-group.js";
import type { ShardInfo } from "../../../output/shard-format.js";
import { readKeyedLines } from "./json-lines.js";

/**
 * A nightly's shard sets: the units' keyed lines (`keyedLine`) go to a keyed sink with their origin, a
 * set's rows with its split. The sink cuts its own buckets once the run knows its keys, so `finish` only
 * ends the read; `abort` drops the read's rows, for the read that starts over.
 */
export class KeyedLineSets {
  constructor(
    private readonly rows: KeyedRows,
    /** The sets' split names, in order; null: one set, rows of no split. */
    private readonly splits: readonly string[] | null,
  ) {}

  async append(set: number, _shard: number, group: EncodedRowGroup): Promise<void> {
    const split = this.splits?.[set];
    for (const { key, version, row, line } of readKeyedLines(group.bytes)) {
      await this.rows.add(line, { key, version, ...(row === undefined ? {} : { row }), ...(split === undefined ? {} : { split }) });
    }
  }

  finish(): Promise<ShardInfo[]> {
    return Promise.resolve([]);
  }

  abort(): Promise<void> {
    return this.rows.restart();
  }
}
