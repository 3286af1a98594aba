import type { RecordFacts } from "./format.js";

/**
 * Decontamination against the service's benchmark suites (issue 35; spec 2.10, 4.6): the one rule every
 * path consults (a pull, `run`, `convert --suites`, `validate`, DPO pairing). A record is of a benchmark
 * scenario when the `scenario_version_hash` of its run (of either run, for a DPO pair) is pinned by a
 * suite: by hash, so a copy of a suite scenario (`POST /api/scenarios/{id}/copy` keeps the content, and
 * the hash covers it) is caught under its new id too; and by scenario id where the record gives one
 * (`scenario.campaign_id` equal to a pinned `scenario_ids` entry, compared whole, never parsed), which
 * decides records whose run's hash is unknown (agent routes, RL and DPO without run documents).
 */

/** What the rule reads of a record. */
export type SuiteFacts = Pick<RecordFacts, "runIds" | "scenarioVersionHash" | "campaignId">;

/** What the rule keeps of one released suite. */
export interface SuitePin {
  readonly key: string;
  readonly version: number;
  readonly scenarioIds: readonly string[];
  readonly hashes: readonly string[];
}

/** A record's answer: kept, dropped for the suites that pin it, or unknown (its run's hash is not known). */
export type SuiteAnswer = { readonly pinned: readonly string[] } | "clear" | "unknown";

/** `KEY@VERSION`, as `--suites` names a suite and the manifest counts it. */
export function suiteLabel(suite: Pick<SuitePin, "key" | "version">): string {
  return `${suite.key}@${suite.version}`;
}

/** Per suite: the runs and records it took out of the dataset. */
export interface SuiteDrops {
  readonly runs: Set<string>;
  records: number;
}

/**
 * A book made of plain data, as a worker thread is sent it: the suites and the run hashes (`--run-manifests`;
 * a night's: only the runs a suite pins, see `SuiteBook.learned`).
 */
export interface SuitesData {
  readonly suites: readonly SuitePin[];
  readonly runHashes: readonly (readonly [string, string])[];
}

export class SuiteBook {
  readonly suites: readonly SuitePin[];
  /** What it was made of (`SuiteBook.of`), or made of once its learned runs are all known; null until then, or never. */
  #data: SuitesData | null = null;
  /** A night's runs, learned as its pull goes ({@link SuiteBook.learned}). */
  #learned: (() => Iterable<readonly [string, { readonly hash?: string }]>) | null = null;
  /** Hash to the labels of the suites that pin it. */
  readonly #byHash = new Map<string, string[]>();
  /** Scenario id to the labels of the suites that pin it. */
  readonly #byId = new Map<string, string[]>();
  /** Run id to its scenario hash, for records that do not carry theirs (RL, DPO; spec 2.4's run document). */
  readonly #runHash: (runId: string) => string | undefined;
  readonly #drops = new Map<string, SuiteDrops>();
  #unknown = 0;
  readonly #counts: boolean;

