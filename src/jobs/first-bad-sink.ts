import type { Quarantined } from "../core/flow.js";
import type { QuarantineSink, RecordShards, RecordSink } from "../engines/engine.js";

/** A sink that writes nothing: it drops kept records and keeps the first `limit` quarantined lines (validate). */
export class FirstBadSink implements RecordSink {
  readonly firstBad: Quarantined[] = [];

  constructor(
    private readonly limit: number,
    readonly scratch: string,
  ) {}

  records(): RecordShards {
    return { write: async () => undefined, finish: async () => [], abort: async () => undefined };
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
