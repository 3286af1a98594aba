import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycleEdges, cyclicComponents, folderGraph, importGraph, pathBetween, specifiersOf } from "./helpers/import-graph.js";

// Data flows one way (docs: issue 17): no import cycle between files, none between the top-level folders of
// src/ (files directly in src/ are the folder "."). Every import counts: `import`, `export … from`, dynamic
// `import("…")`, and `import type`. A type-only import leaves no trace at run time, but it still ties the
// importer to the imported module's design, so it counts for layering; it counts for file cycles too (none
// exist, and a rule with no exception is easier to keep than one with a loophole).

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const { graph, unresolved } = importGraph(SRC);
const folders = folderGraph(graph);

/**
 * Today's folder cycles, as the folder imports that lie on one ("from -> to"): the cycles are exactly those
 * these edges form. The list may only shrink: the test fails on a cycle edge missing from it and on an entry
 * that no longer closes a cycle.
 */
const KNOWN_FOLDER_CYCLE_EDGES: string[] = [];

/** One file import behind a folder edge, to point at in a failure message. */
function fileImportBehind(edge: string): string {
  const [from, to] = edge.split(" -> ") as [string, string];
  for (const [file, targets] of graph) {
    const target = [...targets].find((t) => (t.includes("/") ? t.slice(0, t.indexOf("/")) : ".") === to);
    if ((file.includes("/") ? file.slice(0, file.indexOf("/")) : ".") === from && target !== undefined) return `${file} -> ${target}`;
  }
  return "?";
}

describe("the import graph of src/", () => {
  it("reads every kind of import, type-only and dynamic ones included", () => {
    const text = [
      `import { a } from "./a.js";`,
      `import type { B } from "../b.js";`,
      `export { c } from "./c.js";`,
      `export type { D } from "./d.js";`,
      `export * from "./e.js";`,
      `const f = await import("./f.js");`,
      `import "./g.js";`,
      `import { z } from "zod";`,
    ].join("\n");
    expect(specifiersOf(text).sort()).toEqual(["../b.js", "./a.js", "./c.js", "./d.js", "./e.js", "./f.js", "./g.js", "zod"]);
    // In the real sources too: the engine loads its run on first use.
    expect(graph.get("engines/parallel/run-engine.ts")?.has("engines/parallel/run-parallel.ts")).toBe(true);
    expect(unresolved).toEqual([]);
    expect(graph.size).toBeGreaterThan(100);
  });

  it("has no cycle between files", () => {
    const cycles = cyclicComponents(graph).map((component) => {
      const [first] = component as [string, ...string[]];
      const back = [...(graph.get(first) ?? [])].find((next) => component.includes(next)) as string;
      return (pathBetween(graph, back, first) ?? []).concat(back).join(" -> ");
    });
    expect(cycles, "each line is one import cycle: break it").toEqual([]);
  });

  it("has no folder cycle but the known ones, and every known one still exists (the list only shrinks)", () => {
    const edges = cycleEdges(folders);
    const added = edges
      .filter((e) => !KNOWN_FOLDER_CYCLE_EDGES.includes(e))
      .map((e) => {
        const [from, to] = e.split(" -> ") as [string, string];
        return `${e} (${fileImportBehind(e)}) closes ${[from, ...(pathBetween(folders, to, from) ?? [])].join(" -> ")}`;
      });
    expect(added, "new folder cycles: break them (folders must import one way)").toEqual([]);
    const gone = KNOWN_FOLDER_CYCLE_EDGES.filter((e) => !edges.includes(e));
    expect(gone, "no longer on a folder cycle: delete from KNOWN_FOLDER_CYCLE_EDGES").toEqual([]);
  });
});

describe("layering", () => {
  it("formats/ imports nothing of the engines or the output: engines/, parquet/, sinks/", () => {
    const forbidden = new Set(["engines", "parquet", "sinks"]);
    const leaks = [...graph].filter(([file]) => file.startsWith("formats/")).flatMap(([file, targets]) => [...targets].filter((t) => forbidden.has(t.split("/")[0] as string)).map((t) => `${file} -> ${t}`));
    expect(leaks).toEqual([]);
  });

  it("nothing outside engines/parallel/ reaches past its entry, engines/parallel/index.ts", () => {
    const inside = (file: string) => file.startsWith("engines/parallel/");
    const leaks = [...graph].filter(([file]) => !inside(file)).flatMap(([file, targets]) => [...targets].filter((t) => inside(t) && t !== "engines/parallel/index.ts").map((t) => `${file} -> ${t}`));
    expect(leaks, "import from engines/parallel/index.ts, or export what you need there").toEqual([]);
    expect(graph.get("jobs/convert.ts")?.has("engines/parallel/index.ts")).toBe(true);
  });
});
