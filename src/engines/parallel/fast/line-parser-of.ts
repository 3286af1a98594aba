import { columnPlan } from "../../../parquet/column-plan.js";
import type { Field } from "../../../schema/column-type.js";
import { LineParser } from "./line-parser.js";
import { markSkeleton } from "./mark-skeleton.js";
import { SchemaNode, STRING } from "./schema-node.js";

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
  return new LineParser(root, columnPlan(columns), routeBy === undefined ? null : nodeAt(root, routeBy));
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
