import { describe, expect, it } from "vitest";
import { convertBothCli } from "../helpers/convert-both-cli.js";
import { sftRecord } from "../helpers/records.js";

// Issue 20: identical key and scorecard version with different content was silently a `duplicate`. Now it is a
// `conflicting_duplicate`, counted apart, with a manifest warning; the first copy in input order is kept, in both
// engines (docs/rules.md).
const line = (r: object) => JSON.stringify(r);
const actions = (n: number, overrides: Parameters<typeof sftRecord>[0] = {}) => {
  const base = sftRecord(overrides);
  return { ...base, scores: { ...(base.scores as NonNullable<typeof base.scores>), outcomes: { met_count: 1, total_checks: 4, total_actions: n } } };
};
const totalActions = (row: Record<string, unknown>) => Number((row.scores as { outcomes: { total_actions: bigint } }).outcomes.total_actions);

describe("conflicting_duplicate: same key and scorecard version, other content", { timeout: 120_000 }, () => {
  it("is counted apart from a byte-identical duplicate, and the first copy in input order is kept", async () => {
    const first = line(actions(12));
    const o = await convertBothCli([first, first, line(actions(13)), line(actions(5, { run_id: "other" }))]);
    expect(o.manifest.dropped).toEqual({ duplicate: 1, conflicting_duplicate: 1 });
    expect(o.manifest.records_out).toBe(2);
    expect(o.rows.map(totalActions)).toEqual([12, 5]);
    expect(o.manifest.warnings).toContainEqual(expect.stringMatching(/1 record\(s\).*conflicting_duplicate.*first copy in input order/));
  });

  it("the other order keeps the other copy: the rule is input order, stated in the warning", async () => {
    const o = await convertBothCli([line(actions(13)), line(actions(12)), line(actions(12))]);
    expect(o.manifest.dropped).toEqual({ conflicting_duplicate: 2 });
    expect(o.rows.map(totalActions)).toEqual([13]);
  });

  it("a higher scorecard version supersedes every copy, conflicting or not", async () => {
    const o = await convertBothCli([line(actions(12)), line(actions(13)), line(actions(12)), line(actions(14, { scorecard_version: 4 }))]);
    expect(o.manifest.dropped).toEqual({ superseded: 3 });
    expect(o.rows.map(totalActions)).toEqual([14]);
    expect(o.manifest.warnings).not.toContainEqual(expect.stringMatching(/conflicting_duplicate/));
  });

  it("across the parallel engine's units, with a later higher version reclassifying them (a second pass)", async () => {
    // ~9 MiB: more than one unit (7 MiB), so the conflicting copies are decided before the higher version arrives.
    const pad = "x".repeat(2000);
    const n = 3000;
    const record = (i: number, acts: number, version = 3) => line({ ...actions(acts, { run_id: `run_${i}`, scorecard_version: version }), padding: pad });
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(record(i, 12));
    for (let i = 0; i < n; i++) lines.push(record(i, i % 3 === 0 ? 13 : 12));
    for (let i = 0; i < n; i += 2) lines.push(record(i, 20, 4));
    const o = await convertBothCli(lines, ["--format", "sft"]);
    const conflicts = Math.ceil(n / 3);
    // Keys with a v4 copy (even i): both v3 copies superseded; odd keys keep their first v3 copy.
    const odd = Math.floor(n / 2);
    const oddConflicts = [...Array(n).keys()].filter((i) => i % 2 === 1 && i % 3 === 0).length;
    expect(o.manifest.dropped).toEqual({ superseded: 2 * (n - odd), conflicting_duplicate: oddConflicts, duplicate: odd - oddConflicts });
    expect(conflicts).toBeGreaterThan(oddConflicts);
    expect(o.manifest.records_out).toBe(n);
  });
});
