import type { EncodedMessage, FromWorker, RankedMessage, SentLines, ToWorker, WorkerStart } from "./protocol.js";
import { failedMessage } from "./unit-failure.js";
import { JobQueue } from "./job-queue.js";
import { UnitConverter } from "./unit-converter.js";
import { UnitRanker } from "./unit-ranker.js";
import { writeOutcomeColumns } from "./outcome-columns.js";

/** What main sends the units' side: a start, then batches and decisions (or a ranking read's batches). */
export type ToUnits = ToWorker | { readonly type: "start"; readonly start: WorkerStart };

/** What the units' side answers. */
export type FromUnits = FromWorker | RankedMessage;

/**
 * The units' side of the engine, on whichever thread runs it (a worker thread, or main's with `--workers 0`):
 * a start message, then batches and decisions, handled one at a time. The start comes by message because a
 * worker thread may be started before its run is known (see prestartWorkers).
 */
export class UnitHost {
  #converter: UnitConverter | null = null;
  /** `--top-k-per-scenario`'s first read: started without the top keys, the host ranks until started again with them. */
  #ranker: UnitRanker | null = null;
  #slots: Buffer[] = [];
  #outSlots: Uint8Array[] = [];
  #outcomeSlots: Uint8Array[] = [];
  readonly #jobs = new JobQueue((message) => this.#handle(message), (error) => this.#fail(error));

  constructor(private readonly post: (message: FromUnits) => void) {}

  receive(message: ToUnits): void {
    if (message.type !== "start") {
      this.#jobs.push(message);
      return;
    }
    try {
      this.#slots = message.start.slots.map((s) => Buffer.from(s));
      this.#outSlots = message.start.outSlots.map((s) => new Uint8Array(s));
      this.#outcomeSlots = message.start.outcomeSlots.map((s) => new Uint8Array(s));
      const { config } = message.start;
      if (config.selection.topKPerScenario !== null && config.topKeys === null) this.#ranker = new UnitRanker(config);
      else {
        // After a ranking read, its batch copy serves the conversion: a second one would only add to the peak.
        this.#converter = new UnitConverter(config, this.#ranker?.copy);
        this.#ranker = null;
      }
    } catch (error) {
      this.#fail(error);
    }
  }

  async #handle(message: ToWorker): Promise<void> {
    if (message.type === "rank") {
      if (this.#ranker === null) throw new Error("Internal error: a rank batch for a thread started to convert");
      this.post(await this.#ranker.rank(message.batch, this.#bytesOf(message)));
      return;
    }
    const converter = this.#converter;
    if (converter === null) throw new Error(`Internal error: a ${message.type} message before the start`);
    if (message.type === "batch") {
      const outcomes = await converter.batch(message.unit, message.batch, converter.local(this.#bytesOf(message)));
      const slot = this.#outcomeSlots[message.outcomes];
      const layout = slot === undefined || outcomes.columns === null ? null : writeOutcomeColumns(outcomes.columns, slot);
      this.post(layout === null ? outcomes : { ...outcomes, columns: null, layout });
    } else {
      const encoded = converter.decide(message.unit, message.keep, message.segments, this.#outSlots[message.out] ?? null, message.records, message.segmentSplits);
      const reply: EncodedMessage = { type: "encoded", unit: message.unit, ...encoded };
      // Copied, not transferred: see protocol.ts.
      this.post(reply);
    }
  }

  /** A batch's lines: `length` bytes of its shared slot, or the copy that came instead. */
  #bytesOf(message: SentLines): Buffer {
    return message.bytes === null ? (this.#slots[message.slot] as Buffer).subarray(0, message.length) : Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  }

  #fail(error: unknown): void {
    this.post(failedMessage(error));
  }
}
