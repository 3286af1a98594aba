/**
 * What the wasm walk found of one line's audited JSON values (schema-node.ts's `auditSlot`), for the plain
 * run's text audit (run/unit-text-audit.ts): per slot, how many strings that are not keys its values hold,
 * or -1 when the walk did not answer (the line went another way, or a value the walk could not tell): the
 * audit then reads that row's values from their column, as it reads every value the walk does not audit.
 * The literals that may matter come decoded, for the audit's exact check once the row is kept.
 */
export class WalkAudit {
  readonly counts: Float64Array;
  /** The decoded literals that may matter, and the slot of each. */
  readonly texts: string[] = [];
  readonly slots: number[] = [];

  constructor(slots: number) {
    this.counts = new Float64Array(slots).fill(-1);
  }

  /** Before a line: nothing answered yet. */
  begin(): void {
    this.counts.fill(-1);
    this.texts.length = 0;
    this.slots.length = 0;
  }

  /** The wasm walk vouched for the line: it answers for every slot (a slot without values holds none). */
  walked(): void {
    this.counts.fill(0);
  }

  /** An audited value's answer on the tape: `def` 1 + its count, or 0 when the walk could not tell. */
  value(slot: number, def: number): void {
    const counts = this.counts;
    const now = counts[slot] as number;
    if (def === 0) counts[slot] = -1;
    else if (now >= 0) counts[slot] = now + def - 1;
  }

  /** A literal of an audited value that may matter, decoded. */
  flagged(slot: number, text: string): void {
    this.texts.push(text);
    this.slots.push(slot);
  }
}
