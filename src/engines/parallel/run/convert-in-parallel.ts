import type { Quarantined, StreamError } from "../../../core/flow.js";
import type { Provenance } from "../../../core/provenance.js";
import type { DropReason } from "../../../core/reasons.js";
import type { ShardInfo } from "../../../output/shard-format.js";
import type { QuarantineSink } from "../../engine.js";
import type { RowGroupShardSets } from "../../../output/row-group-shard-sets.js";
import type { SplitAssigner, SplitManifest } from "../../../splits/split-assigner.js";
import { ShardRotation } from "../../../output/shard-rotation.js";
import type { ShardLimits } from "../../../output/shard-rotation.js";
import type { LineSource } from "../../../sources/line-source.js";
import { tooLongLine } from "../../../stages/quarantine-item.js";
import { Tally } from "../../../core/tally.js";
import type { SuiteBook } from "../../../formats/suite-book.js";
import { DedupDecider } from "./dedup-decider.js";
import type { ValidRecords } from "./dedup-decider.js";
import type { EncodedRowGroup } from "../../../parquet/encode-row-group.js";
import type { TooLongBatch } from "../../../sources/cut-batches.js";
import type { EncodedMessage, InjectedRow, SuiteFactsAt, LineAt, OutcomesMessage, PrunedRow, QuarantineOutcome, StreamErrorAt, ToWorker, WorkerConfig, WorkerStart } from "./protocol.js";
import { discarding, LINE_FILTERED, LINE_QUARANTINED, LINE_ROW } from "./protocol.js";
import { RECORD_KEPT, RECORD_QUARANTINED, type UnitViewCounts } from "./unit-view.js";
import { countSplitRows, recordSplits, splitStarts } from "./split-keep.js";
import type { SplitBatch } from "./split-keep.js";
import { SharedSlots } from "./shared-slots.js";
import { readOutcomeColumns } from "./outcome-columns.js";
import type { OutcomeColumns, SlotLayout } from "./outcome-columns.js";
import { takeWorkers } from "./prestart-workers.js";
import { InProcessUnits } from "./in-process-units.js";
import type { UnitThread } from "./unit-thread.js";
import { rankInParallel } from "./rank-in-parallel.js";
import { TextAudit } from "../../../views/text-audit.js";
import type { PathAudit } from "../../../views/text-audit.js";
import { DatasetStats } from "../../../stats/dataset-stats.js";
import type { LineOutcome, UnitFollower } from "./written-unit.js";
import { inputBatches } from "./input-batches.js";
import { UnitReplies } from "./unit-replies.js";
import type { UnitReply } from "./unit-replies.js";

/** A shared slot holds a batch: a 4 MiB read plus the line it cut. */
const SLOT_BYTES = 8 << 20;
/** A unit (one row group, one worker) closes once it holds this many input bytes: two 4 MiB reads; larger units only cost memory (docs/benchmarks.md). */
const UNIT_BYTES = 7 << 20;
/**
 * A training view's or a JSON Lines unit: half as much input. A view's rows hold more than their line (each
 * prompt repeats its window; `rl-steps` writes windows and observations the plain output drops), a JSON Lines
 * unit holds each row's line beside its columns, and a unit is held until it is written (docs/decisions.md,
 * "JSON Lines units take half the input, as a view's").
 */
const SMALL_UNIT_BYTES = UNIT_BYTES >> 1;
/**
 * Batches sent to the workers and not yet walked, at most, per worker: one to walk, one queued, and one for
 * slack (a unit's batches all go to one worker, so the other may otherwise wait). More read ahead is only
 * memory to fault in, and less leaves the workers waiting (docs/benchmarks.md).
 */
const UNWALKED_PER_WORKER = 3;
/** A batch's outcome columns fit here unless its lines are very short and many; more come copied. */
const OUTCOME_SLOT_BYTES = 1 << 20;

