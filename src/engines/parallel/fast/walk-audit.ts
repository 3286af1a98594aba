/**
 * What the wasm walk found of one line's audited values (schema-node.ts's `auditSlot`), for the plain run's
 * text audit (run/unit-text-audit.ts): per slot, how many texts its values hold (a text value is one; a JSON
 * value, its strings that are not keys), or -1 for a JSON value the walk could not tell; a line the wasm walk
 * did not take has no answers (see `take`). The audit reads such a row's values from their column, as it reads
 * every value the walk does not audit. The texts that may matter come decoded, for the audit's exact check once
 * the row is kept.
 */
export class WalkAudit {
  readonly counts: Float64Array;
  /** The decoded literals that may matter, and the slot of each. */
  readonly texts: string[] = [];
  readonly slots: number[] = [];

  constructor(slots: number) {
    this.counts = new Float64Array(slots);
  }

  /** The wasm walk vouched for a line and answers for it (until the answers are taken, see {@link take}). */
  answered = false;

  /** The wasm walk vouched for a line: it answers for every slot (a slot without values holds none). */
  walked(): void {
    const counts = this.counts;
    for (let k = 0; k < counts.length; k++) counts[k] = 0;
    // Only when there is something to drop: setting an array's length is a call into the runtime.
    if (this.texts.length > 0) {
      this.texts.length = 0;
      this.slots.length = 0;
    }
    this.answered = true;
  }

  /** The line's answers, once: true when the wasm walk took the line (else its row's values are read from the columns). */
  take(): boolean {
    const answered = this.answered;
    this.answered = false;
    return answered;
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
