import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { expandInputs } from "../../src/sources/expand-inputs.js";

const tmp = mkdtempSync(join(tmpdir(), "evalshard-expand-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const spoolDir = join(tmp, "spool");
const stdin = (): Readable => Readable.from([Buffer.from('{"a":1}\n')]);

/** Creates the files (with a trivial line each) under a fresh directory and returns it. */
function tree(name: string, files: string[]): string {
  const dir = join(tmp, name);
  for (const file of files) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), '{"a":1}\n');
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const names = async (inputs: string[]): Promise<string[]> =>
  (await expandInputs(inputs, { spoolDir, stdin: stdin() })).map((s) => s.name);

describe("a directory contributes its .ndjson and .jsonl files, plain or compressed, sorted by path", () => {
  let dir: string;
  beforeAll(() => {
    dir = tree("exports", [
      "b.ndjson",
      "a.jsonl.zst",
      "c/z.ndjson.gz",
      "c/a.jsonl",
      "a.ndjson.bz2",
      "notes.json",
      "readme.txt",
      "c/d/deep.ndjson",
      "B.ndjson",
      "x.ndjson.gz.tmp",
    ]);
  });

  it("lists the matching files, recursively, in code-unit order", async () => {
    expect(await names([dir])).toEqual(
      ["B.ndjson", "a.jsonl.zst", "b.ndjson", "c/a.jsonl", "c/d/deep.ndjson", "c/z.ndjson.gz"].map((f) => join(dir, f)),
    );
  });

  it("follows links to files but not to directories", async () => {
    const linked = tree("linked", ["real.ndjson"]);
    symlinkSync(join(dir, "b.ndjson"), join(linked, "link.ndjson"));
    symlinkSync(linked, join(linked, "loop"));
    symlinkSync(join(tmp, "missing.ndjson"), join(linked, "dangling.ndjson"));
    expect(await names([linked])).toEqual([join(linked, "link.ndjson"), join(linked, "real.ndjson")]);
  });
});

describe("a file is taken whatever its name, and arguments keep their order", () => {
  it("keeps files and stdin where they were given", async () => {
    const dir = tree("files", ["one.txt", "two.ndjson", "sub/three.ndjson"]);
    expect(await names([join(dir, "one.txt"), "-", join(dir, "sub"), join(dir, "two.ndjson")])).toEqual([
      join(dir, "one.txt"),
      "-",
      join(dir, "sub/three.ndjson"),
      join(dir, "two.ndjson"),
    ]);
  });

  it("reads stdin through the given stream", async () => {
    const [source] = await expandInputs(["-"], { spoolDir, stdin: stdin() });
    const lines = [];
    for await (const line of source?.lines() ?? []) lines.push(line);
    expect(lines).toMatchObject([{ kind: "line", text: '{"a":1}', provenance: { source: "-", line: 1 } }]);
  });
});

describe("bad arguments are ConfigErrors naming them", () => {
  it("rejects a second -", async () => {
    await expect(names(["-", "-"])).rejects.toThrow(ConfigError);
    await expect(names(["-", "-"])).rejects.toThrow(/"-".*more than once/);
  });

  it("rejects a path that does not exist", async () => {
    const missing = join(tmp, "nope.ndjson");
    await expect(names([missing])).rejects.toThrow(ConfigError);
    await expect(names([missing])).rejects.toThrow(`Input "${missing}" does not exist`);
  });

  it("rejects an empty directory, and one without input files", async () => {
    const empty = tree("empty", []);
    const other = tree("other", ["a.json", "b.csv", "sub/c.txt"]);
    await expect(names([empty])).rejects.toThrow(ConfigError);
    await expect(names([empty])).rejects.toThrow(`Input directory "${empty}" contains no .ndjson or .jsonl files`);
    await expect(names([other])).rejects.toThrow(`Input directory "${other}" contains no`);
  });
});
