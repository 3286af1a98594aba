import type { ColumnPlan } from "../parquet/column-plan.js";
import type { EncodedRowGroup } from "../parquet/encode-row-group.js";
import { FooterBuilder, PARQUET_MAGIC } from "../parquet/parquet-footer.js";
import { EncodedShards } from "./encoded-shards.js";
import type { EncodedShard } from "./encoded-shards.js";
import type { ShardFiles } from "./shard-files.js";
import type { FileWriter, WrittenFile } from "./storage.js";

/**
 * Parquet shards assembled from row groups encoded elsewhere (the parallel engine): `PAR1`, the groups'
 * bytes as they come, and the footer when the next shard starts.
 */
export class RowGroupShards extends EncodedShards {
  constructor(shards: ShardFiles, plan: ColumnPlan, createdBy: string) {
    super(shards, async (file) => {
      await file.write(PARQUET_MAGIC);
      return new ParquetShard(file, new FooterBuilder(plan), createdBy);
    });
  }
}

class ParquetShard implements EncodedShard {
  rows = 0;

  constructor(
    private readonly file: FileWriter,
    /** The footer, a row group's metadata added as the group is written. */
    private readonly footer: FooterBuilder,
    private readonly createdBy: string,
  ) {}

  async append(group: EncodedRowGroup): Promise<void> {
    const { bytes, ...encoded } = group;
    this.footer.add({ encoded, offset: this.file.bytes });
    await this.file.write(bytes);
    this.rows += group.rows;
  }

  async close(): Promise<WrittenFile> {
    await this.file.write(this.footer.bytes({ createdBy: this.createdBy }));
    return this.file.close();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}
