import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import type { ReadOptions, SourceLine } from "../../src/sources/line-source.js";
import { splitLines } from "../../src/sources/split-lines.js";

async function* chunked(...chunks: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield typeof chunk === "string" ? Buffer.from(chunk) : chunk;
}

async function split(input: AsyncIterable<Buffer>, options?: ReadOptions): Promise<SourceLine[]> {
  const out: SourceLine[] = [];
  for await (const line of splitLines(input, "in.ndjson", options)) out.push(line);
  return out;
}

/** The lines as [line number, offset, text or "too_long:<bytes>"] triples, easy to compare. */
const brief = (lines: SourceLine[]): [number, number, string][] =>
  lines.map((l) => [l.provenance.line, l.provenance.offset, l.kind === "line" ? l.text : `too_long:${l.bytes}`]);

/** Cuts a buffer at the given positions. */
function cut(buf: Buffer, positions: number[]): Buffer[] {
  const points = [...new Set(positions.map((p) => p % (buf.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let start = 0;
  for (const p of [...points, buf.length]) {
    parts.push(buf.subarray(start, p));
    start = p;
  }
  return parts;
}

/** What the splitter must yield, computed the simple way: the whole input in one buffer. */
function reference(buf: Buffer, maxLineBytes: number, headBytes: number): unknown[] {
  const out: unknown[] = [];
  let start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  for (let line = 1; start < buf.length; line++) {
    const newline = buf.indexOf(10, start);
    let end = newline === -1 ? buf.length : newline;
    if (end > start && buf[end - 1] === 13) end--;
    const bytes = end - start;
    const text = buf.toString("utf8", start, end);
    const provenance = { source: "in.ndjson", line, offset: start };
    if (bytes > maxLineBytes) {
      let head = "";
      for (const ch of text) {
        if (Buffer.byteLength(head + ch) > headBytes) break;
        head += ch;
      }
      out.push({ kind: "too_long", provenance, head, bytes });
    } else if (!/^[ \t\r\v\f]*$/.test(buf.toString("latin1", start, end))) {
      out.push({ kind: "line", provenance, text, bytes });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return out;
}

describe("lines end at LF and carry their source, 1-based line number and byte offset", () => {
  it("splits a simple input", async () => {
    const lines = await split(chunked('{"a":1}\n{"b":2}\n'));
    expect(lines).toEqual([
      { kind: "line", provenance: { source: "in.ndjson", line: 1, offset: 0 }, text: '{"a":1}', bytes: 7 },
      { kind: "line", provenance: { source: "in.ndjson", line: 2, offset: 8 }, text: '{"b":2}', bytes: 7 },
    ]);
  });

  it("counts offsets in bytes, not characters", async () => {
    const lines = await split(chunked('{"é":"ü"}\n{}\n'));
    expect(brief(lines)).toEqual([
      [1, 0, '{"é":"ü"}'],
      [2, 12, "{}"],
    ]);
    expect(lines[0]?.bytes).toBe(11);
  });

  it("yields nothing for an empty input", async () => {
    expect(await split(chunked())).toEqual([]);
    expect(await split(chunked("", ""))).toEqual([]);
  });
});

describe("a leading UTF-8 BOM is dropped but its 3 bytes still count in offsets", () => {
  it("drops the BOM", async () => {
    expect(brief(await split(chunked("\uFEFF{}\n[]\n")))).toEqual([
      [1, 3, "{}"],
      [2, 6, "[]"],
    ]);
  });

  it("drops a BOM cut across chunks", async () => {
    const bytes = Buffer.from("\uFEFF{}\n");
    expect(brief(await split(chunked(...cut(bytes, [1, 2, 3, 4]))))).toEqual([[1, 3, "{}"]]);
  });

  it("keeps a BOM that is not at the start", async () => {
    expect(brief(await split(chunked("{}\n\uFEFF[]\n")))).toEqual([
      [1, 0, "{}"],
      [2, 3, "\uFEFF[]"],
    ]);
  });

  it("yields nothing for a BOM alone, and keeps an input shorter than a BOM", async () => {
    expect(await split(chunked("\uFEFF"))).toEqual([]);
    expect(brief(await split(chunked("1", "2")))).toEqual([[1, 0, "12"]]);
  });
});

describe("CRLF line ends lose their CR", () => {
  it("strips the CR and leaves it out of `bytes`", async () => {
    const lines = await split(chunked("{}\r\n[]\r\n"));
    expect(brief(lines)).toEqual([
      [1, 0, "{}"],
      [2, 4, "[]"],
    ]);
    expect(lines.map((l) => l.bytes)).toEqual([2, 2]);
  });

  it("strips a CR whose LF comes in the next chunk", async () => {
    expect(brief(await split(chunked("{}\r", "\n[]\r", "\n")))).toEqual([
      [1, 0, "{}"],
      [2, 4, "[]"],
    ]);
  });

  it("strips a CR at the very end of the input", async () => {
    expect(brief(await split(chunked("{}\r")))).toEqual([[1, 0, "{}"]]);
  });
});

describe("blank and whitespace-only lines are skipped but counted", () => {
  it("skips them and keeps numbering", async () => {
    expect(brief(await split(chunked("\n{}\n\n \t\r\n\r\n[]\n\n")))).toEqual([
      [2, 1, "{}"],
      [6, 11, "[]"],
    ]);
  });

  it("keeps a line with leading spaces and content", async () => {
    expect(brief(await split(chunked("  {}\n")))).toEqual([[1, 0, "  {}"]]);
  });
});

describe("a last line without a newline is kept", () => {
  it("keeps it", async () => {
    expect(brief(await split(chunked("{}\n[]")))).toEqual([
      [1, 0, "{}"],
      [2, 3, "[]"],
    ]);
  });

  it("keeps it when it is spread over several chunks", async () => {
    expect(brief(await split(chunked("{}\n[", "1,", "2]")))).toEqual([
      [1, 0, "{}"],
      [2, 3, "[1,2]"],
    ]);
  });
});

describe("lines cut by chunk boundaries come out whole", () => {
  it("decodes a multi-byte character cut in two", async () => {
    const bytes = Buffer.from('{"k":"é€😀"}\n');
    for (let at = 0; at <= bytes.length; at++) {
      expect(brief(await split(chunked(...cut(bytes, [at]))))).toEqual([[1, 0, '{"k":"é€😀"}']]);
    }
  });

  it("gives the same lines for the BOM / CRLF fixture cut at every position, and in one-byte chunks", async () => {
    const bytes = readFileSync(fileURLToPath(new URL("../../fixtures/sources/bom-crlf.ndjson", import.meta.url)));
    const whole = await split(chunked(bytes));
    expect(whole.map((l) => l.provenance.line)).toEqual([1, 3, 5, 6]);
    for (let at = 0; at <= bytes.length; at++) expect(await split(chunked(...cut(bytes, [at])))).toEqual(whole);
    const single = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(await split(chunked(...single))).toEqual(whole);
  });

  it("matches a whole-buffer reference for any input and any chunking", async () => {
    const piece = fc.oneof(
      fc.constantFrom('{"a":1}', "[]", " ", "\t", "\r", "é", "€", "😀", "\uFEFF", "x"),
      fc.string({ maxLength: 12 }),
    );
    const line = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(""));
    const input = fc.record({
      bom: fc.boolean(),
      lines: fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n")), { maxLength: 12 }),
      finalNewline: fc.boolean(),
    });
    const limits = fc.oneof(
      fc.constant({ maxLineBytes: 64 * 1024 * 1024, headBytes: 4096 }),
      fc.record({ maxLineBytes: fc.integer({ min: 1, max: 40 }), headBytes: fc.integer({ min: 0, max: 20 }) }),
    );
    await fc.assert(
      fc.asyncProperty(input, fc.array(fc.nat(), { maxLength: 20 }), limits, async (spec, cuts, options) => {
        let text = spec.bom ? "\uFEFF" : "";
        spec.lines.forEach(([body, end], i) => {
          text += body + (i < spec.lines.length - 1 || spec.finalNewline ? end : "");
        });
        const bytes = Buffer.from(text);
        const got = await split(chunked(...cut(bytes, cuts)), options);
        expect(got).toEqual(reference(bytes, options.maxLineBytes, options.headBytes));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("a line longer than maxLineBytes becomes too_long without being held whole", () => {
  it("reports a 50 MB line with a capped head and its exact size, holding no more than the limit", async () => {
    const lineBytes = 50_000_000;
    const chunkBytes = 64 * 1024;
    // The middle of the line is the same buffer over and over, so only the splitter can allocate.
    const filler = Buffer.alloc(chunkBytes, "x");
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    async function* input(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"a":1}\n');
      for (let sent = 0; sent < lineBytes; sent += chunkBytes) {
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
        yield sent + chunkBytes <= lineBytes ? filler : filler.subarray(0, lineBytes - sent);
      }
      yield Buffer.from('\n{"b":2}\n');
    }
    const lines: SourceLine[] = [];
    for await (const line of splitLines(input(), "in.ndjson", { maxLineBytes: 1024 * 1024 })) {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      lines.push(line);
    }
    expect(lines).toHaveLength(3);
    expect(lines[1]).toEqual({
      kind: "too_long",
      provenance: { source: "in.ndjson", line: 2, offset: 8 },
      head: "x".repeat(4096),
      bytes: lineBytes,
    });
    expect(brief([lines[2] as SourceLine])).toEqual([[3, 8 + lineBytes + 1, '{"b":2}']]);
    expect(peak - before).toBeLessThan(8 * 1024 * 1024);
  });

  it("reports a too-long line that fits in one chunk, at the end, or is cut by chunks", async () => {
    const long = "y".repeat(30);
    const options = { maxLineBytes: 10, headBytes: 4 };
    const expected = [
      [1, 0, "{}"],
      [2, 3, "too_long:30"],
      [3, 34, "too_long:30"],
    ];
    expect(brief(await split(chunked(`{}\n${long}\n${long}`), options))).toEqual(expected);
    expect(brief(await split(chunked(`{}\n${long.slice(0, 7)}`, long.slice(7), `\n${long}\r`), options))).toEqual(
      expected,
    );
    const lines = await split(chunked(`${long}\r\n`), options);
    expect(lines[0]).toMatchObject({ kind: "too_long", head: "yyyy", bytes: 30 });
  });

  it("does not count the CR of a CRLF against the limit", async () => {
    const lines = await split(chunked("abcd", "\r", "\nabcde\r\n"), { maxLineBytes: 4 });
    expect(brief(lines)).toEqual([
      [1, 0, "abcd"],
      [2, 6, "too_long:5"],
    ]);
  });

  it("keeps a whole character at the end of the head", async () => {
    const lines = await split(chunked(`${"é".repeat(20)}\n`), { maxLineBytes: 10, headBytes: 5 });
    expect(lines[0]).toMatchObject({ kind: "too_long", head: "éé", bytes: 40 });
  });
});

describe("read options are checked", () => {
  it("rejects a maxLineBytes below 1 and a negative headBytes, naming the value", async () => {
    await expect(split(chunked("{}\n"), { maxLineBytes: 0 })).rejects.toThrow(ConfigError);
    await expect(split(chunked("{}\n"), { maxLineBytes: 0 })).rejects.toThrow(/maxLineBytes.*got 0/);
    await expect(split(chunked("{}\n"), { headBytes: -1 })).rejects.toThrow(/headBytes.*got -1/);
    await expect(split(chunked("{}\n"), { maxLineBytes: 1.5 })).rejects.toThrow(/got 1.5/);
  });
});
