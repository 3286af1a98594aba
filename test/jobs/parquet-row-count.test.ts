import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
import { parquetFooterLength, parquetRowCount } from "../../src/jobs/parquet-row-count.js";
import { tempDir } from "../helpers/temp-dir.js";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
const root = tempDir("evalshard-footer-");

const footerOf = (bytes: Buffer) => {
  const length = parquetFooterLength(bytes.subarray(bytes.length - 8));
  return bytes.subarray(bytes.length - 8 - length, bytes.length - 8);
};

describe("parquetRowCount", () => {
  it("agrees with hyparquet on shards of our encoder, with each codec", () => {
    const input = join(FIXTURES, "sft-valid.ndjson");
    for (const compression of ["zstd", "gzip", "snappy", "none"]) {
      const out = join(root, compression);
      execFileSync(process.execPath, [BIN, "convert", input, "--out", out, "--compression", compression, "--shard-bytes", "3000"], { stdio: "ignore" });
      for (const name of readdirSync(join(out, "data"))) {
        const bytes = readFileSync(join(out, "data", name));
        const expected = Number(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).num_rows);
        expect(parquetRowCount(footerOf(bytes)), `${compression} ${name}`).toBe(expected);
        expect(expected).toBeGreaterThan(0);
      }
    }
  });

  it("throws, saying what is wrong, on a truncated footer or a file that is not Parquet", () => {
    const out = join(root, "zstd");
    const bytes = readFileSync(join(out, "data", readdirSync(join(out, "data"))[0]!));
    const footer = footerOf(bytes);
    expect(() => parquetRowCount(footer.subarray(0, 10))).toThrow(/truncated/);
    expect(() => parquetFooterLength(Buffer.from("not parquet at all"))).toThrow(/PAR1/);
  });
});
