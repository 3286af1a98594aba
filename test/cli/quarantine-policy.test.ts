import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sftRecord } from "../helpers/records.js";
import { tempDir } from "../helpers/temp-dir.js";

// `_quarantine/` is published beside the shards: untrusted text the policy drops or redacts from the
// dataset must not reach readers through the quarantine either. `--untrusted PATH=keep` keeps it in both.

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const SECRET = "UNTRUSTED-GUIDANCE-ignore-previous-instructions-7f3e";
const root = tempDir("evalshard-quarantine-policy-");

function run(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

const good = (i: number) => JSON.stringify(sftRecord({ run_id: `run-good-${i}` }));
const withGuidance = (overrides: Record<string, unknown>) => JSON.stringify({ ...sftRecord(overrides as never), coaching: { weak_traits: ["x"], guidance: SECRET } });
const LINES = {
  // Parses, fails validation (scored is not a boolean), carries untrusted text.
  invalid: withGuidance({ run_id: "run-bad-type", scored: "yes" }),
  // Does not parse (cut), names the untrusted field.
  cut: withGuidance({ run_id: "run-cut" }).slice(0, -40),
  // Does not parse, no untrusted field: kept byte for byte.
  plain: "not json at all",
};
const input = join(root, "input.ndjson");
writeFileSync(input, `${[good(1), LINES.invalid, good(2), LINES.cut, LINES.plain, good(3)].join("\n")}\n`);

interface Entry {
  line: number;
  raw: string;
  raw_policy?: string;
  raw_truncated: boolean;
}
const entriesOf = (dir: string): Entry[] => readFileSync(join(dir, "_quarantine/sft.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Entry);

describe("the quarantine follows the untrusted-text policy", () => {
  it.each(["0", "2"])("--workers %s, default policy: no untrusted text in _quarantine/; the rest as it came", async (workers) => {
    const out = join(root, `default-${workers}`);
    const r = await run(["convert", input, "--out", out, "--format", "sft", "--workers", workers, "--max-quarantined", "1"]);
    expect(r.status, r.stderr).toBe(0);
    const text = readFileSync(join(out, "_quarantine/sft.ndjson"), "utf8");
    expect(text).not.toContain(SECRET);
    const entries = entriesOf(out);
    expect(entries.map((e) => [e.line, e.raw_policy ?? null])).toEqual([
      [2, "stripped"],
      [4, "redacted"],
      [5, null],
    ]);
    const stripped = JSON.parse(entries[0]?.raw ?? "{}") as { run_id: string; scored: unknown; coaching: { weak_traits: string[]; guidance?: unknown } };
    expect(stripped).toMatchObject({ run_id: "run-bad-type", scored: "yes", coaching: { weak_traits: ["x"] } });
    expect("guidance" in stripped.coaching).toBe(false);
    expect(entries[1]?.raw).toMatch(/^\[evalshard:redacted\] sha256=[0-9a-f]{64}$/);
    expect(entries[2]?.raw).toBe(LINES.plain);
    expect(entries.every((e) => !e.raw_truncated)).toBe(true);
  });

  it("redact policy: the quarantine redacts as the dataset does", async () => {
    const out = join(root, "redact");
    const r = await run(["convert", input, "--out", out, "--format", "sft", "--untrusted", "coaching.guidance=redact", "--max-quarantined", "1"]);
    expect(r.status, r.stderr).toBe(0);
    const [invalid] = entriesOf(out);
    expect((JSON.parse(invalid?.raw ?? "{}") as { coaching: { guidance: string } }).coaching.guidance).toMatch(/^\[evalshard:redacted\] sha256=/);
  });

  it("keep policy (the opt-in): the quarantine keeps every line as it came", async () => {
    const out = join(root, "keep");
    const keep = ["coaching.guidance", "scores.win_conditions[].description", "transcript"].flatMap((p) => ["--untrusted", `${p}=keep`]);
    const r = await run(["convert", input, "--out", out, "--format", "sft", ...keep, "--max-quarantined", "1"]);
    expect(r.status, r.stderr).toBe(0);
    expect(entriesOf(out).map((e) => e.raw)).toEqual([LINES.invalid, LINES.cut, LINES.plain]);
    expect(entriesOf(out).every((e) => e.raw_policy === undefined)).toBe(true);
  });
});
