import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutBatches } from "../../src/sources/cut-batches.js";
import { splitBatch } from "../../src/sources/split-batch.js";
import { splitLines } from "../../src/sources/split-lines.js";

// The engine splits lines in two halves (main cuts batches, workers split them), and `splitLines` runs the same
// two with batches that are views of the chunks: at any batch size, with chunks read in place too, the halves
// must find exactly the lines, numbers, offsets and oversized lines `splitLines` finds, also when its source
// reads every chunk into the same memory (split-lines.test.ts holds `splitLines` to a whole-buffer reference).
async function* chunked(bytes: Uint8Array, sizes: readonly number[]): AsyncIterable<Buffer> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] as number;
    yield Buffer.from(bytes.subarray(at, at + size));
    at += size;
  }
}

/** A source that reads into the memory it is offered (as a plain file does), else into one buffer it reuses. */
function readingInto(bytes: Uint8Array, sizes: readonly number[]) {
  return async function* (memory: () => Uint8Array | null): AsyncIterable<Buffer> {
    const own = Buffer.alloc(64);
    let at = 0;
    for (let i = 0; at < bytes.length; i++) {
      const into = memory() ?? own;
      const n = Math.min(sizes[i % sizes.length] as number, into.length, bytes.length - at);
      into.set(bytes.subarray(at, at + n));
      at += n;
      yield Buffer.from(into.buffer, into.byteOffset, n);
    }
  };
}

async function viaBatches(bytes: Uint8Array, sizes: readonly number[], maxLineBytes: number, batchBytes: number, inPlace = false) {
  const out: unknown[] = [];
  let line = 1;
  const chunks = inPlace ? readingInto(bytes, sizes) : chunked(bytes, sizes);
  for await (const batch of cutBatches(chunks, { maxLineBytes, batchBytes, headBytes: 4096, minReadBytes: 1 })) {
    if (batch.kind === "too_long") {
      out.push({ kind: "too_long", line: line++, offset: batch.offset, head: batch.head, bytes: batch.bytes });
      continue;
    }
    const base = line;
    line += splitBatch(batch.bytes, maxLineBytes, (at) => {
      if (at.kind === "too_long") out.push({ kind: "too_long", line: base + at.line, offset: batch.offset + at.start, head: at.head, bytes: at.bytes });
      else out.push({ kind: "line", line: base + at.line, offset: batch.offset + at.start, text: Buffer.from(batch.bytes.subarray(at.start, at.end)).toString("utf8") });
    });
  }
  return out;
}

async function viaSplitLines(bytes: Uint8Array, sizes: readonly number[], maxLineBytes: number, reused: boolean) {
  const out: unknown[] = [];
  const chunks = reused ? readingInto(bytes, sizes)(() => null) : chunked(bytes, sizes);
  for await (const l of splitLines(chunks, "x", { maxLineBytes, headBytes: 4096 })) {
    const { line, offset } = l.provenance;
    out.push(l.kind === "line" ? { kind: "line", line, offset, text: l.text } : { kind: "too_long", line, offset, head: l.head, bytes: l.bytes });
  }
  return out;
}

const piece = fc.oneof(
  fc.constantFrom("\n", "\r\n", "   \n", "\t\r\n", "é", "😀", "{\"a\":1}", "x"),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1, max: 120 }).map((n) => "y".repeat(n)),
);

describe("cutBatches + splitBatch find the lines splitLines finds", () => {
  it("for any bytes, chunking, line limit and batch size, chunks copied, read in place or reused", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(piece, { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        fc.boolean(),
        async (bom, pieces, sizes, maxLineBytes, batchBytes, inPlace, reused) => {
          const bytes = new Uint8Array(Buffer.from(`${bom ? "\ufeff" : ""}${pieces.join("")}`));
          expect(await viaBatches(bytes, sizes, maxLineBytes, batchBytes, inPlace)).toEqual(await viaSplitLines(bytes, sizes, maxLineBytes, reused));
        },
      ),
      { numRuns: 600 },
    );
  });
});
