import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync, zstdCompressSync as compress } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../src/service/index.js";
import { FIXTURES } from "./helpers/flow.js";
import { tempDir } from "./helpers/temp-dir.js";

// The README's usage lines work as written after its two set-up commands (which build dist/): each `npx evalshard`
// line of its sh blocks runs in a scratch folder holding the files the lines name (exports/, rl-export.ndjson,
// scorecards.ndjson, made from the fixtures), in order, so `inspect ds` reads what the converts before it wrote.
// npx is pointed at this checkout with --prefix (the scratch folder is outside it) and may not install anything:
// `npx evalshard` must resolve to the checkout's own bin, never the registry (the first line; the others run that bin). The `run` lines pull from the bundled
// emulator, started here, as the README's `export EVAL_BASE_URL=... EVAL_OWNER_TOKEN=...` line would point them.
const ROOT = new URL("..", import.meta.url).pathname;
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** Lines left out, each with why: they need the service (or run it until stopped). Every other line runs. */
const NEEDS_SERVICE = new Map([
  ["npx evalshard serve --seed 7 --runs 1000", "serves until stopped"],
  ["npx evalshard serve --port 0 --seed 7 --runs 1000 --faults 429=0.05,502=0.02,cut=0.02,partial=0.05", "serves until stopped"],
  ['npx evalshard pull rl --base-url "$EVAL_BASE_URL" --out datasets/rl', "pulls from EVAL_BASE_URL"],
  ['npx evalshard pull dpo --base-url "$EVAL_BASE_URL" --out datasets/dpo --auth agent --dpo-strategy adjacent', "pulls from EVAL_BASE_URL"],
  ["npx evalshard demo", "runs the emulator and two nights: test/cli/demo.test.ts covers it"],
]);

/** The `npx evalshard` lines of the README's sh blocks, trailing comments removed. */
function shellExamples(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1] as string);
  return blocks
    .flatMap((block) => block.split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line.startsWith("npx evalshard "));
}

const examples = shellExamples(README);
const cwd = tempDir("evalshard-readme-");
mkdirSync(join(cwd, "exports"));
for (const name of ["sft-valid", "sft-filters"]) writeFileSync(join(cwd, "exports", `${name}.ndjson.zst`), compress(readFileSync(`${FIXTURES}records/${name}.ndjson`)));
writeFileSync(join(cwd, "exports", "sft-duplicates.ndjson.gz"), gzipSync(readFileSync(`${FIXTURES}records/sft-duplicates.ndjson`)));
copyFileSync(`${FIXTURES}records/rl-valid.ndjson`, join(cwd, "rl-export.ndjson"));
copyFileSync(`${FIXTURES}records/scorecards-gated.ndjson`, join(cwd, "scorecards.ndjson"));
copyFileSync(join(ROOT, "pipelines/nightly-sft.yaml"), join(cwd, "my-nightly-sft.yaml"));

let emulator: RunningEmulator;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  emulator = await startEmulator({ seed: 7, runs: 40 });
  env = { ...process.env, EVAL_BASE_URL: emulator.url, EVAL_OWNER_TOKEN: emulator.ownerToken, EVALSHARD_OUT: join(cwd, "nightly") };
});
afterAll(() => emulator.close());

/** Runs `command` in bash without blocking this process: the emulator answers from it. */
function sh(command: string): Promise<{ status: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn("bash", ["-c", command], { cwd, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (status) => done({ status, output }));
  });
}

describe("README", () => {
  it("has usage lines, and the list of lines left out names only lines it has", () => {
    expect(examples.length).toBeGreaterThan(10);
    for (const line of NEEDS_SERVICE.keys()) expect(examples, line).toContain(line);
  });

  it("its two set-up commands are `npm ci && ...` on Node 24, and CI runs exactly its test command", () => {
    const setUp = (README.split("## Set-up")[1] ?? "").match(/```sh\n([\s\S]*?)```/)?.[1] ?? "";
    const commands = setUp.trim().split("\n").map((line) => line.replace(/\s+#.*$/, ""));
    expect(commands).toEqual(["npx -y -p node@24 -c 'npm ci && npm run demo'", "npx -y -p node@24 -c 'npm ci && npm test'"]);
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8").split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    expect(ci).toContain(commands[1]);
  });

  it("`npx evalshard` in the checkout runs the checkout's own CLI", () => {
    const r = spawnSync("npx", ["--no-install", "evalshard", "--version"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });

  // npx resolves `evalshard` from the scratch folder to the checkout's bin the same way for every line (~1 s of npm
  // each): the first line goes through npx, the others run that bin, dist/cli/main.js, as npx would.
  for (const [i, line] of examples.filter((l) => !NEEDS_SERVICE.has(l)).entries()) {
    it(`runs: ${line}`, { timeout: 120_000 }, async () => {
      const command = line.replace(/^npx evalshard /, i === 0 ? `npx --no-install --prefix '${ROOT}' evalshard ` : `'${join(ROOT, "dist/cli/main.js")}' `);
      const r = await sh(command);
      expect(r.status, `${line}\n${r.output}`).toBe(0);
    });
  }
});
