import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 20: `validate` says what convert's publish guards would decide (stream errors, min records, quarantined
// share), with convert's exit code, and prints the participation-gating warning on stderr.
const root = tempDir("evalshard-validate-guards-");
const input = (name: string, lines: readonly string[]) => {
  const path = join(root, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
};
const good = Array.from({ length: 4 }, (_, i) => JSON.stringify(sftRecord({ run_id: `run_${i}` })));
type Result = { guards: { tripped: { guard: string; limit: number; actual: number }[]; would_publish: boolean }; warnings: string[] };

describe("validate gives the publish guards' verdict", { timeout: 60_000 }, () => {
  it("clean input: nothing tripped, exit 0; the participation-gating warning on stderr", async () => {
    const r = await runCli(["validate", input("good.ndjson", good), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Result).guards).toEqual({ tripped: [], would_publish: true });
    expect(r.stderr).toMatch(/participation_gated: no scorecards were given/);
  });

  it("a partial_stream line trips --max-stream-errors (default 0): exit 6, as convert would", async () => {
    const r = await runCli(["validate", input("cut.ndjson", [...good, '{"error":"partial_stream","run_index":3}']), "--json"]);
    expect(r.code, r.stderr).toBe(6);
    expect((JSON.parse(r.stdout) as Result).guards).toEqual({ tripped: [{ guard: "max_stream_errors", limit: 0, actual: 1 }], would_publish: false });
    expect(r.stderr).toMatch(/convert would not publish this: .*stream/);
    expect((await runCli(["validate", input("cut2.ndjson", [...good, '{"error":"partial_stream","run_index":3}']), "--max-stream-errors", "1"])).code).toBe(0);
  });

  it("--min-records over what would be written: exit 7", async () => {
    const r = await runCli(["validate", input("few.ndjson", good), "--min-records", "5", "--json"]);
    expect(r.code, r.stderr).toBe(7);
    expect((JSON.parse(r.stdout) as Result).guards.tripped).toEqual([{ guard: "min_records", limit: 5, actual: 4 }]);
  });

  it("0, the default of --max-stream-errors and --min-records, given explicitly: the default's verdict; -1 refused, naming it", async () => {
    const cut = input("cut0.ndjson", [...good, '{"error":"partial_stream","run_index":3}']);
    const r = await runCli(["validate", cut, "--max-stream-errors", "0", "--min-records", "0", "--json"]);
    expect(r.code, r.stderr).toBe(6);
    expect((JSON.parse(r.stdout) as Result).guards.tripped).toEqual([{ guard: "max_stream_errors", limit: 0, actual: 1 }]);
    for (const flag of ["--max-stream-errors", "--min-records"]) {
      const refused = await runCli(["validate", cut, flag, "-1"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Expected ${flag} to be a whole number from 0 and up, got "-1"`);
    }
  });
});
