/** How long a response body may take, per attempt, in real time. */
export interface BodyLimits {
  /** Longest wait for the next bytes while a read is pending (a stalled body, a half-open connection). */
  readonly idleMs: number;
  /** Longest one attempt may take, from sending the request to the body's last byte. */
  readonly totalMs: number;
}

/** A body that stopped arriving: the client retries it like a reset, and names the limit when it gives up. */
export class BodyTimeoutError extends Error {
  constructor(
    readonly which: "idle" | "total",
    readonly limitMs: number,
  ) {
    super(which === "idle" ? `the body stalled: no bytes for ${limitMs} ms` : `the response was not complete within ${limitMs} ms`);
    this.name = "BodyTimeoutError";
  }
}

/**
 * The chunks of `body`, failing with BodyTimeoutError when no bytes arrive for `idleMs` while a read
 * waits, or when the attempt (started at `startedAt`, `performance.now()` time) passes `totalMs`. The idle
 * clock runs only while we wait for the network, so a slow consumer (backpressure) is never taken for a
 * stalled server. On a timeout `abort` is called, which closes the connection under the body.
 */
export async function* timedChunks(body: ReadableStream<Uint8Array>, limits: BodyLimits, startedAt: number, abort: (reason: Error) => void): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const left = limits.totalMs - (performance.now() - startedAt);
      // One timer and one promise per read; the error (and its stack) only when the timer fires: a
      // large body is thousands of reads (issue 21: a no-op rerun's CPU against a bare download).
      const step = await new Promise<Awaited<ReturnType<typeof reader.read>>>((resolve, reject) => {
        const timer = setTimeout(
          () => {
            const timeout = left <= limits.idleMs ? new BodyTimeoutError("total", limits.totalMs) : new BodyTimeoutError("idle", limits.idleMs);
            abort(timeout);
            reject(timeout);
          },
          Math.max(0, Math.min(left, limits.idleMs)),
        );
        reader.read().then(
          (read) => {
            clearTimeout(timer);
            resolve(read);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
      if (step.done) {
        done = true;
        return;
      }
      yield step.value;
    }
  } finally {
    // Left early (the consumer stopped, or a timeout): drop the rest of the body and its connection.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
