import type { ColumnBuffer } from "../parquet/column-buffer.js";
import type { ColumnPlan, LeafNode, ListNode, PlanNode } from "../parquet/column-plan.js";
import { shredValue } from "../parquet/shred-record.js";
import type { LeafWriter } from "../parquet/leaf-writer.js";
import type { Utf8Range } from "./utf8-range.js";

/** A row group being built, as a view writes its rows into it: a row begins, then each leaf gets its values. */
export interface RowOut {
  beginRow(): void;
  readonly leaves: readonly LeafWriter[];
  /** The same leaves as their buffers: for what a writer copies rather than writes again (`ColumnBuffer.repeatLast`). */
  readonly columns: readonly ColumnBuffer[];
}

/**
 * The leaves of a view's top-level columns, found by name in the plan its rows are written along: what a
 * view's `write` writes into, entry for entry what `shredRecord` would write for the row object `rows` gives
 * (a null top-level value is a missing entry at level 0, an empty list one at the list's level).
 */
export class LeafColumns {
  readonly #plan: ColumnPlan;

  constructor(plan: ColumnPlan) {
    this.#plan = plan;
  }

  /** The index of the leaf column `name` (a string, number, bool or JSON column). */
  leaf(name: string): number {
    const node = this.#node(name);
    if (node.kind !== "leaf") throw new Error(`Internal error: the view column ${name} is a ${node.kind}, not a leaf`);
    return (node as LeafNode).leaf.index;
  }

  /** The list column `name` of strings: `write` writes a row's list into it. */
  strings(name: string): { write(out: readonly LeafWriter[], items: readonly (string | null)[]): void } {
    const node = this.#node(name);
    if (node.kind !== "list" || node.item.kind !== "leaf") throw new Error(`Internal error: the view column ${name} is not a list of strings`);
    return { write: (out, items) => shredValue(node, items, 0, out) };
  }

  /** The list column `name` of `{role, content}` messages. */
  messages(name: string): MessagesColumn {
    const node = this.#node(name);
    const item = node.kind === "list" ? node.item : null;
    const [role, content] = item?.kind === "struct" ? item.fields : [];
    if (role?.name !== "role" || content?.name !== "content" || role.node.kind !== "leaf" || content.node.kind !== "leaf") throw new Error(`Internal error: the view column ${name} is not a list of messages`);
    return new MessagesColumn(node as ListNode, role.node.leaf.index, content.node.leaf.index);
  }

  #node(name: string): PlanNode {
    const field = this.#plan.fields.find((f) => f.name === name);
    if (field === undefined) throw new Error(`Internal error: the view's plan has no column ${name}`);
    return field.node;
  }
}

/** A top-level `list<struct<role, content>>` column: a message at a time, or none. */
export class MessagesColumn {
  readonly #list: ListNode;
  readonly #role: number;
  readonly #content: number;

  constructor(list: ListNode, role: number, content: number) {
    this.#list = list;
    this.#role = role;
    this.#content = content;
  }

  /** The `i`th message of the row's list. */
  message(out: readonly LeafWriter[], i: number, role: string, content: string): void {
    const rep = i === 0 ? 0 : this.#list.rep;
    (out[this.#role] as LeafWriter).text(role, rep);
    (out[this.#content] as LeafWriter).text(content, rep);
  }

  /** {@link message}, its content given as UTF-8 bytes. */
  messageBytes(out: readonly LeafWriter[], i: number, role: string, content: Utf8Range): void {
    const rep = i === 0 ? 0 : this.#list.rep;
    (out[this.#role] as LeafWriter).text(role, rep);
    (out[this.#content] as LeafWriter).bytes(content.bytes, content.start, content.end, rep);
  }

  /** The row's list is empty. */
  empty(out: readonly LeafWriter[]): void {
    shredValue(this.#list, [], 0, out);
  }
}
