import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The lockfile is what `npm ci` (CI, Dockerfiles, the README's set-up) installs from: it must agree with
// package.json, list every platform's optional native packages (not only this machine's), and be exactly what
// `npm install` would write, so the README's first command leaves the tree clean. Each check runs in a scratch
// folder holding only the two files, so node_modules here is neither read nor touched. npm asks the registry
// for metadata it has not cached (--prefer-offline: only for what it lacks).
const ROOT = new URL("..", import.meta.url).pathname;
const LOCK = "package-lock.json";

const scratches: string[] = [];
afterAll(() => scratches.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "evalshard-lock-"));
  scratches.push(dir);
  for (const file of ["package.json", LOCK]) copyFileSync(join(ROOT, file), join(dir, file));
  return dir;
}

function npm(npmArgs: string[], cwd: string) {
  return spawnSync("npm", [...npmArgs, "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], { cwd, encoding: "utf8" });
}

// npm 10 does not know the `libc` field npm 11 writes for glibc/musl builds; it reads lockfiles with it and drops
// it when it writes one. Only that difference is forgiven, and only when this npm is older than 11.
function comparable(text: string, npmMajor: number): unknown {
  if (npmMajor >= 11) return text;
  return JSON.parse(text, (key, value) => (key === "libc" ? undefined : value));
}

describe("package-lock.json", () => {
  it("`npm ci` accepts it (npm 11, the machine's)", () => {
    const r = npm(["ci", "--dry-run"], scratch());
    expect(r.status, r.stderr).toBe(0);
  });

  it("`npm ci` accepts it with npm 10", () => {
    const r = spawnSync("npx", ["-y", "npm@10", "ci", "--dry-run", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: scratch(), encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("`npm install` writes it back unchanged (package.json and the lockfile are in sync)", () => {
    const dir = scratch();
    const r = npm(["install", "--package-lock-only"], dir);
    expect(r.status, r.stderr).toBe(0);
    const npmMajor = Number(execFileSync("npm", ["--version"], { encoding: "utf8" }).split(".")[0]);
    expect(comparable(readFileSync(join(dir, LOCK), "utf8"), npmMajor)).toEqual(comparable(readFileSync(join(ROOT, LOCK), "utf8"), npmMajor));
  });

  it("lists the optional native packages of every platform, not only this machine's", () => {
    // `npm install` on one machine once pruned the others' @duckdb/node-bindings-* and `npm ci` refused the file.
    const lock = JSON.parse(readFileSync(join(ROOT, LOCK), "utf8")) as { packages: Record<string, { optionalDependencies?: Record<string, string> }> };
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = path === "" ? `node_modules/${name}` : `${path}/node_modules/${name}`;
        expect(lock.packages[nested] ?? lock.packages[`node_modules/${name}`], `${path} -> ${name}`).toBeDefined();
      }
    }
  });
});
