import type { ColumnPlan } from "../parquet/column-plan.js";
import { EncodedShards } from "./encoded-shards.js";
import { ParquetShard } from "./parquet-shard.js";
import type { ShardFiles } from "./shard-files.js";

/** Parquet shards assembled from row groups encoded elsewhere (the parallel engine's units). */
export class RowGroupShards extends EncodedShards {
  constructor(shards: ShardFiles, plan: ColumnPlan) {
    super(shards, (file) => ParquetShard.open(file, plan));
  }
}
