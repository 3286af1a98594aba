import type { LineSource } from "../../../sources/line-source.js";
import { topKeysOf, WinningCopies } from "../../../stages/select-top-k.js";
import type { RankedSeat } from "../../../stages/select-top-k.js";
import { cutBatches } from "../../../sources/cut-batches.js";
import type { RankedMessage, RankMessage } from "./protocol.js";
import { errorFromThread, errorOf } from "./unit-failure.js";
import type { FromUnits } from "./unit-host.js";
import type { SharedSlots } from "./shared-slots.js";
import type { UnitThread } from "./unit-thread.js";

export interface RankOptions {
  readonly sources: readonly LineSource[];
  readonly maxLineBytes: number;
  /** Started to rank: their config asks `--top-k-per-scenario` and holds no top keys yet. */
  readonly workers: readonly UnitThread[];
  readonly slots: SharedSlots;
  readonly batchBytes: number;
  /** Batches sent and not answered, at most. */
  readonly inFlight: number;
  readonly k: number;
}

/**
 * `--top-k-per-scenario`'s first read on the parallel engine: the workers parse every line and report each
 * valid record (`UnitRanker`); main notes each key's winning copy in read order and ranks the copies that
 * compete (src/stages/select-top-k.ts: `WinningCopies`, `topKeysOf`). Returns
 * the top keys. A second read of the inputs: ranking needs every seat of a scenario before deciding one.
 */
export async function rankInParallel(options: RankOptions): Promise<string[]> {
  const { workers, slots } = options;
  const copies = new WinningCopies<RankedSeat | null>();
  const answers = new Map<number, RankedMessage>();
  /** Per batch sent: its shared slot (-1: sent copied). */
  const sent = new Map<number, number>();
  let next = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const settle = (): void => {
    // In read order: of equal versions, the first copy read wins.
    for (let answer = answers.get(next); answer !== undefined; answer = answers.get(next)) {
      answers.delete(next++);
      const { keys, versions, campaigns, composites } = answer;
      keys.forEach((key, i) => {
        const composite = composites[i] as number;
        copies.note(key, versions[i] as number, () => (Number.isNaN(composite) ? null : { key, campaignId: campaigns[i] as string, composite }));
      });
    }
  };
  const listener = (message: FromUnits): void => {
    if (message.type === "failed") failure ??= errorOf(message);
    else if (message.type === "ranked") {
      const slot = sent.get(message.batch);
      sent.delete(message.batch);
      if (slot !== undefined && slot !== -1) slots.free(slot);
      answers.set(message.batch, message);
      settle();
    }
    wake?.();
  };
  const onError = (error: Error): void => {
    failure ??= errorFromThread(error);
    wake?.();
  };
  const until = async (ready: () => boolean): Promise<void> => {
    for (;;) {
      if (failure !== null) throw failure;
      if (ready()) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  for (const w of workers) {
    w.on("message", listener);
    w.on("error", onError);
  }
  try {
    let batch = 0;
    for (const source of options.sources) {
      if (source.bytes === undefined) throw new Error(`Internal error: ${source.name} cannot be read as bytes`);
      const bytes = source.bytes.bind(source);
      const cut = {
        maxLineBytes: options.maxLineBytes,
        batchBytes: options.batchBytes,
        allocate: (n: number) => slots.take(n),
        release: (memory: Uint8Array) => slots.release(memory),
      };
      for await (const raw of cutBatches((memory) => bytes(memory), cut)) {
        // A line over the limit is quarantined by the conversion; it notes nothing here.
        if (raw.kind !== "lines") continue;
        const slot = slots.slotOf(raw.bytes);
        const id = batch++;
        sent.set(id, slot);
        const message: RankMessage = { type: "rank", batch: id, slot, length: raw.bytes.length, bytes: slot === -1 ? raw.bytes : null };
        (workers[id % workers.length] as UnitThread).postMessage(message);
        await until(() => sent.size < options.inFlight);
      }
    }
    await until(() => sent.size === 0);
    if (next !== batch) throw new Error(`Internal error: ${batch - next} ranked batches left unsettled`);
  } finally {
    for (const w of workers) {
      w.off("message", listener);
      w.off("error", onError);
    }
  }
  const seats: RankedSeat[] = [];
  for (const seat of copies.values()) if (seat !== null) seats.push(seat);
  return [...topKeysOf(seats, options.k)];
}
