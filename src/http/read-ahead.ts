import type { Sent } from "./send-attempt.js";

const LF = 0x0a;

/** An answer whose body was read up to its first line: `chunks` hands those bytes out again, then the rest. */
export interface ReadAhead extends Sent {
  /** Drops the rest of the body and its connection (an answer no one will read). */
  readonly cancel: () => void;
}

/**
 * Reads `sent`'s body until its first line is complete or the body ends, and throws what the body throws
 * meanwhile. An NDJSON answer is raced (hedged) through this read, not only until its headers: a per-run
 * answer is one line, so a trickled one is hedged whole, and a stream's first line costs a bulk export nothing.
 */
export async function readAhead(sent: Sent): Promise<ReadAhead> {
  const source = sent.chunks()[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let ended = false;
  for (;;) {
    const step = await source.next();
    if (step.done === true) {
      ended = true;
      break;
    }
    head.push(step.value);
    if (step.value.includes(LF)) break;
  }
  const cancel = () => void Promise.resolve(source.return?.()).catch(() => undefined);
  async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      yield* head.splice(0);
      if (!ended) yield* { [Symbol.asyncIterator]: () => source };
    } finally {
      // Left early, even among the bytes read ahead, the body's reader is returned: it lets the connection go.
      if (!ended) cancel();
    }
  }
  return { res: sent.res, chunks, cancel };
}
