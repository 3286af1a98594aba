import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES } from "./helpers/flow.js";
import { tempDir } from "./helpers/temp-dir.js";

// The package as a user meets it: packed from a checkout that has never been built (prepack must build), installed
// from the tarball into a fresh project (its dependencies from the registry), then its CLI run and its types
// compiled against. The checkout is a copy of this tree's tracked and unignored files, so the build here never
// rewrites the dist/ other test files are running; node_modules is linked, not installed again.
const ROOT = new URL("..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };

const root = tempDir("evalshard-pack-");
const checkout = join(root, "checkout");
const project = join(root, "project");
let packed: { filename: string; entryCount: number; size: number; unpackedSize: number; files: { path: string }[] };

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
  // As a user's project: nothing approved in allowScripts (npm 11 still builds zstd-napi's binding.gyp, and warns).
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(root, packed.filename), `typescript@${pkg.devDependencies.typescript}`, `@types/node@${pkg.devDependencies["@types/node"]}`], project);
}, 900_000);

describe("the packed package", () => {
  it("holds the build, and no source map (none would resolve: src/ is not shipped)", () => {
    const paths = packed.files.map((f) => f.path);
    for (const path of ["dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "dist/engines/parallel/wasm/scan.wasm", "package.json", "README.md"]) expect(paths, path).toContain(path);
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
      JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, types: ["node"], noEmit: true }, files: ["use.ts"] }),
    );
    const r = spawnSync(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: project, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it("reports its size (installed with its dependencies)", () => {
    const du = execFileSync("du", ["-sk", join(project, "node_modules")], { encoding: "utf8" });
    console.info(`tarball: ${packed.entryCount} files, ${packed.size} bytes (${packed.unpackedSize} unpacked); installed node_modules: ${Math.round(Number(du.split("\t")[0]) / 1024)} MiB`);
  });
});
