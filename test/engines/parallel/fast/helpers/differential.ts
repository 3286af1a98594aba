import { expect } from "vitest";
import { compileLineParser } from "../../../../../src/engines/parallel/fast/compile-line-parser.js";
import { scanRegion, WASM_SCAN } from "../../../../../src/engines/parallel/fast/wasm-scan.js";
import type { LineParser } from "../../../../../src/engines/parallel/fast/compile-line-parser.js";
import { SEMANTIC_REASONS } from "../../../../../src/formats/format.js";
import type { Format } from "../../../../../src/formats/format.js";
import { shredRecord } from "../../../../../src/parquet/shred-record.js";
import { resolveUntrustedPolicy } from "../../../../../src/stages/untrusted-policy.js";
import type { UntrustedPolicy } from "../../../../../src/stages/untrusted-policy.js";
import { columnsOf, recorders } from "./recording-writer.js";
import { schemaRecord, slowPath } from "./slow-path.js";

/** A format under a policy, with its compiled parser. */
export interface Subject {
  readonly label: string;
  readonly format: Format;
  readonly policy: UntrustedPolicy;
  readonly parser: LineParser;
  /** Validate with the format forced: for made-up formats, which format detection does not know. */
  readonly forced: boolean;
}

export function subject(format: Format, overrides: Readonly<Record<string, string>> = {}, label = "default", forced = false): Subject {
  const policy = resolveUntrustedPolicy(format, overrides);
  return { label: `${format.name} ${label}`, format, policy, parser: compileLineParser(format, policy), forced };
}

/** Every untrusted path of the format set to `action` (redact only where the path holds text). */
export function allUntrusted(format: Format, action: "keep" | "redact"): Record<string, string> {
  return Object.fromEntries(format.untrustedPaths.map((p) => [p, action]));
}

// Bytes around the line that would mislead a parser reading past either end of it.
const PAD = Buffer.from('"}]\\\t,{"');
let shift = 0;

/** The line inside a larger buffer, at a varying offset (so word alignment varies too). */
function embed(line: string): { buf: Uint8Array; start: number; end: number } {
  const bytes = Buffer.from(line);
  const lead = (shift++ % 5) + PAD.length;
  const whole = new Uint8Array(lead + bytes.length + PAD.length);
  whole.set(PAD, lead - PAD.length);
  whole.set(bytes, lead);
  whole.set(PAD, lead + bytes.length);
  return { buf: whole, start: lead, end: lead + bytes.length };
}

/** A scan-module region, as a worker copies its batches into. */
const REGION = scanRegion(1 << 20);

/**
 * The line in the scan module's memory, followed by a line end as in a batch, then bytes that would mislead
 * a scan reading past it; null when it does not fit.
 */
function inRegion(line: string): { buf: Uint8Array; start: number; end: number } | null {
  const { buf, start, end } = embed(line);
  if (buf.length + 1 > REGION.length) return null;
  REGION.set(buf.subarray(0, end));
  REGION[end] = 0x0a;
  REGION.set(buf.subarray(end), end + 1);
  return { buf: REGION, start, end };
}

/**
 * The parser's answer for a line where a worker's batch holds it (the walk takes it where it lies) must be its
 * answer for the line from elsewhere (copied into the spare line), which {@link differential} checks with zod.
 */
function sameInRegion(s: Subject, line: string, skeleton: Record<string, unknown> | null, out: ReturnType<typeof recorders>): void {
  // Longer than the spare line: declined from elsewhere, walked in the region.
  if (Buffer.byteLength(line) >= WASM_SCAN.walk.spareBytes) return;
  const at = inRegion(line);
  if (at === null) return;
  const batchOut = recorders(s.parser.plan.leaves.length);
  const batchSkeleton = s.parser.parse(at.buf, at.start, at.end, batchOut);
  const where = `${s.label}: ${line.length > 600 ? `${line.slice(0, 600)}…` : line}`;
  expect(batchSkeleton, `skeleton in the scan region (${where})`).toEqual(skeleton);
  const types = s.parser.plan.leaves.map((l) => l.type);
  expect(columnsOf(batchOut, types), `written entries in the scan region (${where})`).toEqual(columnsOf(out, types));
}

/**
 * Runs the fast parser on a line and, when it vouches for it, checks it against the slow path: the slow
 * path accepts the line (or quarantines it only for the fault `check` finds), the written entries equal
 * `shredRecord` of the stripped record, and facts and check of the skeleton equal those of the record.
 * Returns whether the fast parser vouched.
 */
export async function differential(s: Subject, line: string): Promise<boolean> {
  const { buf, start, end } = embed(line);
  const out = recorders(s.parser.plan.leaves.length);
  const skeleton = s.parser.parse(buf, start, end, out);
  sameInRegion(s, line, skeleton, out);
  if (skeleton === null) return false;
  const where = `${s.label}: ${line.length > 600 ? `${line.slice(0, 600)}…` : line}`;
  const slow = await slowPath(s.format, s.policy, line, s.forced);
  if (slow.kind !== "kept") {
    expect(slow, `fast path vouched for a line the slow path did not keep (${where})`).toMatchObject({ kind: "quarantined", reason: expect.stringMatching(new RegExp(`^(${SEMANTIC_REASONS.join("|")})$`)) });
  }
  const { record, stripped, fault } = await schemaRecord(s.format, s.policy, line);
  if (slow.kind === "kept") expect(slow.value.record).toEqual(stripped);
  else if (slow.kind === "quarantined") expect({ reason: slow.reason, detail: slow.detail }).toEqual(fault);
  const expected = recorders(s.parser.plan.leaves.length);
  shredRecord(s.parser.plan, stripped, expected);
  const types = s.parser.plan.leaves.map((l) => l.type);
  expect(columnsOf(out, types), `written entries (${where})`).toEqual(columnsOf(expected, types));
  expect(s.format.facts(skeleton), `facts (${where})`).toEqual(s.format.facts(record));
  expect(s.format.check(skeleton), `check (${where})`).toEqual(fault);
  return true;
}
