import { binLower, Histogram } from "./histogram.js";
import type { BinWidth, HistogramPartial } from "./histogram.js";
import type { StatsRow } from "./stats-row.js";
import type { SeatScore } from "../formats/seat-score.js";
import { isRecord } from "../core/is-record.js";

/** Score bins: 0.1 wide (trait means of 1-5 give ~40 bins); the objective rate's 0.05 (20 over [0, 1]). */
export const SCORE_BIN = 0.1;
export const RATE_BIN = 0.05;
/** Scenarios shown by name in the manifest; the rest are the long tail, counted. */
export const TOP_SCENARIOS = 20;

/**
 * A dataset's statistics, accumulated from each kept row in the pass that writes it (never a second read of
 * the shards): score distributions, rows per scenario and split, token lengths. Mergeable: a parallel unit's,
 * a nightly bucket's partial (`toPartial`) merges into the run's or the dataset's exactly.
 */
export class DatasetStats {
  #rows = 0;
  #unscored = 0;
  readonly #composite = new Histogram(SCORE_BIN);
  readonly #objective = new Histogram(RATE_BIN);
  readonly #traits = new Map<string, Histogram>();
  readonly #scenarios = new Map<string, number>();
  readonly #splits = new Map<string, number>();
  #tokens: Histogram | null = null;

  /** A kept record that gave `rows` rows (a view's rows share its facts). */
  add(row: StatsRow, rows = 1): void {
    if (rows === 0) return;
    this.addRows(row.scenario, row.split, rows);
    this.addScore(row.score, rows);
    if (row.traits !== null) {
      for (const name in row.traits) {
        const trait = (row.traits as Record<string, unknown>)[name];
        const mean = isRecord(trait) ? trait.mean : undefined;
        if (typeof mean === "number" && Number.isFinite(mean)) this.addTrait(name, mean, rows);
      }
    }
  }

  /** `rows` rows of a scenario and split; with {@link addScore} and {@link addTrait}, what `add` does, for facts read elsewhere. */
  addRows(scenario: string, split: string, rows: number): void {
    this.#rows += rows;
    this.#scenarios.set(scenario, (this.#scenarios.get(scenario) ?? 0) + rows);
    this.#splits.set(split, (this.#splits.get(split) ?? 0) + rows);
  }

  /** The seat score of a record that gave `rows` rows, with its scorecard's trait means (RL, DPO); null: it has none. */
  addScore(score: SeatScore | null, rows: number): void {
    if (score === null) this.#unscored += rows;
    else this.addScoreValues(score.composite, score.objectiveRate, rows);
    const traits = score?.traits;
    if (traits === undefined) return;
    for (const [i, name] of traits.names.entries()) {
      const mean = traits.means[i] as number;
      if (Number.isFinite(mean)) this.addTrait(name, mean, rows);
    }
  }

  /** A score given as its values (no object made per row). */
  addScoreValues(composite: number | null, objectiveRate: number, rows: number): void {
    if (composite !== null) this.#composite.add(composite, rows);
    this.#objective.add(objectiveRate, rows);
  }

  /** One trait's mean of a record that gave `rows` rows (where its traits are read elsewhere than in `add`). */
  addTrait(name: string, mean: number, rows = 1): void {
    this.#trait(name).add(mean, rows);
  }

