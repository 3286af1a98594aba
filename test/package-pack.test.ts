import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../src/service/index.js";
import { FIXTURES } from "./helpers/flow.js";
import { tempDir } from "./helpers/temp-dir.js";

// The package as a user meets it: packed from a checkout that has never been built (prepack must build), installed
// from the tarball into a fresh project (its dependencies from the registry), then its CLI run and its types
// compiled against. The checkout is a copy of this tree's tracked and unignored files, so the build here never
// rewrites the dist/ other test files are running; node_modules is linked, not installed again.
const ROOT = new URL("..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

const root = tempDir("evalshard-pack-");
const checkout = join(root, "checkout");
const project = join(root, "project");
let packed: { filename: string; entryCount: number; size: number; unpackedSize: number; files: { path: string }[] };
let installSeconds = 0;

function sh(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(() => {
  const files = sh("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], ROOT).split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)));
  for (const file of files) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(checkout, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"));
  expect(existsSync(join(checkout, "dist"))).toBe(false);

  // --json's report goes to stdout; the build's output (prepack) to stderr.
  [packed] = JSON.parse(sh("npm", ["pack", "--pack-destination", root, "--json"], checkout));

  mkdirSync(project);
  // As a user's project, nothing approved in allowScripts: the package alone, timed. The type check below runs this
  // checkout's TypeScript and Node types (as test/readme-snippets.test.ts does), not a second install of them.
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  const t0 = performance.now();
  sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(root, packed.filename)], project);
  installSeconds = (performance.now() - t0) / 1000;
}, 900_000);

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ seed: 7, runs: 40 });
});
afterAll(() => emulator.close());

/** Runs the installed CLI without blocking this process (the emulator answers from it). */
function evalshard(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(join(project, "node_modules/.bin/evalshard"), args, { cwd: project, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

describe("the packed package", () => {
  it("holds the build, and no source map (none would resolve: src/ is not shipped)", () => {
    const paths = packed.files.map((f) => f.path);
    for (const path of ["dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "dist/engines/parallel/wasm/scan.wasm", "package.json", "README.md", "LICENSE"]) expect(paths, path).toContain(path);
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    expect(paths.filter((p) => p.startsWith("src/") || p.startsWith("test/"))).toEqual([]);
  });

  it("runs its CLI from node_modules/.bin", () => {
    expect(sh(join(project, "node_modules/.bin/evalshard"), ["--version"], project).trim()).toBe(pkg.version);
  });

  it("converts a fixture file with the installed CLI", () => {
    const out = join(project, "out");
    sh(join(project, "node_modules/.bin/evalshard"), ["convert", `${FIXTURES}records/sft-valid.ndjson`, "--out", out], project);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { records_out: number };
    expect(manifest.records_out).toBeGreaterThan(0);
    expect(readdirSync(join(out, "data")).some((f) => f.endsWith(".parquet"))).toBe(true);
  });

  it("runs a shipped pipeline by name against the bundled emulator", { timeout: 120_000 }, async () => {
    const env = { ...process.env, EVAL_BASE_URL: emulator.url, EVAL_OWNER_TOKEN: emulator.ownerToken, EVALSHARD_OUT: join(project, "nightly") };
    const r = await evalshard(["run", "nightly-sft", "--json"], env);
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(project, "nightly/nightly-sft/manifest.json"), "utf8")) as { records_out: number };
    expect(manifest.records_out).toBeGreaterThan(0);
    const unknown = await evalshard(["run", "nightly-nothing"], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("nightly-dpo, nightly-rl, nightly-sft");
  });

  it("installs without running any install script or compiling anything", () => {
    const withScripts = installedPackages(join(project, "node_modules")).filter((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: Record<string, string>; gypfile?: boolean };
      return ["preinstall", "install", "postinstall"].some((name) => manifest.scripts?.[name] !== undefined) || manifest.gypfile === true || existsSync(join(dir, "binding.gyp"));
    });
    expect(withScripts.map((dir) => dir.slice(project.length + 1))).toEqual([]);
    console.info(`install of the tarball into an empty project: ${installSeconds.toFixed(1)} s (target < 30 s); tarball ${(packed.size / 1e6).toFixed(2)} MB`);
    expect(packed.size).toBeLessThan(30e6);
  });

  it("type-checks an import of its library", { timeout: 300_000 }, () => {
    writeFileSync(
      join(project, "use.ts"),
      [
        'import { convert, type Manifest } from "evalshard";',
        "export async function run(input: string): Promise<Manifest> {",
        '  const { manifest } = await convert({ inputs: [input], out: "datasets/sft" });',
        "  return manifest;",
        "}",
        "// A wrong call must fail, or the check would pass on types that say nothing:",
        "// @ts-expect-error inputs is a list of paths",
        'void convert({ inputs: 1, out: "x" });',
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")], noEmit: true }, files: ["use.ts"] }),
    );
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: project, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it("installs under 30 MiB with its dependencies (no DuckDB; the AWS SDK only on demand)", () => {
    const sizes = closureSizes(join(project, "node_modules/evalshard"));
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const biggest = [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, kib]) => `${name} ${(kib / 1024).toFixed(1)}`);
    console.info(`tarball: ${packed.entryCount} files, ${packed.size} bytes (${packed.unpackedSize} unpacked); installed: ${sizes.size} packages, ${(total / 1024).toFixed(1)} MiB (MiB: ${biggest.join(", ")})`);
    expect([...sizes.keys()].filter((path) => /(^|\/)@(duckdb|aws-sdk)\//.test(path))).toEqual([]);
    expect(total / 1024).toBeLessThan(30);
  });

  it("asks for the AWS SDK, an optional peer dependency, when told to write to s3://", () => {
    const r = spawnSync(join(project, "node_modules/.bin/evalshard"), ["convert", `${FIXTURES}records/sft-valid.ndjson`, "--out", "s3://bucket/prefix"], { cwd: project, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain("npm install @aws-sdk/client-s3 @aws-sdk/lib-storage");
  });
});

/** KiB on disk of a package and every package it depends on (dependencies and optional ones), as npm laid them out. */
function closureSizes(dir: string, sizes = new Map<string, number>()): Map<string, number> {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  // Keyed by folder: two versions of one package both count.
  const key = dir.slice(join(project, "node_modules/").length);
  if (sizes.has(key)) return sizes;
  sizes.set(key, Number(execFileSync("du", ["-sk", "--exclude=node_modules", dir], { encoding: "utf8" }).split("\t")[0]));
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    // Node's resolution: the nearest node_modules up from the dependent.
    let at = dir;
    while (!existsSync(join(at, "node_modules", name)) && at !== project) at = dirname(at);
    const found = join(at, "node_modules", name);
    if (existsSync(found)) closureSizes(found, sizes);
  }
  return sizes;
}

/** Every package folder under `modules`, scoped ones and nested node_modules included. */
function installedPackages(modules: string): string[] {
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((name) => {
    if (name.startsWith(".")) return [];
    const dir = join(modules, name);
    if (name.startsWith("@")) return installedPackages(dir);
    return existsSync(join(dir, "package.json")) ? [dir, ...installedPackages(join(dir, "node_modules"))] : [];
  });
}
