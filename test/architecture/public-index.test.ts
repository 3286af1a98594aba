import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The public index is the library's surface: the engines' internals (the fast parser, the wasm walk, the
// worker threads, the Parquet column plan) stay private, so they can change without a breaking release.
const INDEX = new URL("../../src/index.ts", import.meta.url);
const PRIVATE_FOLDERS = ["engines/parallel", "parquet"];

const source = ts.createSourceFile("index.ts", readFileSync(INDEX, "utf8"), ts.ScriptTarget.ES2022);
const reExports = source.statements.filter(ts.isExportDeclaration).map((d) => ({
  from: (d.moduleSpecifier as ts.StringLiteral).text,
  names: d.exportClause !== undefined && ts.isNamedExports(d.exportClause) ? d.exportClause.elements.map((e) => e.name.text) : ["*"],
}));

describe("the public index", () => {
  it("re-exports nothing from the engines' private folders", () => {
    const leaks = reExports.filter((e) => PRIVATE_FOLDERS.some((f) => e.from.startsWith(`./${f}/`))).map((e) => `${e.names.join(", ")} from ${e.from}`);
    expect(leaks).toEqual([]);
  });

  it("exports no parser or column-plan internals by name", () => {
    const names = reExports.flatMap((e) => e.names);
    expect(names).toContain("defineFormat");
    for (const name of ["compileLineParser", "columnPlan", "LineParser", "ColumnPlan", "Leaf", "LeafType", "PlanNode", "LeafWriter"]) expect(names).not.toContain(name);
  });
});
