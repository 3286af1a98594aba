import type { LineSource } from "../../../sources/line-source.js";
import { cutBatches } from "../../../sources/cut-batches.js";
import type { RawBatch } from "../../../sources/cut-batches.js";
import type { SentLines } from "./protocol.js";
import type { SharedSlots } from "./shared-slots.js";

/** Lines are shipped to workers in batches of at least this many bytes (a plain file's 4 MiB reads make one batch each). */
const BATCH_BYTES = 1 << 20;

/**
 * The inputs' batches in read order, as main sends them to the units: each with its input's index and, for
 * whole lines, how a message carries them (in the shared slot they were read into, or copied).
 */
export async function* inputBatches(sources: readonly LineSource[], slots: SharedSlots, maxLineBytes: number): AsyncGenerator<{ readonly source: number; readonly raw: RawBatch; readonly lines: SentLines | null }> {
  const cut = {
    maxLineBytes,
    batchBytes: BATCH_BYTES,
    allocate: (bytes: number) => slots.take(bytes),
    release: (memory: Uint8Array) => slots.release(memory),
  };
  for (const [index, source] of sources.entries()) {
    if (source.bytes === undefined) throw new Error(`Internal error: ${source.name} cannot be read as bytes`);
    const bytes = source.bytes.bind(source);
    for await (const raw of cutBatches((memory) => bytes(memory), cut)) {
      if (raw.kind === "too_long") yield { source: index, raw, lines: null };
      else {
        const slot = slots.slotOf(raw.bytes);
        yield { source: index, raw, lines: { slot, length: raw.bytes.length, bytes: slot === -1 ? raw.bytes : null } };
      }
    }
  }
}
