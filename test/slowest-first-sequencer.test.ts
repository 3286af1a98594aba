import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOWEST_FILES } from "./helpers/slowest-first-sequencer.js";

// A renamed or deleted file would silently leave the list, and could then start last on a fresh checkout.
describe("the slowest files vitest starts first", () => {
  it("are test files of this suite, each once", () => {
    const root = fileURLToPath(new URL("../", import.meta.url));
    expect(SLOWEST_FILES.filter((f) => !f.endsWith(".test.ts") || !existsSync(`${root}${f}`))).toEqual([]);
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });
});
