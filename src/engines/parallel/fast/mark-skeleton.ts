import { parsePath } from "../../../schema/field-path.js";
import { BOOLEAN, CHOICE, JSON_VALUE, kindName, LIST, MAP, NUMBER, STRING, STRUCT } from "./schema-node.js";
import type { SchemaNode, SkeletonBuilder } from "./schema-node.js";

/** The paths the rules read, as a tree: by field name, `[]` for list items, `*` for map values; `all` where one ends. */
interface Reads {
  all: boolean;
  readonly next: Map<string, Reads>;
}

/**
 * Decides which values the skeleton carries. With `reads` (paths in field-path syntax: what the format's
 * `facts` and `check` read), just those values, whatever they are, and everything below a path that ends at
 * a struct or list (JSON-typed values only when named themselves). Without, everything but JSON-typed values, free-text strings inside lists and the text
 * the spec calls untrusted (enum and literal strings stay everywhere). A struct, list or map is kept when
 * something below it is. What a policy drops from the output stays when the rules read it (`run_id`, say).
 * Every value in the skeleton is built into an object per record (SFT's `coaching.guidance`, ~600 bytes in
 * most records, was once decoded into a string per record for nothing). Returns whether the node is kept.
 */
export function markSkeleton(node: SchemaNode, reads?: readonly string[], asBytes: readonly string[] = []): boolean {
  const kept = mark(node, false, false, reads === undefined ? null : readsOf(reads), "");
  for (const path of asBytes) markBytes(node, path);
  return kept;
}

/**
 * The string at `path` (one of the reads) goes into the skeleton as its UTF-8 bytes: for the one view that
 * writes such texts as they are when its byte check clears them (`rl-steps`' window texts; VIEW_BYTE_READS).
 */
function markBytes(root: SchemaNode, path: string): void {
  let node = root;
  for (const step of parsePath(path)) {
    const next = step.kind === "field" ? node.fields.find((f) => f.name === step.name)?.node : node.item;
    if (next === undefined || next === null) throw new Error(`Internal error: ${path} is not in the schema`);
    node = next;
  }
  if (node.kind !== STRING || !node.skeleton) throw new Error(`Internal error: ${path}, taken as bytes, is not a string the skeleton holds`);
  node.asBytes = true;
}

function readsOf(paths: readonly string[]): Reads {
  const root: Reads = { all: false, next: new Map() };
  for (const path of paths) {
    let at = root;
    for (const step of parsePath(path)) {
      const key = step.kind === "field" ? step.name : step.kind === "items" ? "[]" : "*";
      let next = at.next.get(key);
      if (next === undefined) at.next.set(key, (next = { all: false, next: new Map() }));
      at = next;
    }
    at.all = true;
  }
  return root;
}

/** `reads`: what is read at or below `node`, or null for everything below (no paths given, or past a path's end). */
function mark(node: SchemaNode, inList: boolean, untrusted: boolean, reads: Reads | null, path: string): boolean {
  const named = reads?.all === true;
  const below = named ? null : reads;
  if (below !== null && node.kind !== STRUCT && node.kind !== LIST && node.kind !== MAP) {
    const key = [...below.next.keys()][0] as string;
    throw new Error(`The rules read ${path}${key === "[]" ? key : `.${key}`}, but ${path} holds a ${kindName(node.kind)}`);
  }
  const step = (key: string): Reads | null | undefined => (below === null ? null : below.next.get(key));
  switch (node.kind) {
    case STRING:
      // Strings in lists too: the rules read some (DPO pairs' `alignment` and `content`).
      node.skeleton = named || (reads === null && !untrusted);
      break;
    case CHOICE:
    case NUMBER:
    case BOOLEAN:
      node.skeleton = true;
      break;
    case JSON_VALUE:
      // In the skeleton only when named (a training view's `observation`), as its bytes (a `Utf8Range`, src/views/utf8-range.ts).
      node.skeleton = named;
      break;
    case STRUCT: {
      if (below !== null) {
        for (const key of below.next.keys()) {
          if (!node.fields.some((f) => f.name === key)) throw new Error(`The rules read ${path === "" ? key : `${path}.${key}`}, which the schema does not have`);
        }
      }
      let any = false;
      for (const f of node.fields) {
        const next = step(f.name);
        if (next !== undefined) any = mark(f.node, inList, f.untrusted, next, path === "" ? f.name : `${path}.${f.name}`) || any;
      }
      node.skeleton = any;
      if (any) {
        node.slots = node.fields.map(() => undefined);
        node.build = skeletonBuilder(node);
        primeBuilder(node, node.build);
      }
      break;
    }
    case LIST: {
      const next = step("[]");
      node.skeleton = next !== undefined && mark(node.item as SchemaNode, true, false, next, `${path}[]`);
      break;
    }
    case MAP: {
      const next = step("*");
      node.skeleton = next !== undefined && mark(node.item as SchemaNode, inList, false, next, `${path}.*`);
      break;
    }
  }
  return node.skeleton;
}

/**
 * A function returning an object literal with the struct's skeleton fields: one fixed object shape per
 * struct, not keys added to `{}` one by one (docs/decisions.md "hot code shape", one shape). It then
 * clears the slots of optional fields, which the next object of this struct may lack; an absent optional
 * field comes out as `undefined`.
 */
function skeletonBuilder(node: SchemaNode): SkeletonBuilder {
  const members = node.fields.flatMap((f, k) => (f.node.skeleton ? [`${JSON.stringify(f.name)}: slots[${k}]`] : []));
  const clears = node.fields.flatMap((f, k) => (f.node.skeleton && f.optional ? [`slots[${k}] = undefined;`] : []));
  // Generated code, but only from the schema's field names, each quoted by JSON.stringify.
  return new Function("slots", `const o = { ${members.join(", ")} }; ${clears.join(" ")} return o;`) as SkeletonBuilder;
}

/**
 * Each struct's last primed object, kept as long as its node, so the shape the priming made is not
 * collected (docs/decisions.md "hot code shape", cold paths).
 */
const primed = new WeakMap<SchemaNode, object>();

/**
 * Builds one object of numbers, then one of nulls: the literal's fields then hold any value from the start
 * (docs/decisions.md "hot code shape", changing fields).
 */
function primeBuilder(node: SchemaNode, build: SkeletonBuilder): void {
  build(Array.from({ length: node.fields.length }, () => 0));
  primed.set(node, build(Array.from({ length: node.fields.length }, () => null)));
}
