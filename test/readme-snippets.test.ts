import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers/temp-dir.js";

// Every ```ts block of the README type-checks against the built package (dist/, through package.json's
// `exports` and `types`, as a user's project resolves `evalshard`), with the type-safety options the project
// uses (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess). The scratch project links node_modules/evalshard to this checkout; `npm run build` must have run.
const ROOT = new URL("..", import.meta.url).pathname;
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const blocks = [...README.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] as string);
const project = tempDir("evalshard-readme-ts-");

const COMPILER_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2023"],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules/@types")],
  noEmit: true,
};

function typeCheck(files: Record<string, string>): { status: number | null; output: string } {
  const names = Object.keys(files);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: names }));
  const r = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: project, encoding: "utf8" });
  return { status: r.status, output: r.stdout + r.stderr };
}

// The control module below must fail: one compile for it and the README's blocks (each its own module), so the
// package's types load once.
const CONTROL = [
  'import { fileSource, planPipeline, runPipeline, sft, type SftRecord, type StrippedSftRecord } from "evalshard";',
  'const sources = [fileSource("x.ndjson")];',
  "for await (const item of runPipeline(sources, await planPipeline(sources, { format: sft }))) {",
  "  if (item.kind !== \"kept\") continue;",
  "  const stripped: StrippedSftRecord = item.value.record;",
  "  const whole: SftRecord = item.value.record;",
  "  void stripped; void whole;",
  "}",
  "for await (const item of runPipeline(sources, await planPipeline(sources))) {",
  "  if (item.kind === \"kept\") { const whole: SftRecord = item.value.record; void whole; }",
  "}",
  "export {};",
  "",
].join("\n");

let checked: { status: number | null; output: string };
beforeAll(() => {
  expect(existsSync(join(ROOT, "dist/index.d.ts")), "dist/index.d.ts: run `npm run build` first").toBe(true);
  mkdirSync(join(project, "node_modules"), { recursive: true });
  symlinkSync(ROOT, join(project, "node_modules/evalshard"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "training-repo", private: true, type: "module" }));
  checked = typeCheck({ ...Object.fromEntries(blocks.map((b, i) => [`readme-${i}.ts`, `${b}\nexport {};\n`])), "control.ts": CONTROL });
}, 120_000);

describe("the README's TypeScript snippets", () => {
  it("are there: the library section and the pipeline composed in a training repo", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.some((b) => b.includes("runPipeline") && b.includes("async function*"))).toBe(true);
  });

  it("type-check against the built package, each as its own module", () => {
    // Every line of tsc's output that is not the control module's (an error's own lines are indented under it).
    expect(checked.output.split("\n").filter((line) => line !== "" && !/^\s/.test(line) && !line.startsWith("control.ts("))).toEqual([]);
  });

  it("would fail on a wrong type: a stripped record is not a whole SftRecord, a detected format's record is untyped", () => {
    expect(checked.status).not.toBe(0);
    // Two errors, on the two assignments to SftRecord (lines 6 and 10), and nothing else.
    expect(checked.output.match(/control\.ts\((\d+),/g)).toEqual(["control.ts(6,", "control.ts(10,"]);
  });
});
