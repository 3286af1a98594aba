import type { ColumnBuffer } from "./column-buffer.js";
import type { Leaf, PlanNode } from "./column-plan.js";
import type { RowGroupBuilder } from "./row-group-builder.js";

/**
 * The rows of a row group being built, as the objects {@link shredRecord} would shred into it: the Dremel
 * assembly of its leaves along its plan. A null or absent value is null; an int64 a number (a bigint beyond
 * 2^53); a JSON leaf its text parsed; a map an object. What a writer wrote straight into leaves, read back as rows.
 */
export function assembleRows(builder: RowGroupBuilder): Record<string, unknown>[] {
  const cursors = builder.columns.map((column) => new Cursor(column));
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < builder.rows; r++) {
    const row: Record<string, unknown> = {};
    for (const { name, node } of builder.plan.fields) row[name] = assemble(node, cursors);
    rows.push(row);
  }
  return rows;
}

function assemble(node: PlanNode, cursors: readonly Cursor[]): unknown {
  if (node.kind === "leaf") return (cursors[node.leaf.index] as Cursor).next();
  const first = cursors[node.leaves[0] as number] as Cursor;
  const def = first.def();
  if (def < node.def) return skip(node.leaves, cursors, null);
  switch (node.kind) {
    case "struct": {
      const object: Record<string, unknown> = {};
      for (const { name, node: child } of node.fields) object[name] = assemble(child, cursors);
      return object;
    }
    case "list": {
      if (def === node.def) return skip(node.leaves, cursors, []);
      const items: unknown[] = [];
      do items.push(assemble(node.item, cursors));
      while (first.continues(node.rep));
      return items;
    }
    case "map": {
      const object: Record<string, unknown> = {};
      if (def === node.def) return skip(node.leaves, cursors, object);
      do {
        const entry = assemble(node.entry, cursors) as { key: string; value: unknown };
        object[entry.key] = entry.value;
      } while (first.continues(node.rep));
      return object;
    }
  }
}

/** A null or empty value: one entry without a value at each leaf below. */
function skip<T>(leaves: readonly number[], cursors: readonly Cursor[], value: T): T {
  for (const i of leaves) (cursors[i] as Cursor).next();
  return value;
}

/** A leaf's entries read in order: its levels, and its PLAIN values. */
class Cursor {
  readonly #column: ColumnBuffer;
  readonly #leaf: Leaf;
  #entry = 0;
  #at = 0;

  constructor(column: ColumnBuffer) {
    this.#column = column;
    this.#leaf = column.leaf;
  }

  /** The definition level of the next entry. */
  def(): number {
    return this.#leaf.maxDef === 0 ? 0 : (this.#column.defs[this.#entry] as number);
  }

  /** Whether there is a next entry and it repeats at level `rep` (another item of the same list). */
  continues(rep: number): boolean {
    return this.#entry < this.#column.entries && this.#column.reps[this.#entry] === rep;
  }

  /** The next entry's value, null when it has none. */
  next(): unknown {
    const present = this.def() === this.#leaf.maxDef;
    this.#entry++;
    if (!present) return null;
    const { values, view } = this.#column;
    const at = this.#at;
    switch (this.#leaf.type) {
      case "string":
      case "json": {
        const length = view.getUint32(at, true);
        this.#at = at + 4 + length;
        const text = values.toString("utf8", at + 4, at + 4 + length);
        return this.#leaf.type === "json" ? (JSON.parse(text) as unknown) : text;
      }
      case "int64": {
        this.#at = at + 8;
        const value = view.getBigInt64(at, true);
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
      }
      case "float64":
        this.#at = at + 8;
        return view.getFloat64(at, true);
      case "bool":
        this.#at = at + 1;
        return values[at] !== 0;
    }
  }
}
