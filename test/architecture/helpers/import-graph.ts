import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** A module's imports: each a path relative to the root (e.g. `formats/sft.ts`). */
export type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Every specifier a module names: `import`, `import type`, `export … from`, and dynamic `import("…")`.
 * `ts.preProcessFile` lists them without type-checking; it does not tell type-only imports apart.
 */
export function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in sources), or null when none exists. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")]) {
    if (candidate.endsWith(".ts") && existsSync(candidate)) return candidate;
  }
  return null;
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFilesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** The import graph of every `.ts` file under `root`; package imports are left out, unresolved relative ones listed. */
export function importGraph(root: string): { graph: ImportGraph; unresolved: string[] } {
  const graph = new Map<string, Set<string>>();
  const unresolved: string[] = [];
  for (const file of tsFilesUnder(root)) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const target = resolveSpecifier(file, specifier);
      if (target === null) unresolved.push(`${relative(root, file)}: ${specifier}`);
      else targets.add(relative(root, target).split("\\").join("/"));
    }
    graph.set(relative(root, file).split("\\").join("/"), targets);
  }
  return { graph, unresolved };
}

/** The top-level folder a file sits in; files directly in the root are the folder ".". */
export function folderOf(file: string): string {
  const slash = file.indexOf("/");
  return slash < 0 ? "." : file.slice(0, slash);
}

/** The graph between folders: an edge for every file import that crosses from one folder into another. */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
  }
  return folders;
}

/** Strongly connected components with a cycle in them (Tarjan): each a set of nodes that reach one another. */
export function cyclicComponents(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v) === true) components.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components;
}

/** The edges that lie on some cycle (both ends in one cyclic component), as "from -> to", sorted. */
export function cycleEdges(graph: ImportGraph): string[] {
  const componentOf = new Map<string, number>();
  cyclicComponents(graph).forEach((c, i) => c.forEach((v) => componentOf.set(v, i)));
  const edges: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) if (componentOf.has(from) && componentOf.get(from) === componentOf.get(to)) edges.push(`${from} -> ${to}`);
  }
  return edges.sort();
}

/** A shortest path `from` … `to` (breadth first), or null: with an edge `to -> from`, it shows the cycle. */
export function pathBetween(graph: ImportGraph, from: string, to: string): string[] | null {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  for (let v = queue.shift(); v !== undefined; v = queue.shift()) {
    if (v === to) {
      const path: string[] = [];
      for (let at: string | null = to; at !== null; at = previous.get(at) ?? null) path.unshift(at);
      return path;
    }
    for (const w of graph.get(v) ?? []) {
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return null;
}
