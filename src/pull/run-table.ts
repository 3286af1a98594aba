import { grown } from "../core/grown.js";
import { IdIndex } from "../core/id-index.js";
import { InternedKeys } from "../core/interned-keys.js";

/** A run as the service lists it (spec 2.4), with its place in the list. */
export interface ListedRun {
  readonly runId: string;
  /** Owner lists only; agent summaries carry no scenario. */
  readonly campaignId: string | undefined;
  readonly status: string | null;
  readonly scored: boolean;
  /** Position in the service's list order (newest first), which fixes the spool's order. */
  readonly order: number;
}

const FIRST_RUNS = 1024;
const SCORED = 1;

/**
 * The runs a pull listed, in the service's order, numbered by that order (a run's number is its
 * `ListedRun.order`): ids in an {@link IdIndex}, campaign and status as indexes into their few distinct
 * values, `scored` a flag; everything a pull keeps per run is a typed array indexed by these numbers. A
 * `ListedRun` object is made only when asked for.
 */
export class RunTable {
  private readonly ids = new IdIndex();
  /** Distinct campaign ids and statuses (a world has a few hundred and a handful); 0 for none. */
  private readonly campaigns = new InternedKeys();
  private readonly statuses = new InternedKeys();
  private campaignOf = new Uint32Array(FIRST_RUNS);
  private statusOf = new Uint32Array(FIRST_RUNS);
  private flags = new Uint8Array(FIRST_RUNS);

  get size(): number {
    return this.ids.size;
  }

  /** Adds a run unless its id is listed already (the first listing wins); true when added. */
  add(runId: string, campaignId: string | undefined, status: string | null, scored: boolean): boolean {
    const before = this.ids.size;
    const index = this.ids.add(runId);
    if (index < before) return false;
    if (index >= this.flags.length) {
      this.campaignOf = grown(this.campaignOf, index + 1);
      this.statusOf = grown(this.statusOf, index + 1);
      this.flags = grown(this.flags, index + 1);
    }
    this.campaignOf[index] = this.campaigns.number(campaignId ?? null);
    this.statusOf[index] = this.statuses.number(status);
    this.flags[index] = scored ? SCORED : 0;
    return true;
  }

  /** The number of the run with this id, or -1 when it is not listed. */
  indexOf(runId: string): number {
    return this.ids.indexOf(runId);
  }

  runId(index: number): string {
    return this.ids.id(index);
  }

  campaignId(index: number): string | undefined {
    return this.campaigns.key(this.campaignOf[index] as number) ?? undefined;
  }

  scored(index: number): boolean {
    return ((this.flags[index] as number) & SCORED) !== 0;
  }

  status(index: number): string | null {
    return this.statuses.key(this.statusOf[index] as number);
  }

  /** Run `index` as an object (a new one each call). */
  run(index: number): ListedRun {
    return { runId: this.runId(index), campaignId: this.campaignId(index), status: this.status(index), scored: this.scored(index), order: index };
  }

  /** The numbers of the runs `keep` is true for, in list order. */
  select(keep: (index: number) => boolean): Int32Array {
    const out = new Int32Array(this.size);
    let n = 0;
    for (let i = 0; i < this.size; i++) if (keep(i)) out[n++] = i;
    return out.slice(0, n);
  }
}
