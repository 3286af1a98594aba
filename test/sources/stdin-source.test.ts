import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { gzipSync, zstdCompressSync as compress } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { IoError } from "../../src/core/errors.js";
import type { LineSource, SourceLine } from "../../src/sources/line-source.js";
import { stdinSource } from "../../src/sources/stdin-source.js";

const fixtures = fileURLToPath(new URL("../../fixtures/sources", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "evalshard-stdin-source-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const text = Array.from({ length: 5000 }, (_, i) => `{"run_id":"run-${i}"}\n`).join("");
const plain = Buffer.from(text);

/** A stdin stand-in that hands the bytes over in small pieces, as a pipe does. */
function stdinOf(bytes: Buffer, size = 1000): Readable {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces, { objectMode: false });
}

async function read(source: LineSource): Promise<SourceLine[]> {
  const out: SourceLine[] = [];
  for await (const line of source.lines()) out.push(line);
  return out;
}

const freshDir = (): string => mkdtempSync(join(tmp, "spool-"));
const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex");

describe("stdin is named - and can be read twice", () => {
  it("gives the same lines and the same info on both reads", async () => {
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(plain) });
    expect(source.name).toBe("-");
    const first = await read(source);
    const infoAfterFirst = await source.info();
    const second = await read(source);
    expect(first).toHaveLength(5000);
    expect(first[4999]?.provenance).toEqual({ source: "-", line: 5000, offset: plain.lastIndexOf("{") });
    expect(second).toEqual(first);
    expect(infoAfterFirst).toEqual({ path: "-", bytes: plain.length, sha256: sha256(plain) });
    expect(await source.info()).toEqual(infoAfterFirst);
  });

  it("gives all lines on the second read when the first stopped early", async () => {
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(plain) });
    for await (const _ of source.lines()) break;
    expect(await read(source)).toHaveLength(5000);
    expect(await source.info()).toEqual({ path: "-", bytes: plain.length, sha256: sha256(plain) });
  });

  it("gives all lines on the second read when a compressed first read stopped early", async () => {
    const gz = gzipSync(plain);
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(gz, 100) });
    for await (const _ of source.lines()) break;
    expect(await read(source)).toHaveLength(5000);
    expect(await source.info()).toEqual({ path: "-", bytes: gz.length, sha256: sha256(gz) });
  });

  it("answers info() before any read, then still yields every line", async () => {
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(plain) });
    expect(await source.info()).toEqual({ path: "-", bytes: plain.length, sha256: sha256(plain) });
    expect(await read(source)).toHaveLength(5000);
  });

  it("spools the raw bytes into spoolDir", async () => {
    const dir = freshDir();
    const gz = gzipSync(plain);
    await read(stdinSource({ spoolDir: dir, stdin: stdinOf(gz) }));
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(dir, files[0] as string))).toEqual(gz);
  });

  it("creates spoolDir when it does not exist", async () => {
    const dir = join(freshDir(), "a", "b");
    const source = stdinSource({ spoolDir: dir, stdin: stdinOf(plain) });
    await read(source);
    expect(await read(source)).toHaveLength(5000);
  });
});

describe("compressed stdin is recognised by its magic bytes", () => {
  it("reads gzip, twice", async () => {
    const gz = readFileSync(join(fixtures, "gzip.ndjson.gz"));
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(gz, 10) });
    const first = await read(source);
    expect(first.map((l) => (l.kind === "line" ? l.text.slice(0, 50) : ""))).toHaveLength(3);
    expect(await read(source)).toEqual(first);
    expect(await source.info()).toEqual({ path: "-", bytes: gz.length, sha256: sha256(gz) });
  });

  it("reads multi-member gzip and zstd", async () => {
    const multi = readFileSync(join(fixtures, "gzip-multi-member.ndjson.gz"));
    expect(await read(stdinSource({ spoolDir: freshDir(), stdin: stdinOf(multi, 3) }))).toHaveLength(3);
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(compress(plain)) });
    expect(await read(source)).toHaveLength(5000);
    expect(await read(source)).toHaveLength(5000);
  });
});

describe("a stdin failure is an IoError naming -", () => {
  it("reports a stream error on read and on info()", async () => {
    const stdin = new PassThrough();
    const source = stdinSource({ spoolDir: freshDir(), stdin });
    stdin.write('{"a":1}\n');
    setTimeout(() => stdin.destroy(new Error("pipe broke")), 10);
    const err = await read(source).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IoError);
    expect((err as IoError).path).toBe("-");
    expect((err as IoError).message).toBe('Cannot read input "-": pipe broke');
    await expect(source.info()).rejects.toThrow('Cannot read input "-": pipe broke');
  });

  it("reports a stream that fails before its first chunk is asked for (while the spool file opens)", async () => {
    const stdin = new PassThrough();
    const source = stdinSource({ spoolDir: freshDir(), stdin });
    const reading = read(source).catch((e: unknown) => e);
    stdin.destroy(new Error("pipe broke"));
    const err = await reading;
    expect(err).toBeInstanceOf(IoError);
    expect((err as IoError).message).toBe('Cannot read input "-": pipe broke');
  });

  it("reports corrupt gzip on stdin", async () => {
    const gz = gzipSync(plain);
    const source = stdinSource({ spoolDir: freshDir(), stdin: stdinOf(gz.subarray(0, gz.length - 20)) });
    await expect(read(source)).rejects.toThrow(/Cannot decompress input "-" as gzip/);
  });

  it("reports a spool directory that cannot be made", async () => {
    const file = join(freshDir(), "a-file");
    writeFileSync(file, "");
    const source = stdinSource({ spoolDir: join(file, "spool"), stdin: stdinOf(plain) });
    // Our own write failed, not the input: the message names the spool file and what was being done.
    await expect(read(source)).rejects.toThrow(/^Cannot create the spool file \S+\/a-file\/spool\/stdin-[\w-]+\.raw: ENOTDIR/);
  });
});
