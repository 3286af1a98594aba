import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { IoError } from "../../src/core/errors.js";
import { fileSource } from "../../src/sources/file-source.js";
import type { LineSource, ReadOptions, SourceLine } from "../../src/sources/line-source.js";

const fixtures = fileURLToPath(new URL("../../fixtures/sources", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "evalshard-file-source-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function read(source: LineSource, options?: ReadOptions): Promise<SourceLine[]> {
  const out: SourceLine[] = [];
  for await (const line of source.lines(options)) out.push(line);
  return out;
}

const runIds = (lines: SourceLine[]): string[] =>
  lines.map((l) => (l.kind === "line" ? (JSON.parse(l.text) as { run_id: string }).run_id : "too_long"));

const sha256 = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("a plain file yields its lines with provenance", () => {
  it("reads the BOM / CRLF / blank-line fixture", async () => {
    const path = `${fixtures}/bom-crlf.ndjson`;
    const lines = await read(fileSource(path));
    expect(runIds(lines)).toEqual(["run-bom-1", "run-bom-2", "run-bom-3", "run-bom-4"]);
    expect(lines.map((l) => l.provenance)).toEqual([
      { source: path, line: 1, offset: 3 },
      { source: path, line: 3, offset: 521 },
      { source: path, line: 5, offset: 1042 },
      { source: path, line: 6, offset: 1558 },
    ]);
    expect(lines.every((l) => l.kind === "line" && !l.text.endsWith("\r"))).toBe(true);
  });

  it("passes read options on to the splitter", async () => {
    const lines = await read(fileSource(`${fixtures}/bom-crlf.ndjson`), { maxLineBytes: 100, headBytes: 10 });
    expect(lines.map((l) => [l.kind, l.bytes])).toEqual(Array(4).fill(["too_long", 514]));
  });
});

describe("compression is picked by extension", () => {
  it("reads gzip", async () => {
    expect(runIds(await read(fileSource(`${fixtures}/gzip.ndjson.gz`)))).toEqual(["run-gz-1", "run-gz-2", "run-gz-3"]);
  });

  it("reads multi-member gzip", async () => {
    const lines = await read(fileSource(`${fixtures}/gzip-multi-member.ndjson.gz`));
    expect(runIds(lines)).toEqual(["run-gzm-a-1", "run-gzm-a-2", "run-gzm-b-1"]);
    expect(lines.map((l) => l.provenance.line)).toEqual([1, 2, 3]);
  });

  it("reads zstd", async () => {
    expect(runIds(await read(fileSource(`${fixtures}/zstd.ndjson.zst`)))).toEqual([
      "run-zst-1",
      "run-zst-2",
      "run-zst-3",
    ]);
  });

  it("offsets count decompressed bytes", async () => {
    const lines = await read(fileSource(`${fixtures}/gzip.ndjson.gz`));
    const text = gunzipText(`${fixtures}/gzip.ndjson.gz`);
    for (const line of lines) {
      const at = line.provenance.offset;
      expect(text.subarray(at, at + line.bytes).toString()).toBe(line.kind === "line" ? line.text : "");
    }
  });
});

describe("other names are sniffed by magic bytes", () => {
  it("reads gzip and zstd whatever their name", async () => {
    const gz = join(tmp, "export.data");
    writeFileSync(gz, readFileSync(`${fixtures}/gzip.ndjson.gz`));
    const zst = join(tmp, "export.bin");
    writeFileSync(zst, readFileSync(`${fixtures}/zstd.ndjson.zst`));
    expect(runIds(await read(fileSource(gz)))).toEqual(["run-gz-1", "run-gz-2", "run-gz-3"]);
    expect(runIds(await read(fileSource(zst)))).toEqual(["run-zst-1", "run-zst-2", "run-zst-3"]);
  });
});

describe("a source can be read again from the first line", () => {
  it("gives the same lines twice, also after a read stopped early", async () => {
    const source = fileSource(`${fixtures}/gzip.ndjson.gz`);
    for await (const _ of source.lines()) break;
    const first = await read(source);
    expect(await read(source)).toEqual(first);
    expect(first).toHaveLength(3);
  });
});

describe("info() gives the size and sha256 of the raw bytes", () => {
  it("measures the compressed file, before any read", async () => {
    const path = `${fixtures}/zstd.ndjson.zst`;
    expect(await fileSource(path).info()).toEqual({
      path,
      bytes: readFileSync(path).length,
      sha256: sha256(path),
    });
  });

  it("takes the figures from a full read without reading again", async () => {
    const path = join(tmp, "gone.ndjson.gz");
    writeFileSync(path, readFileSync(`${fixtures}/gzip.ndjson.gz`));
    const expected = { path, bytes: readFileSync(path).length, sha256: sha256(path) };
    const source = fileSource(path);
    await read(source);
    rmSync(path);
    expect(await source.info()).toEqual(expected);
  });
});

describe("an unreadable input is an IoError naming the path and the cause", () => {
  it("reports a missing file on read and on info()", async () => {
    const source = fileSource("no/such/x.ndjson");
    const err = await read(source).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IoError);
    expect((err as IoError).path).toBe("no/such/x.ndjson");
    expect((err as IoError).message).toMatch(/^Cannot read input "no\/such\/x.ndjson": ENOENT/);
    await expect(source.info()).rejects.toThrow(/^Cannot read input "no\/such\/x.ndjson": ENOENT/);
  });

  it("reports a directory given as a file", async () => {
    await expect(read(fileSource(tmp))).rejects.toThrow(/Cannot read input ".*": EISDIR/);
  });

  it("reports a corrupt gzip file", async () => {
    const path = join(tmp, "corrupt.ndjson.gz");
    const gz = gzipSync(Buffer.from('{"a":1}\n'.repeat(100)));
    writeFileSync(path, gz.subarray(0, gz.length - 12));
    const err = await read(fileSource(path)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IoError);
    expect((err as IoError).message).toContain(`"${path}"`);
  });

  it("reports a plain file named .zst", async () => {
    const path = join(tmp, "plain.ndjson.zst");
    writeFileSync(path, '{"a":1}\n');
    await expect(read(fileSource(path))).rejects.toThrow(/Cannot decompress input ".*plain.ndjson.zst" as zstd/);
  });
});

function gunzipText(path: string): Buffer {
  return gunzipSync(readFileSync(path));
}
