import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePipeline, runNightly } from "../../../src/index.js";
import { gracelessPipeline } from "../../helpers/graceless-pipeline.js";
import { sftRecord } from "../../helpers/records.js";
import { spawnCli } from "../../helpers/spawn-cli.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { emulator, envFor, night, PIPELINES } from "./support.js";

// Issue 40 for nightly jobs: a pipeline's output holding the user's files is refused (exit 2) unless forced;
// the nights' own layout (snapshot links, numbered snapshots, _state, _cache, _rejected) is evalshard's.
const root = tempDir("evalshard-nightly-foreign-");

function usersFiles(dir: string): Record<string, string> {
  const files = { "README.md": "# mine\n", "data/important.csv": "a,b\n" };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return files;
}
const contents = (dir: string, files: Record<string, string>) => Object.fromEntries(Object.keys(files).map((p) => [p, readFileSync(join(dir, p), "utf8")]));

describe("a nightly output holding the user's files", () => {
  it("is refused by the library and by run (exit 2), unless forced; later nights and refused ones are evalshard's", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 71, runs: 60 });
    const out = join(root, "nights");
    const dataset = join(out, "nightly-sft");
    const files = usersFiles(dataset);
    await expect(night("nightly-sft", envFor(emu, out))).rejects.toThrow(/holds "README\.md", which evalshard did not write/);
    expect(contents(dataset, files)).toEqual(files);

    const SFT = gracelessPipeline(join(PIPELINES, "nightly-sft.yaml"), root);
    const refused = await spawnCli(["run", SFT, "--json"], envFor(emu, out));
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/nightly-sft holds "README\.md"/);
    expect(contents(dataset, files)).toEqual(files);

    const forced = await spawnCli(["run", SFT, "--json", "--force"], envFor(emu, out));
    expect(forced.status, forced.stderr).toBe(0);
    // The nights after it: numbered snapshots, the score cache, a refused night's attempt are all evalshard's.
    await emu.advance();
    expect((await spawnCli(["run", SFT, "--json"], envFor(emu, out))).status).toBe(0);
    expect(existsSync(`${dataset}.snapshots`)).toBe(true); // kept nights live beside the dataset (issue 39)
    expect((await spawnCli(["run", SFT, "--json", "--min-records", "100000"], envFor(emu, out))).status).toBe(7);
    await emu.advance();
    const again = await spawnCli(["run", SFT, "--json"], envFor(emu, out));
    expect(again.status, again.stderr).toBe(0);
  });

  it("pull refuses it too (exit 2) and writes there with --force", { timeout: 120_000 }, async () => {
    const emu = await emulator({ seed: 72, runs: 40 });
    const dir = join(root, "pulled");
    const files = usersFiles(dir);
    const pull = (...flags: string[]) => spawnCli(["pull", "sft", "--base-url", emu.url, "--out", dir, "--json", ...flags], { EVAL_OWNER_TOKEN: emu.ownerToken });
    const refused = await pull();
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/pulled holds "README\.md", which evalshard did not write/);
    expect(contents(dir, files)).toEqual(files);
    const forced = await pull("--force");
    expect(forced.status, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"))).toMatchObject({ pipeline: "pull-sft" });
  });

  it("a files pipeline whose output is inside its input folder is refused, naming both", async () => {
    const inputs = join(root, "exports");
    mkdirSync(inputs, { recursive: true });
    writeFileSync(join(inputs, "a.ndjson"), `${JSON.stringify(sftRecord())}\n`);
    const text = `version: 1\nname: files\nsource: {kind: files, inputs: [${inputs}]}\noutput: {dir: ${join(inputs, "ds")}}\n`;
    await expect(runNightly(parsePipeline(text, "files.yaml", {}))).rejects.toThrow(`--out "${join(inputs, "ds")}" is inside the input "${inputs}"`);
    expect(existsSync(join(inputs, "ds"))).toBe(false);
  });
});
