import type { LineSource } from "../../../sources/line-source.js";
import { topKeysOf, WinningCopies } from "../../../stages/select-top-k.js";
import type { RankedSeat } from "../../../stages/select-top-k.js";
import type { RankedMessage, RankMessage } from "./protocol.js";
import type { SharedSlots } from "./shared-slots.js";
import type { UnitThread } from "./unit-thread.js";
import { inputBatches } from "./input-batches.js";
import { UnitReplies } from "./unit-replies.js";

export interface RankOptions {
  readonly sources: readonly LineSource[];
  readonly maxLineBytes: number;
  /** Started to rank: their config asks `--top-k-per-scenario` and holds no top keys yet. */
  readonly workers: readonly UnitThread[];
  readonly slots: SharedSlots;
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
  const replies = new UnitReplies(workers, (message) => {
    if (message.type !== "ranked") return;
    const slot = sent.get(message.batch);
    sent.delete(message.batch);
    if (slot !== undefined && slot !== -1) slots.free(slot);
    answers.set(message.batch, message);
    settle();
  });
  try {
    let batch = 0;
    for await (const { lines } of inputBatches(options.sources, slots, options.maxLineBytes)) {
      // A line over the limit is quarantined by the conversion; it notes nothing here.
      if (lines === null) continue;
      const id = batch++;
      sent.set(id, lines.slot);
      const message: RankMessage = { type: "rank", batch: id, ...lines };
      (workers[id % workers.length] as UnitThread).postMessage(message);
      await replies.until(() => sent.size < options.inFlight);
    }
    await replies.until(() => sent.size === 0);
    if (next !== batch) throw new Error(`Internal error: ${batch - next} ranked batches left unsettled`);
  } finally {
    replies.stop();
  }
  const seats: RankedSeat[] = [];
  for (const seat of copies.values()) if (seat !== null) seats.push(seat);
  return [...topKeysOf(seats, options.k)];
}
