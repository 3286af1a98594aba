import { beatsWinner } from "../core/dedup-rule.js";
import type { Flow } from "../core/flow.js";
import type { ValidRecord } from "../formats/valid-record.js";

interface Winner {
  readonly version: number;
  readonly ordinal: number;
  /** The winner's line digest: a copy of equal version with another is a `conflicting_duplicate`. */
  readonly digest: number;
}

/**
 * Which record wins each dedup key (`beatsWinner`).
 * Built by a first read of the inputs, so the dedup stage decides the same whatever order copies arrive in.
 */
export class DedupIndex {
  readonly #winners = new Map<string, Winner>();

  add(record: ValidRecord): void {
    const version = record.facts.scorecardVersion ?? 0;
    const current = this.#winners.get(record.facts.key);
    if (current === undefined || beatsWinner(version, current.version)) {
      this.#winners.set(record.facts.key, { version, ordinal: record.ordinal, digest: record.digest });
    }
  }

  /** Reads a whole flow into the index. */
  static async build(flow: AsyncIterable<Flow<ValidRecord>>): Promise<DedupIndex> {
    const index = new DedupIndex();
    for await (const item of flow) if (item.kind === "kept") index.add(item.value);
    return index;
  }

  winner(key: string): Winner | undefined {
    return this.#winners.get(key);
  }

  get size(): number {
    return this.#winners.size;
  }
}
