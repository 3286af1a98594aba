import { BOOLEAN, CHOICE, JSON_VALUE, LIST, MAP, NUMBER, STRING, STRUCT } from "./schema-node.js";
import type { SchemaNode, SkeletonBuilder } from "./schema-node.js";

/**
 * Decides which values the skeleton carries: everything but JSON-typed values, free-text strings inside
 * lists and the text the spec calls untrusted (enum and literal strings stay everywhere); a struct, list or
 * map is kept when something below it is. Those are the bulk of a record, and no `facts` or `check` reads
 * them (SFT's `coaching.guidance`, ~600 bytes in most records, was decoded into a string per record for
 * nothing). What a policy drops from the output stays when the rules may read it (`run_id`, say).
 * Returns whether the node is kept.
 */
export function markSkeleton(node: SchemaNode, inList = false, untrusted = false): boolean {
  switch (node.kind) {
    case STRING:
      node.skeleton = !inList && !untrusted;
      break;
    case CHOICE:
    case NUMBER:
    case BOOLEAN:
      node.skeleton = true;
      break;
    case JSON_VALUE:
      node.skeleton = false;
      break;
    case STRUCT: {
      let any = false;
      for (const f of node.fields) any = markSkeleton(f.node, inList, f.untrusted) || any;
      node.skeleton = any;
      if (any) {
        node.slots = node.fields.map(() => undefined);
        node.build = skeletonBuilder(node);
        primeBuilder(node.build, node.fields.length);
      }
      break;
    }
    case LIST:
      node.skeleton = markSkeleton(node.item as SchemaNode, true);
      break;
    case MAP:
      node.skeleton = markSkeleton(node.item as SchemaNode, inList);
      break;
  }
  return node.skeleton;
}

/**
 * A function returning an object literal with the struct's skeleton fields: one fixed object shape per
 * struct, made far faster than by adding keys to `{}` one by one (keyed stores with varying names). It
 * then clears the slots of optional fields, which the next object of this struct may lack; an absent
 * optional field comes out as `undefined`.
 */
function skeletonBuilder(node: SchemaNode): SkeletonBuilder {
  const members = node.fields.flatMap((f, k) => (f.node.skeleton ? [`${JSON.stringify(f.name)}: slots[${k}]`] : []));
  const clears = node.fields.flatMap((f, k) => (f.node.skeleton && f.optional ? [`slots[${k}] = undefined;`] : []));
  // Generated code, but only from the schema's field names, each quoted by JSON.stringify.
  return new Function("slots", `const o = { ${members.join(", ")} }; ${clears.join(" ")} return o;`) as SkeletonBuilder;
}

/**
 * Builds one object of numbers, then one of nulls: the literal's fields then hold any value from the start.
 * Otherwise a field that had held only objects and null (a nullable number: `terminal_reward`) changed
 * representation on its first small integer, mid-run, deoptimising the builder and every function that
 * read the skeleton (`checkTrajectory`), once per worker.
 */
function primeBuilder(build: SkeletonBuilder, fields: number): void {
  build(Array.from({ length: fields }, () => 0));
  build(Array.from({ length: fields }, () => null));
}
