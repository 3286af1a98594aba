import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "./helpers/temp-dir.js";

// `npm run docs` (TypeDoc over src/index.ts, typedoc.json) generates the API reference from the JSDoc. The HTML is
// not committed (about 4.6 MB in 288 files, regenerated from the sources at will; docs/decisions.md): this test
// keeps the generation working and clean. typedoc.json treats warnings as errors, so a type a public signature
// names but the index does not export, or a broken {@link}, fails here.
const ROOT = new URL("..", import.meta.url).pathname;

describe("the API reference", () => {
  it("generates from the JSDoc without a warning", { timeout: 300_000 }, () => {
    const out = tempDir("evalshard-api-docs-");
    // --skipErrorChecking: TypeScript's diagnostics of src/ are the build's (tsconfig.build.json, as typedoc.json
    // names), which npm test runs first; half of typedoc's time. Its own validation (the warnings) still runs.
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules/typedoc/bin/typedoc"), "--skipErrorChecking", "--out", out], { cwd: ROOT, encoding: "utf8" });
    const output = r.stdout + r.stderr;
    expect(output).not.toMatch(/\[warning\]|\[error\]/);
    expect(r.status, output).toBe(0);
    // The pages the README's library section leans on are there.
    for (const page of ["functions/runPipeline.html", "functions/planPipeline.html", "types/StrippedSftRecord.html", "interfaces/ValidRecord.html"]) {
      expect(existsSync(join(out, page)), page).toBe(true);
    }
    expect(readFileSync(join(out, "functions/runPipeline.html"), "utf8")).toContain("on the units engine in this thread");
  });
});
