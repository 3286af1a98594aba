import type { Buffer } from "node:buffer";
import { columnPlan } from "../../../parquet/column-plan.js";
import type { ColumnPlan } from "../../../parquet/column-plan.js";
import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import type { Field } from "../../../schema/column-type.js";
import { markSkeleton } from "./mark-skeleton.js";
import { primingLines } from "./priming-lines.js";
import { JSON_VALUE, SchemaNode, STRING } from "./schema-node.js";
import { spareLine, WASM_SCAN } from "./wasm-scan.js";
import { WasmWalker } from "./wasm-walker.js";
import type { WalkAudit } from "./walk-audit.js";
import type { RowRoute } from "./row-route.js";

/**
 * A byte-level parser for the lines of one format under one untrusted policy: the schema walk of the thread's
 * scan module (wasm/walk.ts), replayed by {@link WasmWalker}.
 */
export interface LineParser {
  /** `columnPlan(outputColumns(format, policy))`: the leaves `parse` writes, in writer order. */
  readonly plan: ColumnPlan;
  /**
   * Parses bytes `[start, end)` of `buf` (one line, no line end, valid UTF-8 guaranteed by the caller).
   * When the line is certainly a record of the format at exactly its version that zod accepts, writes one
   * row into `out` (the entries `shredRecord` would write for the stripped record; JSON-typed values as
   * their raw text) and returns the record's skeleton: the zod output (before strip) without JSON-typed
   * values, free-text strings inside lists and the text the spec calls untrusted (or, for a parser made with
   * `reads`, with just those paths), absent optional fields as `undefined`; it is what `format.facts` and
   * `format.check` read (the caller runs them; a `check` fault is not the parser's business). Returns null
   * when it cannot vouch for the line, invalid or merely unusual; the caller then discards what was written
   * for this row and runs the slow path. Writers must copy the bytes they are given before returning (they
   * may point into a scratch buffer). Not reentrant: one parser per thread. `audit` gets the answers of the
   * values {@link auditWhileWalking} took, when the walk vouches for the line.
   */
  parse(buf: Uint8Array, start: number, end: number, out: readonly LeafWriter[], audit?: WalkAudit | null): Record<string, unknown> | null;
  /**
   * {@link parse}, writing the row where `route` picks (called once, before anything is written) from the
   * line's string at the parser's `routeBy` path; for a parser made without one, or a line the walk
   * declines, the key is null.
   */
  parseRouted(buf: Uint8Array, start: number, end: number, route: RowRoute): Record<string, unknown> | null;
  /**
   * Of the text and JSON leaves the text audit reads (`leaves`), the ones the wasm walk audits as it walks them
   * (free text and any JSON, written as they are; JSON not in the skeleton), in slot order (see {@link WalkAudit}).
   * Before the first parse.
   */
  auditWhileWalking(leaves: readonly number[]): number[];
  /** Lines made from `line` that take the parser's rarely taken paths, to walk once before real work (see {@link primingLines}). */
  primingLines(line: string): Buffer[];
}

/**
 * The half of `compileLineParser` that runs without zod: a parser from a compiled schema (or a structured
 * clone of one). With `reads`, the skeleton holds just those paths (see {@link markSkeleton}); the strings at
 * `asBytes` (some of the reads) as their UTF-8 bytes where they have no escapes. `routeBy`: the dotted path
 * of a string field, outside any list, whose value {@link LineParser.parseRouted} routes rows by.
 */
export function lineParserOf(schema: SchemaNode, columns: readonly Field[], reads?: readonly string[], asBytes?: readonly string[], routeBy?: string): LineParser {
  const root = revive(schema);
  markSkeleton(root, reads, asBytes);
  root.skeleton = true;
  const wasm = new WasmWalker(root, routeBy === undefined ? null : nodeAt(root, routeBy));
  // A line in this thread's scan memory (a worker's batch) is walked where it lies; any other is copied into its
  // spare line first (null: too long for it, and the slow path takes the line).
  const walkable = (buf: Uint8Array, start: number, end: number): Uint8Array | null => (buf.buffer === WASM_SCAN.buffer ? buf : spareLine(buf.subarray(start, end)));
  return {
    plan: columnPlan(columns),
    parse(buf, start, end, out, audit = null) {
      const line = walkable(buf, start, end);
      if (line === null || !wasm.ready()) return null;
      return line === buf ? wasm.run(buf, start, end, out, audit) : wasm.run(line, 0, line.length, out, audit);
    },
    parseRouted(buf, start, end, route) {
      const line = walkable(buf, start, end);
      if (line === null || !wasm.ready()) {
        route.pick(null);
        return null;
      }
      return line === buf ? wasm.runRouted(buf, start, end, route) : wasm.runRouted(line, 0, line.length, route);
    },
    primingLines: (line) => primingLines(root, line),
    auditWhileWalking(leaves) {
      const taken: number[] = [];
      const visit = (node: SchemaNode): void => {
        const json = node.kind === JSON_VALUE && node.item === null && !node.skeleton;
        if ((json || node.kind === STRING) && node.written && !node.redact && leaves.includes(node.leaf)) node.auditSlot = taken.push(node.leaf) - 1;
        for (const f of node.fields) visit(f.node);
        if (node.item !== null) visit(node.item);
      };
      visit(root);
      return taken;
    },
  };
}

/** The string node at dotted `path` (struct fields only) under `root`. */
function nodeAt(root: SchemaNode, path: string): SchemaNode {
  let node = root;
  for (const name of path.split(".")) {
    const next = node.fields.find((f) => f.name === name)?.node;
    if (next === undefined) throw new Error(`Internal error: no field ${path} to route rows by`);
    node = next;
  }
  if (node.kind !== STRING) throw new Error(`Internal error: ${path}, which rows are routed by, is not a string`);
  return node;
}

/** Gives a cloned tree back its class (one object shape for the walker's property reads). */
function revive(node: SchemaNode): SchemaNode {
  const out = Object.assign(new SchemaNode(node.kind), node);
  out.fields = node.fields.map((f) => ({ ...f, node: revive(f.node) }));
  out.item = node.item === null ? null : revive(node.item);
  return out;
}
