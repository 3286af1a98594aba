import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PYTHON } from "./helpers/python.js";
import { tempDir } from "./helpers/temp-dir.js";

// The tests' Python set-up on a PEP 668 machine (Debian, Ubuntu): the `python3` on PATH here is a stand-in that
// logs each call and refuses pip as an externally managed interpreter does, while `-m venv` works. The script
// must create its venv with it and then install only with the venv's own pip.
const SCRIPT = fileURLToPath(new URL("../scripts/ensure-python-venv.mjs", import.meta.url));
const realPython = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

const root = tempDir("evalshard-venv-");
const bin = join(root, "bin");
const log = join(root, "system-python.log");
const venv = join(root, "venv");
const requirements = join(root, "requirements.txt");

execFileSync("mkdir", ["-p", bin]);
writeFileSync(
  join(bin, "python3"),
  `#!/bin/sh
echo "$*" >> "${log}"
case "$*" in
  *pip*) echo "error: externally-managed-environment" >&2; exit 1 ;;
esac
exec "${realPython}" "$@"
`,
);
chmodSync(join(bin, "python3"), 0o755);
// pip itself: already in every venv, so the install needs no index and takes a second.
writeFileSync(requirements, "# only what a fresh venv has\npip\n");

const setUp = () =>
  spawnSync(process.execPath, [SCRIPT, "--venv", venv, "--requirements", requirements], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, EVALSHARD_PYTHON: "" },
  });

describe("scripts/ensure-python-venv.mjs", () => {
  it("creates the venv with the system python3 and installs with the venv's pip only", () => {
    const r = setUp();
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(venv, "bin", "python"))).toBe(true);
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls).toEqual([`-m venv ${venv}`]);
    expect(r.stderr).toContain("installing the tests' Python packages");
    expect(readFileSync(join(venv, ".requirements.sha256"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it("is a no-op when the venv already holds the requirements", () => {
    const stamp = statSync(join(venv, ".requirements.sha256")).mtimeMs;
    const r = setUp();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(statSync(join(venv, ".requirements.sha256")).mtimeMs).toBe(stamp);
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("every pip call in the script goes through the venv's interpreter", () => {
    // The script's text, as a second guard: no `python3 -m pip`, no bare `pip`.
    const text = readFileSync(SCRIPT, "utf8");
    const spawns = [...text.matchAll(/run\(([^,]+), \[([^\]]*)\]/g)].map((m) => [m[1], m[2]]);
    expect(spawns).toEqual([
      ["base", `"-m", "venv", venv`],
      ["python", `"-m", "pip", "install", "--quiet", "--retries", "0", ...files`],
    ]);
  });

  // The real thing where the machine has it: Debian's own /usr/bin/python3, which refuses `pip install` (PEP 668).
  const managed = spawnSync("/usr/bin/python3", ["-c", "import os, sysconfig; print(os.path.exists(os.path.join(sysconfig.get_path('stdlib'), 'EXTERNALLY-MANAGED')))"], { encoding: "utf8" });
  it.skipIf(managed.stdout?.trim() !== "True")("works with an externally managed (PEP 668) system Python", () => {
    const other = join(root, "venv-managed");
    const r = spawnSync(process.execPath, [SCRIPT, "--venv", other, "--requirements", requirements], { encoding: "utf8", env: { ...process.env, EVALSHARD_PYTHON: "/usr/bin/python3" } });
    expect(r.status, r.stderr).toBe(0);
    expect(execFileSync(join(other, "bin", "python"), ["-c", "import sys; print(sys.prefix != sys.base_prefix)"], { encoding: "utf8" }).trim()).toBe("True");
  });

  it("the tests' interpreter is the project's venv", () => {
    const venv = process.env.EVALSHARD_TEST_VENV ? resolve(process.env.EVALSHARD_TEST_VENV) : fileURLToPath(new URL("../.venv", import.meta.url));
    expect(PYTHON).toBe(join(venv, "bin", "python"));
  });
});
