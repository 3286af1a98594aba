/**
 * Where the wasm walk hands what it found of a line's audited values (schema-node.ts's `auditSlot`), for the
 * plain run's text audit (run/unit-text-audit.ts; run/audited-rows.ts keeps them with each row): per slot, how
 * many texts its values hold (a text value is one; a JSON value, its strings that are not keys), and the texts
 * that may matter, decoded, for the audit's exact check once the row is kept. A line the wasm walk declines
 * (the slow path's) gets nothing: the audit reads that row's values from their columns,
 * as it reads every value the walk does not audit.
 */
export interface WalkAudit {
  /** The wasm walk vouched for the line: it answers for every slot (a slot without values holds none). */
  walked(): void;
  /** An audited value: `def` 1 + its count of texts, or 0 for a JSON value the walk could not tell (the audit reads the row's values in that slot from the column). */
  value(slot: number, def: number): void;
  /** A text of an audited value that may matter, decoded. */
  flagged(slot: number, text: string): void;
}
