import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const root = tempDir("evalshard-demo-");

describe("evalshard demo", () => {
  it("runs the shipped pipelines against the bundled emulator twice, the second night incrementally", async () => {
    const out = join(root, "demo");
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, "demo", "--out", out, "--runs", "120", "--seed", "3"], { env: { PATH: process.env.PATH ?? "" } });
    expect(stdout).toMatch(/night 1 \(emulator epoch 0\)/);
    expect(stdout).toMatch(/night 2 \(emulator epoch 1\)/);
    for (const name of ["nightly-sft", "nightly-rl", "nightly-dpo"]) {
      const manifest = JSON.parse(readFileSync(join(out, name, "manifest.json"), "utf8"));
      expect(manifest.pipeline).toBe(name);
      expect(existsSync(join(out, name, "_state/ledger.ndjson"))).toBe(true);
    }
    expect(stdout).toMatch(/nightly-sft: (published|unchanged) .*\n {2}records in \d+, out \d+; added \d+, replaced \d+, removed \d+, unchanged \d+/);
    // Issue 36: the demo ends with each dataset's report.
    const reports = (/reports \(open in a browser\): (.*)/.exec(stdout)?.[1] ?? "").split(", ");
    expect(reports).toEqual(["nightly-sft", "nightly-rl", "nightly-dpo"].map((n) => join(out, `${n}.report.html`)));
    for (const path of reports) expect(readFileSync(path, "utf8")).toMatch(/<h2>This snapshot<\/h2>[\s\S]*<figcaption>Rows per split/);
    // Issue 38: the load hint names the checkout's venv when there is one (its Python has `datasets`; the
    // system's may not), else says what the Python needs. Looked for as the demo does, from its working directory:
    // not through helpers/python.ts, which would hold this file back until npm test's venv phase ended.
    const hint = /^load one.*: (\S+) -c "import datasets; print\(datasets\.load_dataset\('(.*)', split='train'\)\)"$/m.exec(stdout);
    expect(hint?.[1]).toBe(existsSync(join(".venv", "bin", "python")) ? join(".venv", "bin", "python") : "python3");
    expect(hint?.[2]).toBe(join(out, "nightly-sft"));
    // Cron-style logs: one JSON line per phase on stderr when it is not a terminal.
    const phases = stderr.trim().split("\n").map((l) => JSON.parse(l).phase);
    expect(phases).toContain("published");
  });
});