export interface ParallelOptions {
  /** Inputs; every one must have `bytes()`. */
  readonly sources: readonly LineSource[];
  /** Fresh shards of the dataset sink, for each read of the inputs: a set per split when `splits` is given. */
  readonly shards: () => ShardSets;
  /**
   * A split run (`--split`): a fresh count of rows and groups per split, for each read; its names, in order,
   * are the shard sets'. The workers were given the same split (`worker.split`).
   */
  readonly splits: (() => SplitAssigner) | null;
  readonly worker: WorkerConfig;
  /** Worker threads; 0: the units run on main's own thread. */
  readonly workers: number;
  readonly limits: ShardLimits;
  readonly quarantine: QuarantineSink;
  /** `--suites`: the decontamination rule whose counts the manifest reads; the workers were given its data. */
  readonly suites: SuiteBook | null;
  /** Each written unit's lines, in order (the library's stream); the run then reads its inputs twice. */
  readonly follow?: UnitFollower;
}

/** Where a read's row groups go: the dataset sink's shards (`RowGroupShardSets`), or a nightly's `KeyedLineSets`. */
export type ShardSets = Pick<RowGroupShardSets, "append" | "finish" | "abort">;

export interface ParallelResult {
  readonly shards: ShardInfo[];
  /** Distinct keys of the valid records. */
  readonly keys: number;
  readonly tally: Tally;
  /** A view's run (the workers were given a view): what each unit's kept records gave it. */
  readonly view: readonly UnitViewCounts[];
  /** A split run: rows and groups per split. */
  readonly split: SplitManifest | null;
  /** A plain run: the text scan of the kept records. */
  readonly textAudit: Readonly<Record<string, PathAudit>>;
  /** The dataset's statistics, each unit's merged (issue 36). */
  readonly stats: DatasetStats;
}

/**
 * The whole convert pipeline (validate, dedup, filter, strip, Parquet) over worker threads, reading the
 * inputs once (and once before, to rank seats, with `--top-k-per-scenario`). Main reads and batches lines, decides dedup in read order and writes shards; workers parse,
 * validate, filter, strip, shred and encode. Output is the same on main's thread and across any number of workers (same rows in the same
 * order, same counts, same shard boundaries).
 */
export async function convertInParallel(options: ParallelOptions): Promise<ParallelResult> {
  const count = Math.max(1, options.workers);
  // Main's own thread walks a batch only while main waits: a batch read ahead there is only memory.
  const unwalked = options.workers === 0 ? 1 : UNWALKED_PER_WORKER * count;
  // Enough for the batches not yet walked, the one being filled and the next it starts (see #read).
  const slots = new SharedSlots(unwalked + 3, SLOT_BYTES);
  // One per unit decided and not yet written: at most two per worker are in flight.
  const outSlots = new SharedSlots(2 * count + 2, SLOT_BYTES);
  // One per batch of the units in flight (two per worker, ~3 batches each), until the unit is decided.
  const outcomeSlots = new SharedSlots(6 * count + 4, OUTCOME_SLOT_BYTES);
  const pools: Pools = { slots, outSlots, outcomeSlots, unwalked };
  const workers: UnitThread[] = options.workers === 0 ? [new InProcessUnits()] : takeWorkers(count);
  try {
    const start = (config: WorkerConfig): void => {
      const message: WorkerStart = { config, slots: slots.buffers, outSlots: outSlots.buffers, outcomeSlots: outcomeSlots.buffers };
      for (const w of workers) w.postMessage({ type: "start", start: message });
    };
    // A record quarantined for its view's rows (`--on-injection quarantine`) is quarantined only once it won
    // dedup, which a later copy may still overturn: a first read learns the winners, writing nothing, and the
    // second writes rows and quarantine.
    // So is a record decontamination counts (`--suites`): its suites count the records that won.
    // So is a followed run's: a line's outcome, once handed over, is final.
    const learnFirst = options.worker.view?.quarantine === true || options.suites !== null || options.follow !== undefined;
    let worker = options.worker;
    const k = worker.selection.topKPerScenario;
    if (k !== null) {
      // --top-k-per-scenario: a first read ranks (the workers started without top keys only parse and report),
      // then the threads start over with the top keys and convert as ever.
      start(worker);
      const topKeys = await rankInParallel({ sources: options.sources, maxLineBytes: worker.maxLineBytes, workers, slots, inFlight: unwalked, k });
      worker = { ...worker, topKeys };
    }
    // A read that only learns the winners keeps no row: a plain run's units then encode none (nor build their
    // JSON lines), and start over with the run's own config for the read that writes.
    const learning = learnFirst && worker.view === null ? discarding(worker) : worker;
    start(learning);
    const tally = new Tally();
    const decider = new DedupDecider(tally);
    if (learnFirst) decider.rewriteNeeded = true;
    const first = await new Pass(options, workers, pools, decider, !learnFirst, 0).run();
    if (!decider.rewriteNeeded) return { ...first, keys: decider.keys, tally };
    // The first pass met a higher scorecard version after its lower copy was written: read it all again.
    const again = new Tally();
    if (learning !== worker) start(worker);
    const second = await new Pass(options, workers, pools, decider.final(again), learnFirst, first.units).run();
    return { ...second, keys: decider.keys, tally: again };
  } finally {
    // Not waited for: the run's outcome no longer depends on them, and unreferenced they do not
    // hold the process open.
    for (const w of workers) {
      w.unref();
      void w.terminate();
    }
  }
}