  constructor(suites: readonly SuitePin[], runHash: (runId: string) => string | undefined = () => undefined, counts = true) {
    this.suites = suites;
    this.#runHash = runHash;
    this.#counts = counts;
    for (const suite of suites) {
      const label = suiteLabel(suite);
      this.#drops.set(label, { runs: new Set(), records: 0 });
      for (const hash of suite.hashes) pin(this.#byHash, hash, label);
      for (const id of suite.scenarioIds) pin(this.#byId, id, label);
    }
  }

  static of(data: SuitesData, counts = true): SuiteBook {
    const hashes = new Map(data.runHashes);
    const book = new SuiteBook(data.suites, (runId) => hashes.get(runId), counts);
    book.#data = data;
    return book;
  }

  /**
   * A night's book: each run's hash is what its pull learned from the run document (`runs()`). Once the pull is
   * read, its plain data (`data`) holds the runs a suite pins and no other: a worker drops exactly their records,
   * and sends back the facts of every record it cannot clear, which main counts on this book. A 100k-run
   * night sends its workers the few pinned runs, not every run's hash.
   */
  static learned(suites: readonly SuitePin[], runs: () => ReadonlyMap<string, { readonly hash?: string }>): SuiteBook {
    const book = new SuiteBook(suites, (runId) => runs().get(runId)?.hash);
    book.#learned = runs;
    return book;
  }

  /** Its plain data for the workers; null when it has none to send. A learned book's is read once, when asked. */
  get data(): SuitesData | null {
    if (this.#data === null && this.#learned !== null) {
      const runHashes: (readonly [string, string])[] = [];
      for (const [runId, { hash }] of this.#learned()) if (hash !== undefined && this.#byHash.has(hash)) runHashes.push([runId, hash]);
      this.#data = { suites: this.suites, runHashes };
    }
    return this.#data;
  }

  /**
   * The suites pinning a run, [] when none, undefined when neither its hash is known nor its scenario id
   * (`scenarioId`, the record's `scenario.campaign_id`) pinned.
   */
  run(runId: string, ownHash?: string, scenarioId?: string): readonly string[] | undefined {
    const hash = ownHash ?? this.#runHash(runId);
    const byId = scenarioId === undefined ? undefined : this.#byId.get(scenarioId);
    const byHash = hash === undefined ? undefined : (this.#byHash.get(hash) ?? []);
    if (byId === undefined) return byHash;
    return byHash === undefined ? byId : [...new Set([...byHash, ...byId])];
  }

  /**
   * DPO pairing: whether a run of known `hash` is on a pinned scenario, so it is never paired (a clean run
   * then pairs with another clean run); counted as a run its suites took out.
   */
  excludesRun(runId: string, hash: string | undefined, scenarioId?: string): boolean {
    const labels = this.run(runId, hash, scenarioId) ?? [];
    for (const label of labels) this.#drops.get(label)?.runs.add(runId);
    return labels.length > 0;
  }

  /** The rule's answer for a record, without counting it. */
  answer(facts: SuiteFacts): SuiteAnswer {
    const pinned = new Set<string>();
    let unknown = false;
    // A seat record carries its own run's hash where the route gives it; a pair's runs are looked up.
    // Both runs of a pair share its scenario (spec 4.10), so its id applies to each.
    const own = facts.runIds.length === 1 ? facts.scenarioVersionHash : undefined;
    for (const runId of facts.runIds) {
      const labels = this.run(runId, own, facts.campaignId);
      if (labels === undefined) unknown = true;
      else for (const label of labels) pinned.add(label);
    }
    if (pinned.size > 0) return { pinned: [...pinned] };
    return unknown ? "unknown" : "clear";
  }

  /** The rule as a stage reads it: "benchmark_scenario" or null, counting drops per suite and undecided records. */
  decide(facts: SuiteFacts): "benchmark_scenario" | null {
    if (this.suites.length === 0) return null;
    const answer = this.answer(facts);
    if (answer === "unknown" && this.#counts) this.#unknown++;
    if (typeof answer === "string") return null;
    if (!this.#counts) return "benchmark_scenario";
    for (const label of answer.pinned) {
      const drops = this.#drops.get(label) as SuiteDrops;
      drops.records++;
      for (const runId of facts.runIds) if ((this.run(runId, facts.runIds.length === 1 ? facts.scenarioVersionHash : undefined, facts.campaignId) ?? []).includes(label)) drops.runs.add(runId);
    }
    return "benchmark_scenario";
  }

  /** The same rule, counting nothing: for a pass that only ranks (`--top-k-per-scenario`'s first read). */
  uncounted(): SuiteBook {
    return new SuiteBook(this.suites, this.#runHash, false);
  }

  /** Records the rule could not decide (kept: their run's hash was unknown). */
  get undecided(): number {
    return this.#unknown;
  }

  /** Runs and records dropped, per suite label. */
  drops(label: string): { runs: number; records: number } {
    const d = this.#drops.get(label);
    return { runs: d?.runs.size ?? 0, records: d?.records ?? 0 };
  }
}

function pin(index: Map<string, string[]>, key: string, label: string): void {
  const labels = index.get(key);
  if (labels === undefined) index.set(key, [label]);
  else if (!labels.includes(label)) labels.push(label);
}
