import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { convert, inspect, IoError, report, verify } from "../../src/index.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 33: verify, inspect and report read a dataset's manifest.json through one reader, so a file that is
// not an evalshard manifest is refused alike: a verify finding, an IoError naming the file for the others.
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
const root = tempDir("evalshard-published-manifest-");
const out = join(root, "dataset");

beforeAll(async () => {
  await convert({ inputs: [join(FIXTURES, "sft-valid.ndjson")], out });
}, 60_000);

describe("a published manifest, read by verify, inspect and report", () => {
  it("reads the dataset's", async () => {
    expect((await verify(out)).ok).toBe(true);
    expect((await inspect(out)).manifest?.records_out).toBeGreaterThan(0);
    expect((await report(out)).current.records_out).toBe((await inspect(out)).manifest?.records_out);
  });

  for (const [what, text, why] of [
    ["not JSON", "{ torn", /is not an evalshard manifest: .*JSON/],
    ["JSON without a shard list", `{"records_out": 1, "shards": 3}`, /is not an evalshard manifest: it has no `shards` list$/],
  ] as const) {
    it(`refuses one that is ${what}, naming the file`, async () => {
      const dir = join(root, what.replace(/\W+/g, "-"));
      cpSync(out, dir, { recursive: true, verbatimSymlinks: true });
      writeFileSync(join(dir, "manifest.json"), text);
      const found = (await verify(dir)).findings;
      expect(found.map((f) => f.kind)).toEqual(["manifest_unreadable"]);
      expect(found[0]?.message).toMatch(why);
      for (const job of [() => inspect(dir), () => report(dir)]) {
        const error = await job().then(() => null, (e: unknown) => e);
        expect(error).toBeInstanceOf(IoError);
        expect((error as IoError).message).toContain(`${dir}/manifest.json`);
        expect((error as IoError).message).toMatch(why);
        expect((error as IoError).path).toBe(`${dir}/manifest.json`);
      }
    });
  }
});