/** A batch's valid records as main decides them: rows' line lengths, and (a view's run) rows per record. */
type ValidBatch = ValidRecords & SplitBatch & { readonly rowBytes: Float64Array; readonly droppedPairs: readonly PrunedRow[]; readonly injected: readonly InjectedAt[]; readonly suiteFacts: readonly SuiteFactsAt[] };

/** A bad line of a unit, and its batch's place in the unit. */
interface BadLine {
  readonly item: Quarantined;
  readonly batch: number;
}

/** A row its view quarantines should it stay (`--on-injection quarantine`): also the row's place among its batch's rows. */
interface InjectedAt extends BadLine {
  readonly row: number;
}

/** The run's shared memory: batches, encoded units, batches' outcome columns. */
interface Pools {
  readonly slots: SharedSlots;
  readonly outSlots: SharedSlots;
  readonly outcomeSlots: SharedSlots;
  /** Batches sent to the units and not yet walked, at most. */
  readonly unwalked: number;
}

interface Batch {
  readonly id: number;
  /** Index of the input it came from. */
  readonly source: number;
  readonly raw: { readonly kind: "lines"; readonly offset: number } | TooLongBatch;
  /** The shared slot its lines were sent in (-1: they went copied), free again once its outcomes are back. */
  readonly slot: number;
  /** The shared slot its outcome columns come back in (-1: none, they come copied). */
  readonly outcomeSlot: number;
  outcomes: OutcomesMessage | null;
  columns: OutcomeColumns | null;
}

interface Unit {
  readonly worker: UnitThread;
  readonly batches: Batch[];
  /** Input bytes of its batches so far; 0 once its worker is done with it (see #release). */
  bytes: number;
  closed: boolean;
  pending: number;
  /** Shard of each segment, once decided. */
  shards: number[] | null;
  /** A split run: the split (shard set) of each segment, once decided. */
  splits: Uint32Array | null;
  /** The shared slot the encoded row groups come back in, once decided (-1: none, they come copied). */
  out: number;
  groups: readonly EncodedRowGroup[] | null;
  /** A followed run's writing pass: its lines' outcomes, once decided. */
  lines: LineOutcome[] | null;
}

/** One read of the inputs through the workers. */
class Pass {
  readonly #units = new Map<number, Unit>();
  /** Input bytes each worker holds in units it has not sent back encoded. */
  readonly #load = new Map<UnitThread, number>();
  readonly #shards: ShardSets;
  /** This read's count of rows and groups per split (a split run), or null. */
  readonly #splits: SplitAssigner | null;
  #nextUnit: number;
  #nextDecide: number;
  #nextWrite: number;
  /** Units whose row groups are in their shards (the writes run one after another, in order). */
  #written: number;
  #writing: Promise<void> = Promise.resolve();
  #quarantining: Promise<void> = Promise.resolve();
  readonly #toQuarantine: Quarantined[] = [];
  /** A view's run: what each unit's kept records gave the view, as its worker reported, by unit (a token cache takes them in order). */
  readonly #view = new Map<number, UnitViewCounts>();
  /** A plain run: the units' text scans, as their workers reported. */
  readonly #textAudit = new TextAudit();
  readonly #stats = new DatasetStats();
  /** The sink's rotation rule, one per shard set (per split). */
  readonly #rotations: ShardRotation[];
  /** The workers' answers, and the pass's first failure. */
  readonly #replies: UnitReplies;
  // Line numbers, per input: the first line of the next batch to decide.
  #source = -1;
  #line = 1;

