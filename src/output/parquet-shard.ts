import { EVALSHARD_VERSION } from "../core/version.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import { FooterBuilder, PARQUET_MAGIC } from "../parquet/parquet-footer.js";
import type { EncodedShard } from "./encoded-shards.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/**
 * One Parquet file written a row group at a time: `PAR1`, each encoded group's bytes as it comes (its
 * metadata added to the footer then), and the footer at close. Every Parquet shard is written through it:
 * the workers' row groups and `nativeParquetFormat`'s records.
 */
export class ParquetShard implements EncodedShard {
  rows = 0;

  private constructor(
    private readonly file: FileWriter,
    private readonly footer: FooterBuilder,
  ) {}

  static async open(file: FileWriter, plan: ColumnPlan): Promise<ParquetShard> {
    await file.write(PARQUET_MAGIC);
    return new ParquetShard(file, new FooterBuilder(plan));
  }

  async append(group: EncodedRowGroup): Promise<void> {
    const { bytes, ...encoded } = group;
    this.footer.add({ encoded, offset: this.file.bytes });
    await this.file.write(bytes);
    this.rows += group.rows;
  }

  async close(): Promise<WrittenFile> {
    await this.file.write(this.footer.bytes(`evalshard version ${EVALSHARD_VERSION}`));
    return this.file.close();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}
