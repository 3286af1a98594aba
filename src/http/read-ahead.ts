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
  async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    yield* head.splice(0);
    // Left early, the delegation returns the body's own reader, which lets the connection go.
    if (!ended) yield* { [Symbol.asyncIterator]: () => source };
  }
  const cancel = () => void Promise.resolve(source.return?.()).catch(() => undefined);
  return { res: sent.res, chunks, cancel };
}