  constructor(
    private readonly options: ParallelOptions,
    private readonly workers: readonly UnitThread[],
    private readonly pools: Pools,
    private readonly decider: DedupDecider,
    private readonly writeQuarantine: boolean,
    firstUnit: number,
  ) {
    this.#nextUnit = this.#nextDecide = this.#nextWrite = this.#written = firstUnit;
    this.#shards = options.shards();
    this.#splits = options.splits?.() ?? null;
    const sets = this.#splits?.names.length ?? 1;
    this.#rotations = Array.from({ length: sets }, () => new ShardRotation(options.limits));
    this.#replies = new UnitReplies(workers, (message) => this.#receive(message));
  }

  async run(): Promise<Omit<ParallelResult, "keys" | "tally"> & { readonly units: number }> {
    try {
      await this.#read();
      await this.#replies.until(() => this.#nextWrite === this.#nextUnit);
      await this.#writing;
      await this.#quarantining;
      if (this.decider.rewriteNeeded) {
        await this.#shards.abort();
        return { shards: [], units: this.#nextUnit, view: [], split: null, textAudit: {}, stats: this.#stats };
      }
      const view = [...this.#view].sort(([a], [b]) => a - b).map(([, counts]) => counts);
      return { shards: await this.#shards.finish(), units: this.#nextUnit, view, split: this.#splits?.summary() ?? null, textAudit: this.#textAudit.summary(), stats: this.#stats };
    } catch (error) {
      await this.#writing.catch(() => undefined);
      await this.#shards.abort();
      throw error;
    } finally {
      this.#replies.stop();
    }
  }

  async #read(): Promise<void> {
    let unit: Unit | null = null;
    let unitId = 0;
    let batchId = 0;
    for await (const { source, raw, lines } of inputBatches(this.options.sources, this.pools.slots, this.options.worker.maxLineBytes)) {
      this.#replies.check();
      if (unit === null) {
        // Memory stays flat: at most two units per worker are read ahead of what is written. Counting writes
        // done, not queued: a unit whose write waits still holds its output slot.
        await this.#replies.until(() => this.#nextUnit - this.#written < 2 * this.workers.length);
        unitId = this.#nextUnit++;
        unit = { worker: this.#leastLoaded(unitId), batches: [], bytes: 0, closed: false, pending: 0, shards: null, splits: null, out: -1, groups: null, lines: null };
        this.#units.set(unitId, unit);
      }
      const size = lines?.length ?? 0;
      unit.bytes += size;
      this.#load.set(unit.worker, (this.#load.get(unit.worker) ?? 0) + size);
      const last = unit.bytes >= (this.options.worker.view === null && !this.options.worker.lines ? UNIT_BYTES : SMALL_UNIT_BYTES);
      const outcomeSlot = lines === null ? -1 : this.pools.outcomeSlots.takeSlot();
      unit.batches.push({ id: batchId, source, raw: raw.kind === "lines" ? { kind: "lines", offset: raw.offset } : raw, slot: lines?.slot ?? -1, outcomeSlot, outcomes: null, columns: null });
      if (lines !== null) {
        unit.pending++;
        const message: ToWorker = { type: "batch", unit: unitId, batch: batchId, last, ...lines, outcomes: outcomeSlot };
        unit.worker.postMessage(message);
        await this.#replies.until(() => this.#unwalked() < this.pools.unwalked);
      }
      batchId++;
      if (last) {
        unit.closed = true;
        unit = null;
        this.#pump();
      }
    }
    if (unit !== null) {
      unit.closed = true;
      this.#pump();
    }
  }

  /**
   * The worker holding the fewest input bytes not yet sent back encoded; ties go round the workers. A
   * worker slowed down (by main, by its GCs) gets fewer units instead of a queue.
   */
  #leastLoaded(unitId: number): UnitThread {
    const n = this.workers.length;
    let best = this.workers[unitId % n] as UnitThread;
    for (let i = 1; i < n; i++) {
      const w = this.workers[(unitId + i) % n] as UnitThread;
      if ((this.#load.get(w) ?? 0) < (this.#load.get(best) ?? 0)) best = w;
    }
    return best;
  }

  /** Batches sent to the workers whose outcomes are not back yet. */
  #unwalked(): number {
    let n = 0;
    for (const unit of this.#units.values()) n += unit.pending;
    return n;
  }

  /** The unit's input bytes no longer count against its worker's load (once). */
  #release(unit: Unit): void {
    this.#load.set(unit.worker, (this.#load.get(unit.worker) ?? 0) - unit.bytes);
    unit.bytes = 0;
  }

  #receive(message: UnitReply): void {
    // A ranking read's answers are all in before a conversion starts.
    if (message.type === "ranked") return;
    const unit = this.#units.get(message.unit);
    if (unit === undefined) return; // another pass's unit
    if (message.type === "outcomes") {
      const batch = unit.batches.find((b) => b.id === message.batch);
      if (batch === undefined) throw new Error(`Internal error: outcomes for an unknown batch ${message.batch}`);
      batch.outcomes = message;
      batch.columns = message.columns ?? readOutcomeColumns(message.layout as SlotLayout, this.pools.outcomeSlots.view(batch.outcomeSlot));
      if (batch.slot !== -1) this.pools.slots.free(batch.slot);
      unit.pending--;
    } else {
      this.#release(unit);
      unit.groups = this.#groupsOf(unit, message);
      if (message.view !== null) this.#view.set(message.unit, message.view);
      if (message.audit !== null) this.#textAudit.mergeSummary(message.audit);
      this.#stats.merge(message.stats);
    }
    this.#pump();
  }

  /** Decides every unit whose lines are all back, in order, then queues writes of encoded units, in order. */
  #pump(): void {
    for (let unit = this.#units.get(this.#nextDecide); unit?.closed === true && unit.pending === 0 && unit.shards === null; unit = this.#units.get(this.#nextDecide)) {
      this.#decide(this.#nextDecide, unit);
      this.#nextDecide++;
    }
    for (let unit = this.#units.get(this.#nextWrite); unit?.groups != null; unit = this.#units.get(this.#nextWrite)) {
      const { groups, shards, splits, out, lines } = unit as { groups: readonly EncodedRowGroup[]; shards: number[]; splits: Uint32Array | null; out: number; lines: LineOutcome[] | null };
      this.#units.delete(this.#nextWrite++);
      this.#writing = this.#writing.then(async () => {
        for (const [i, group] of groups.entries()) await this.#shards.append(splits?.[i] ?? 0, shards[i] as number, group);
        if (lines !== null) await this.options.follow?.(lines);
        if (out !== -1) this.pools.outSlots.free(out);
        this.#written++;
        this.#replies.wake();
      });
      this.#writing.catch((error: unknown) => this.#replies.fail(error as Error));
    }
    this.#replies.wake();
  }

  /**
   * Decides a unit and sends the decision to its worker. The loops over its lines live in the two methods
   * below, not here, so each is a small compile of its own (docs/decisions.md "hot code shape", compile size).
   */
  #decide(id: number, unit: Unit): void {
    // Each batch's valid records, with its rows' input line lengths (shard rotation measures them).
    const valid: ValidBatch[] = [];
    // The unit's bad lines, by batch: in input order once the records quarantined for injection join them.
    const bad: BadLine[] = [];
    // A followed run's writing pass: its stream errors and valid records' outcomes, for its lines' outcomes.
    const followed = this.options.follow !== undefined && this.writeQuarantine ? { errors: [] as StreamError[], outcomes: [] as ("kept" | DropReason)[], firstLines: [] as Provenance[] } : null;
    for (const [order, batch] of unit.batches.entries()) {
      if (batch.source !== this.#source) {
        this.#source = batch.source;
        this.#line = 1;
      }
      const name = (this.options.sources[batch.source] as LineSource).name;
      const { raw } = batch;
      if (raw.kind === "too_long") {
        const provenance = { source: name, line: this.#line++, offset: raw.offset };
        bad.push({ batch: order, item: tooLongLine(provenance, raw) });
        continue;
      }
      const columns = batch.columns as OutcomeColumns;
      const outcomes = batch.outcomes as OutcomesMessage;
      const { rowBytes } = columns;
      const at = (l: LineAt) => ({ source: name, line: this.#line + l.line, offset: raw.offset + l.offset });
      followed?.firstLines.push({ source: name, line: this.#line, offset: raw.offset });
      const injected = outcomes.injected.map(({ row, line, offset, ...q }: InjectedRow) => ({ row, batch: order, item: { kind: "quarantined" as const, provenance: at({ line, offset }), ...q } }));
      valid.push({ keys: columns.keys, versions: columns.versions, digests: columns.digests, rules: this.#rulesOf(batch, order, at, bad, followed?.errors ?? null), rowBytes, rowCounts: outcomes.rowCounts, droppedPairs: outcomes.droppedPairs, injected, suiteFacts: outcomes.suiteFacts, splits: outcomes.splits, sets: recordSplits(outcomes.splits, rowBytes.length) });
      this.#line += (batch.outcomes as OutcomesMessage).newlines;
    }
    // A split run: `keep` and the segments come a split at a time (the worker holds a row group per split).
    const counter = this.#splits;
    const starts = counter === null ? new Uint32Array(1) : splitStarts(valid, counter.names.length);
    const stays = this.decider.decide(valid, followed?.outcomes);
    // Counted in the pass that writes the quarantine: with suites, the second, whose winners are final.
    if (this.options.suites !== null && this.writeQuarantine) countSuites(this.options.suites, valid, stays);
    const { keep, kept, segmentsOf, shardsOf, injected } = this.#rowsToKeep(valid, stays, starts);
    if (injected.length > 0) bad.push(...injected);
    // Stable: each batch's lines were in order, and a batch's injected records follow its other bad lines.
    if (injected.length > 0) bad.sort((a, b) => a.batch - b.batch || a.item.provenance.line - b.item.provenance.line);
    for (const { item } of bad) this.#quarantine(this.decider.tally, item);
    if (counter !== null) countSplitRows(valid, kept, counter);
    const splits = counter === null ? null : Uint32Array.from(segmentsOf.flatMap((segments, set) => segments.map(() => set)));
    const segments = segmentsOf.flat();
    const shards = shardsOf.flat();
    const records = valid.some((v) => v.rowCounts !== null) ? kept : null;
    if (followed !== null) unit.lines = lineOutcomes(unit.batches, followed.firstLines, bad, followed.errors, followed.outcomes);
    // The outcome columns are read: their slots are free again.
    for (const batch of unit.batches) if (batch.outcomeSlot !== -1) this.pools.outcomeSlots.free(batch.outcomeSlot);
    unit.shards = shards;
    unit.splits = splits;
    if (segments.length === 0 && records === null) {
      // Nothing to encode: written (and forgotten) before the worker's empty answer may come back.
      unit.groups = [];
      this.#release(unit);
    } else if (segments.length > 0) unit.out = this.pools.outSlots.takeSlot();
    // (A view's unit with nothing to encode still waits for its worker's answer: it brings the view's counts.)
    const message: ToWorker = { type: "decide", unit: id, keep, records, segments, segmentSplits: splits, out: unit.out };
    unit.worker.postMessage(message);
  }

  /** A batch's filter rule per valid record (null: a row); counts its stream errors (into `errors` too, when given), and adds its bad lines to `bad`. */
  #rulesOf(batch: Batch, order: number, at: (l: LineAt) => LineAt & { source: string }, bad: BadLine[], errors: StreamError[] | null): (DropReason | null)[] {
    const tally = this.decider.tally;
    const o = batch.outcomes as OutcomesMessage;
    const rules: (DropReason | null)[] = [];
    let filtered = 0;
    let quarantined = 0;
    let streamErrors = 0;
    for (const kind of (batch.columns as OutcomeColumns).kinds) {
      if (kind === LINE_ROW) rules.push(null);
      else if (kind === LINE_FILTERED) rules.push(o.filtered[filtered++] ?? null);
      else if (kind === LINE_QUARANTINED) {
        const { line, offset: lineOffset, ...q } = o.quarantined[quarantined++] as QuarantineOutcome;
        bad.push({ batch: order, item: { kind: "quarantined", provenance: at({ line, offset: lineOffset }), ...q } });
      } else {
        const error = o.streamErrors[streamErrors++] as StreamErrorAt;
        const item: StreamError = { kind: "stream_error", provenance: at(error), runIndex: error.runIndex };
        tally.add(item);
        errors?.push(item);
      }
    }
    return rules;
  }

  /**
   * Which of a unit's rows stay, and the shard segments they fall in (the sink's rotation rule). A plain
   * run's records give one row each; a view's give `rowCounts` rows, which share their line's bytes for
   * rotation, and `kept` says which records stay (a view's counts count those). A split
   * run's rows go to their split's shards, each split rotating on its own: segments and shards per shard set
   * (split), and `keep` split by split, each split's rows from `starts[split]` on (split 0's rows, then split
   * 1's...: the worker holds a row group per split, and takes its part of `keep` for each). A plain run is a
   * split run of one set: the loop is the same code for both (each record's set read from `sets`), so a split
   * run makes it no larger to compile.
   *
   * The run's objects are read into locals once and no closure is made per call: this loop is main's largest
   * compile (docs/decisions.md "hot code shape", compile size).
   */
  #rowsToKeep(valid: readonly ValidBatch[], stays: Uint8Array, starts: Uint32Array): { keep: Uint8Array; kept: Uint8Array; segmentsOf: number[][]; shardsOf: number[][]; injected: InjectedAt[] } {
    const rotations = this.#rotations;
    const decider = this.decider;
    let rows = 0;
    let recordCount = 0;
    for (const v of valid) {
      rows += v.rowCounts === null ? v.rowBytes.length : sumOf(v.rowCounts);
      recordCount += v.rowBytes.length;
    }
    const keep = new Uint8Array(rows);
    const kept = new Uint8Array(recordCount);
    // Each split's next row in `keep`.
    const next = starts;
    // Per shard set (split): its segments' row counts and shards.
    const segmentsOf: number[][] = [];
    const shardsOf: number[][] = [];
    for (let set = 0; set < rotations.length; set++) {
      segmentsOf.push([]);
      shardsOf.push([]);
    }
    let record = 0;
    let rowRecord = 0;
    const injectedKept: InjectedAt[] = [];
    for (const { rules, rowBytes, rowCounts, droppedPairs, injected, sets } of valid) {
      let batchRow = 0;
      let pruned = 0;
      let injections = 0;
      for (const rule of rules) {
        const stay = stays[record++] === 1;
        if (rule !== null) continue;
        const at = batchRow++;
        const bytes = rowBytes[at] as number;
        const count = rowCounts === null ? 1 : (rowCounts[at] as number);
        const set = sets[at] as number;
        const first = next[set] as number;
        const end = first + count;
        next[set] = end;
        const index = rowRecord++;
        // Pairs are counted for the rows written: a copy that lost dedup counts none.
        const prunedRow = droppedPairs[pruned]?.row === at ? (droppedPairs[pruned++] as PrunedRow) : null;
        const injection = injected[injections]?.row === at ? (injected[injections++] as InjectedAt) : null;
        // Once a written row has lost, this pass only learns the winners for the next one.
        if (!stay || decider.rewriteNeeded) continue;
        if (injection !== null) {
          // It gave no rows, and counts for nothing in the view's counts (its rows' token counts are kept).
          kept[index] = RECORD_QUARANTINED;
          decider.tally.unkeep();
          injectedKept.push(injection);
          continue;
        }
        kept[index] = RECORD_KEPT;
        if (prunedRow !== null) decider.tally.pairsDropped(prunedRow.counts);
        const rotation = rotations[set] as ShardRotation;
        const segments = segmentsOf[set] as number[];
        const shards = shardsOf[set] as number[];
        const size = (rowCounts === null ? bytes : bytes / count) + 1;
        for (let r = first; r < end; r++) {
          keep[r] = 1;
          const shard = rotation.place(size);
          if (shards.at(-1) !== shard) {
            shards.push(shard);
            segments.push(0);
          }
          segments[segments.length - 1] = (segments.at(-1) ?? 0) + 1;
        }
      }
    }
    return { keep, kept, segmentsOf, shardsOf, injected: injectedKept };
  }

  /** The unit's row groups with their bytes: views of its output slot, or of the copy that came instead. */
  #groupsOf(unit: Unit, message: EncodedMessage): EncodedRowGroup[] {
    if (message.bytes !== null && unit.out !== -1) {
      this.pools.outSlots.free(unit.out);
      unit.out = -1;
    }
    const bytes = message.bytes ?? this.pools.outSlots.view(unit.out);
    let at = 0;
    return message.groups.map((group) => {
      const view = bytes.subarray(at, (at += group.compressedSize));
      return { ...group, bytes: view };
    });
  }

  #quarantine(tally: Tally, item: Quarantined): void {
    tally.add(item);
    if (!this.writeQuarantine) return;
    // One writing loop drains a queue: a promise chained per item held every item and two promises each
    // until written, which main's GC paid for with many bad lines.
    this.#toQuarantine.push(item);
    if (this.#toQuarantine.length > 1) return;
    this.#quarantining = this.#writeQuarantined();
    this.#quarantining.catch((error: unknown) => this.#replies.fail(error as Error));
  }

  /** Writes the queued items, and those queued meanwhile, in order. */
  async #writeQuarantined(): Promise<void> {
    const queue = this.#toQuarantine;
    for (let i = 0; i < queue.length; i++) await this.options.quarantine.write(queue[i] as Quarantined);
    queue.length = 0;
  }

}

function sumOf(counts: Uint32Array): number {
  let n = 0;
  for (const k of counts) n += k;
  return n;
}

/** The rule's counts of the records that won dedup (`stays` not 0): a losing copy's suites count nothing. */
function countSuites(suites: SuiteBook, valid: readonly ValidBatch[], stays: Uint8Array): void {
  let first = 0;
  for (const { suiteFacts, rules } of valid) {
    for (const facts of suiteFacts) if (stays[first + facts.valid] !== 0) suites.decide(facts);
    first += rules.length;
  }
}

/**
 * A decided unit's non-blank lines in input order: each batch's lines by their kind, a valid record's from
 * dedup's `outcomes` at its line (from its batch's first, in `firstLines` by batch of lines), a bad line's and a
 * stream error's as counted (`bad` in input order, no view's among them).
 */
function lineOutcomes(batches: readonly Batch[], firstLines: readonly Provenance[], bad: readonly BadLine[], errors: readonly StreamError[], outcomes: readonly ("kept" | DropReason)[]): LineOutcome[] {
  const lines: LineOutcome[] = [];
  let b = 0;
  let e = 0;
  let v = 0;
  let first = 0;
  for (const batch of batches) {
    if (batch.raw.kind === "too_long") {
      lines.push((bad[b++] as BadLine).item);
      continue;
    }
    const { source, line, offset } = firstLines[first++] as Provenance;
    const columns = batch.columns as OutcomeColumns;
    let valid = 0;
    let row = 0;
    for (const kind of columns.kinds) {
      if (kind === LINE_ROW || kind === LINE_FILTERED) {
        const provenance = { source, line: line + (columns.lines[valid] as number), offset: offset + (columns.starts[valid] as number) };
        const bytes = kind === LINE_ROW ? (columns.rowBytes[row++] as number) : 0;
        const outcome = outcomes[v++] as "kept" | DropReason;
        lines.push(outcome === "kept" ? { kind: "kept", provenance, value: { bytes, digest: columns.digests[valid] as number } } : { kind: "dropped", provenance, reason: outcome });
        valid++;
      } else if (kind === LINE_QUARANTINED) lines.push((bad[b++] as BadLine).item);
      else lines.push(errors[e++] as StreamError);
    }
  }
  return lines;
}
