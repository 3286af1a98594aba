import { describe, expect, it } from "vitest";
import { ndjsonLines, PartialLineError } from "../../src/http/ndjson-lines.js";
import { drain } from "./support.js";

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part) : part;
}

describe("ndjsonLines", () => {
  it("yields complete lines across chunk borders, without line ends, skipping blank lines", async () => {
    const got = await drain(ndjsonLines(chunks('{"a":1}\n{"b"', ':2}\r\n', "\n", '{"c":', "3}\n")));
    expect(got).toEqual({ items: ['{"a":1}', '{"b":2}', '{"c":3}'], error: undefined });
  });

  it("keeps multi-byte characters whole when a chunk splits one", async () => {
    const bytes = Buffer.from('{"t":"été ☃"}\n');
    const got = await drain(ndjsonLines(chunks(bytes.subarray(0, 8), bytes.subarray(8, 13), bytes.subarray(13))));
    expect(got.items).toEqual(['{"t":"été ☃"}']);
  });

  it("never yields the partial last line of a cut body: it throws PartialLineError after the complete ones", async () => {
    const got = await drain(ndjsonLines(chunks('{"a":1}\n{"b":2}\n{"c":[1,', "2")));
    expect(got.items).toEqual(['{"a":1}', '{"b":2}']);
    expect(got.error).toBeInstanceOf(PartialLineError);
    expect((got.error as PartialLineError).partialBytes).toBe(9);
  });

  it("accepts a last line without a newline when it is whole JSON", async () => {
    expect((await drain(ndjsonLines(chunks('{"a":1}\n{"b":2}')))).items).toEqual(['{"a":1}', '{"b":2}']);
    expect((await drain(ndjsonLines(chunks("")))).items).toEqual([]);
    expect((await drain(ndjsonLines(chunks("\n  ")))).error).toBeUndefined();
  });

  it("passes on a connection error mid-body, after the complete lines", async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{"a":1}\n{"b"');
      throw new TypeError("terminated");
    }
    const got = await drain(ndjsonLines(broken()));
    expect(got.items).toEqual(['{"a":1}']);
    expect(got.error).toBeInstanceOf(TypeError);
  });
});