  /** `rows` rows of `length` tokens each (a tokenized view's training texts). */
  addTokens(length: number, rows = 1): void {
    (this.#tokens ??= new Histogram("log2")).add(length, rows);
  }

  merge(other: StatsPartial): void {
    this.#rows += other.rows;
    this.#unscored += other.unscored;
    this.#composite.merge(other.composite);
    this.#objective.merge(other.objective_rate);
    for (const [name, h] of Object.entries(other.traits)) this.#trait(name).merge(h);
    for (const [name, n] of other.scenarios) this.#scenarios.set(name, (this.#scenarios.get(name) ?? 0) + n);
    for (const [name, n] of Object.entries(other.splits)) this.#splits.set(name, (this.#splits.get(name) ?? 0) + n);
    if (other.tokens !== null) (this.#tokens ??= new Histogram("log2")).merge(other.tokens);
  }

  /** Everything, scenarios too: what a worker sends main and a nightly bucket keeps beside the ledger. */
  toPartial(): StatsPartial {
    return {
      rows: this.#rows,
      unscored: this.#unscored,
      composite: this.#composite.toJSON(),
      objective_rate: this.#objective.toJSON(),
      traits: Object.fromEntries([...this.#traits].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, h]) => [name, h.toJSON()])),
      scenarios: [...this.#scenarios].sort(byRowsThenName),
      splits: Object.fromEntries([...this.#splits].sort(([a], [b]) => (a < b ? -1 : 1))),
      tokens: this.#tokens?.toJSON() ?? null,
    };
  }

  /** The manifest's `stats`: the 20 scenarios with the most rows, named (ties broken by name), the rest as a count; bins by their lower edge. */
  toManifest(): StatsManifest {
    const p = this.toPartial();
    const tail = p.scenarios.slice(TOP_SCENARIOS);
    return {
      rows: p.rows,
      unscored_rows: p.unscored,
      composite: shown(p.composite, SCORE_BIN),
      objective_rate: shown(p.objective_rate, RATE_BIN),
      traits: Object.fromEntries(Object.entries(p.traits).map(([name, h]) => [name, shown(h, SCORE_BIN)])),
      scenarios: {
        count: p.scenarios.length,
        top: p.scenarios.slice(0, TOP_SCENARIOS).map(([scenario, rows]) => ({ scenario, rows })),
        tail: { scenarios: tail.length, rows: tail.reduce((n, [, r]) => n + r, 0) },
      },
      splits: p.splits,
      ...(p.tokens === null ? {} : { tokens: shown(p.tokens, "log2") }),
    };
  }

  #trait(name: string): Histogram {
    let h = this.#traits.get(name);
    if (h === undefined) this.#traits.set(name, (h = new Histogram(SCORE_BIN)));
    return h;
  }
}

const byRowsThenName = ([a, n]: readonly [string, number], [b, m]: readonly [string, number]) => m - n || (a < b ? -1 : a > b ? 1 : 0);

function shown(h: HistogramPartial, width: BinWidth): DistributionStats {
  return {
    count: h.count,
    min: h.min,
    max: h.max,
    mean: h.count === 0 ? null : h.sum / 1e6 / h.count,
    bin_width: width,
    bins: h.bins.map(([bin, n]) => [binLower(bin, width), n] as const),
  };
}

/** A mergeable partial (JSON): a worker's unit, a nightly bucket. */
export interface StatsPartial {
  readonly rows: number;
  readonly unscored: number;
  readonly composite: HistogramPartial;
  readonly objective_rate: HistogramPartial;
  readonly traits: Readonly<Record<string, HistogramPartial>>;
  /** `[scenario, rows]`, most rows first. */
  readonly scenarios: readonly (readonly [string, number])[];
  readonly splits: Readonly<Record<string, number>>;
  readonly tokens: HistogramPartial | null;
}

/** One distribution as the manifest shows it: bins as `[lower edge, rows]` (token bins: [2^k, 2^(k+1)), 0 alone). */
export interface DistributionStats {
  readonly count: number;
  readonly min: number | null;
  readonly max: number | null;
  readonly mean: number | null;
  readonly bin_width: BinWidth;
  readonly bins: readonly (readonly [number, number])[];
}

/** The manifest's `stats` section (issue 36): every figure of the report's current snapshot comes from here. */
export interface StatsManifest {
  readonly rows: number;
  /** Rows whose record had no score (unscored SFT; RL and DPO without `--scorecards`). */
  readonly unscored_rows: number;
  readonly composite: DistributionStats;
  readonly objective_rate: DistributionStats;
  readonly traits: Readonly<Record<string, DistributionStats>>;
  readonly scenarios: { readonly count: number; readonly top: readonly { readonly scenario: string; readonly rows: number }[]; readonly tail: { readonly scenarios: number; readonly rows: number } };
  readonly splits: Readonly<Record<string, number>>;
  /** A tokenized view's (`--tokenizer`) training-text lengths. */
  readonly tokens?: DistributionStats;
}
