import type { Quarantined } from "../core/flow.js";
import type { KeyedRows, QuarantineSink, RowSink } from "../engines/engine.js";
import { RowGroupShardSets } from "../output/row-group-shard-sets.js";

/**
 * A sink that writes nothing (validate): it drops kept rows and keeps the first `limit`
 * quarantined lines. The units, told it discards, encode no row; its shard sets are none and never fed.
 */
export class FirstBadSink implements RowSink {
  readonly firstBad: Quarantined[] = [];
  readonly discards = true;

  constructor(
    private readonly limit: number,
    readonly scratch: string,
  ) {}

  rowGroupSets(): RowGroupShardSets {
    return new RowGroupShardSets([], null);
  }

  lineSets(): RowGroupShardSets {
    return new RowGroupShardSets([], null);
  }

  keyedRows(): KeyedRows {
    return { add: async () => undefined, finish: async () => [], restart: async () => undefined };
  }

  quarantine(): QuarantineSink {
    const { firstBad, limit } = this;
    let entries = 0;
    return {
      path: "",
      get entries() {
        return entries;
      },
      async write(item) {
        entries++;
        if (firstBad.length < limit) firstBad.push(item);
      },
      close: async () => undefined,
    };
  }
}
