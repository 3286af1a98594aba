import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { RequestFaultKind } from "./fault-injector.js";
import { JSON_TYPE, type JsonReply, type Reply, type StreamReply } from "./reply.js";

/** Faults that act while the body is written. */
export interface WriteFault {
  readonly kind: Extract<RequestFaultKind, "reset" | "cut" | "slow" | "end"> | null;
  /** Streams: whole chunks (lines) written before the cut. */
  readonly at: number;
}

export interface WritePacing {
  /** Pause between the pieces of a slow body. */
  readonly slowDelayMs: number;
  /** Ends the pauses early (the emulator is closing). */
  readonly signal?: AbortSignal;
}

/** Pieces a slow body is trickled in, and the most pauses a slow stream makes. */
const SLOW_PIECES = 16;
/** Stream chunks are gathered into writes of about this size. */
const WRITE_BYTES = 64 * 1024;

/** Writes a reply, applying a write fault; resolves once the body is out or the connection is gone. */
export async function sendReply(res: ServerResponse, reply: Reply, fault: WriteFault, pacing: WritePacing): Promise<void> {
  const pause = () => sleep(pacing.slowDelayMs, undefined, pacing.signal === undefined ? {} : { signal: pacing.signal });
  if (reply.kind === "json") return sendJson(res, reply, fault, pause);
  return sendStream(res, reply, fault, pause);
}

async function sendJson(res: ServerResponse, reply: JsonReply, fault: WriteFault, pause: () => Promise<void>): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(reply.body));
  const headers = { "Content-Type": JSON_TYPE, ...reply.headers };
  if (fault.kind === "cut") {
    // No Content-Length: the chunked body simply ends early, as a truncating proxy would.
    res.writeHead(reply.status, headers);
    res.end(half(bytes));
    return;
  }
  res.writeHead(reply.status, { ...headers, "Content-Length": String(bytes.length) });
  if (fault.kind === "reset") return resetAfter(res, half(bytes));
  if (fault.kind === "slow") {
    const size = Math.ceil(bytes.length / SLOW_PIECES);
    for (let start = 0; start < bytes.length && !res.destroyed; start += size) {
      await write(res, bytes.subarray(start, start + size));
      await pause();
    }
  }
  if (!res.destroyed) res.end(fault.kind === "slow" ? undefined : bytes);
}

async function sendStream(res: ServerResponse, reply: StreamReply, fault: WriteFault, pause: () => Promise<void>): Promise<void> {
  res.writeHead(reply.status, { "Content-Type": reply.contentType });
  const chunks = reply.chunks[Symbol.iterator]();
  let pending = "";
  let written = 0;
  try {
    let next = chunks.next();
    while (next.done !== true) {
      const chunk = next.value;
      next = chunks.next();
      // A clean end at a line boundary: the chunked body closes properly, as if the stream were whole.
      if (fault.kind === "end" && written === fault.at) {
        res.end(pending);
        return;
      }
      // Cut at the chosen line, or at the last one when the stream is shorter: the fault always shows.
      if ((fault.kind === "cut" || fault.kind === "reset") && (written === fault.at || next.done === true)) {
        const head = Buffer.concat([Buffer.from(pending), half(Buffer.from(chunk))]);
        if (fault.kind === "reset") return await resetAfter(res, head);
        res.end(head);
        return;
      }
      pending += chunk;
      written++;
      if ((fault.kind === "slow" && written <= SLOW_PIECES) || pending.length >= WRITE_BYTES) {
        await write(res, pending);
        pending = "";
        if (fault.kind === "slow" && written <= SLOW_PIECES) await pause();
      }
      if (res.destroyed) return;
    }
    if (fault.kind === "reset") return await resetAfter(res, Buffer.from(pending));
    res.end(pending);
  } catch (error) {
    // Headers are out: the only honest signal left is a broken connection.
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    chunks.return?.();
  }
}

/** The first half of a body (at least one byte, never all of a non-empty one). */
function half(bytes: Buffer): Buffer {
  return bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
}

/**
 * Writes `head`, then resets the connection (a TCP RST) once it is flushed: the client gets the headers
 * and part of the body, then ECONNRESET ("connection reset by peer"), as from a proxy that drops it.
 */
function resetAfter(res: ServerResponse, head: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const reset = () => {
      res.socket?.resetAndDestroy();
      res.destroy();
      resolve();
    };
    if (head.length > 0) return void res.write(head, reset);
    // An empty stream: send the headers alone first, or the reset could overtake them.
    res.flushHeaders();
    if (res.socket === null) reset();
    else res.socket.write("", reset);
  });
}

/** Writes with backpressure; resolves on drain, or when the client goes away. */
function write(res: ServerResponse, data: string | Buffer): Promise<void> {
  if (res.write(data)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
