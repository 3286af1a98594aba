import { recordStripper } from "../../../stages/strip.js";
import { parsePath } from "../../../schema/field-path.js";
import { TextWalk } from "../../../views/record-text-audit.js";
import { sanitizeText } from "../../../views/sanitize-text.js";
import { INJECTION_PATTERNS, scanInjection } from "../../../views/scan-injection.js";
import type { InjectionPattern } from "../../../views/scan-injection.js";
import type { PathAudit } from "../../../views/text-audit.js";
import type { TextAuditSetup } from "./text-audit-setup.js";

const PATTERNS = Object.keys(INJECTION_PATTERNS) as InjectionPattern[];
/** Per path and record: texts, changed, injected, then one count per pattern. */
const WIDTH = 3 + PATTERNS.length;

/** A unit's records' counts, one record after another ({@link WIDTH} per path each). */
interface UnitCounts {
  counts: Int32Array;
  records: number;
}

/**
 * A worker's side of a plain run's text scan (src/views/record-text-audit.ts, which the stages engine runs):
 * the same texts, sanitizer and patterns, over each kept record's skeleton (or the slow path's stripped
 * record). Counts are held per record, in plain numbers, until main has decided dedup: a record that loses
 * to another copy counts for nothing, as in the stages engine, where the scan follows dedup.
 */
export class UnitTextAudit {
  readonly #paths: readonly string[];
  readonly #walk: TextWalk;
  readonly #stride: number;
  /** The policy's rules for the scanned paths, for skeletons (the slow path's records come stripped). */
  readonly #strip: ((record: Record<string, unknown>) => void) | null;
  readonly #units = new Map<number, UnitCounts>();
  #at: Int32Array = new Int32Array(0);
  #base = 0;
  readonly #visit = (path: number, text: string): void => {
    const at = this.#base + path * WIDTH;
    const counts = this.#at;
    bump(counts, at);
    if (sanitizeText(text).changed) bump(counts, at + 1);
    const patterns = scanInjection(text);
    if (patterns.length === 0) return;
    bump(counts, at + 2);
    for (const p of patterns) bump(counts, at + 3 + PATTERNS.indexOf(p));
  };

  constructor(setup: TextAuditSetup) {
    this.#paths = setup.paths;
    this.#walk = new TextWalk(setup.paths);
    this.#stride = setup.paths.length * WIDTH;
    const rules = setup.rules.map((r) => ({ ...r, steps: parsePath(r.path) }));
    this.#strip = rules.length === 0 ? null : recordStripper({ rules, summary: {} });
  }

  /** The skeleton of the next kept record of `unit` (the fast parser's, holding `setup.reads`); changed in place. */
  addSkeleton(unit: number, skeleton: Record<string, unknown>): void {
    this.#strip?.(skeleton);
    this.addRecord(unit, skeleton);
  }

  /** The next kept record of `unit`, stripped. */
  addRecord(unit: number, record: Readonly<Record<string, unknown>>): void {
    let u = this.#units.get(unit);
    if (u === undefined) this.#units.set(unit, (u = { counts: new Int32Array(this.#stride * 256), records: 0 }));
    if ((u.records + 1) * this.#stride > u.counts.length) {
      const grown = new Int32Array(u.counts.length * 2);
      grown.set(u.counts);
      u.counts = grown;
    }
    this.#at = u.counts;
    this.#base = u.records++ * this.#stride;
    this.#walk.run(record, this.#visit);
  }

  /** The counts of the unit's records main kept (`keep`: 1 per record added, in order); forgets the unit. */
  settle(unit: number, keep: Uint8Array): Record<string, PathAudit> {
    const u = this.#units.get(unit) ?? { counts: new Int32Array(0), records: 0 };
    this.#units.delete(unit);
    if (u.records !== keep.length) throw new Error(`Internal error: unit ${unit} has ${u.records} scanned records, main decided ${keep.length}`);
    const sums = new Float64Array(this.#stride);
    for (let r = 0; r < u.records; r++) {
      if (keep[r] !== 1) continue;
      const base = r * this.#stride;
      for (let k = 0; k < this.#stride; k++) sums[k] = (sums[k] as number) + (u.counts[base + k] as number);
    }
    const summary: Record<string, PathAudit> = {};
    this.#paths.forEach((path, i) => {
      const at = i * WIDTH;
      if (sums[at] === 0) return;
      const patterns: Partial<Record<InjectionPattern, number>> = {};
      PATTERNS.forEach((p, k) => {
        const n = sums[at + 3 + k] as number;
        if (n > 0) patterns[p] = n;
      });
      summary[path] = { values: sums[at] as number, changed: sums[at + 1] as number, injected: sums[at + 2] as number, patterns };
    });
    return summary;
  }
}

function bump(counts: Int32Array, at: number): void {
  counts[at] = (counts[at] as number) + 1;
}
