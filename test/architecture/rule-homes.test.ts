import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 33: each rule is written once, whichever engine runs it. A rule is known here by what writing it
// takes (a constant only its rule holds, its table, its symbol); the test finds every file of src/ that
// writes it and expects exactly its home. A rule still written twice names each copy, and
// docs/architecture.md ("Rule homes") says why: the list may only shrink.

interface Rule {
  readonly rule: string;
  /** What a file that writes the rule holds. */
  readonly marks: RegExp;
  /** Paths under src/. */
  readonly homes: readonly string[];
}

const RULES: readonly Rule[] = [
  { rule: "line digest", marks: /0x85ebca77|0xc2b2ae3d/i, homes: ["engines/parallel/wasm/digest.ts"] },
  { rule: "JSON.stringify-form check", marks: /SHORT_(ESCAPES|CONTROLS)|function (numberForm|keyForm|formEscapeEnd|controlEscape|plainNumber)\b/, homes: ["engines/parallel/wasm/json-form.ts"] },
  { rule: "dedup", marks: /function (beatsWinner|copyOutcome)\b|\?\s*"duplicate"|(?<![=!])=\s*"conflicting_duplicate"/, homes: ["core/dedup-rule.ts"] },
  { rule: "shard rotation", marks: /class \w*Rotation\b/, homes: ["output/shard-rotation.ts"] },
  { rule: "split of a row", marks: /class SplitAssigner\b/, homes: ["splits/split-assigner.ts"] },
  { rule: "counting", marks: /class Tally\b/, homes: ["core/tally.ts"] },
  { rule: "output opening", marks: /\.foreignFile\(\)/, homes: ["output/open-output.ts"] },
  // A walk in JS beside the module's would be a walker or a skipper over a line's bytes (the tier issue 33 removed).
  { rule: "schema walk", marks: /export function walk\(|class \w*(LineWalker|ScalarWalker|JsonSkipper|ByteCursor)\b/, homes: ["engines/parallel/wasm/walk.ts"] },
  { rule: "untrusted-text strip", marks: /\bfunction (apply|applyRule)\(/, homes: ["engines/parallel/fast/apply-policy.ts", "stages/strip.ts"] },
  // A prefilter's copy would hold what it looks for: a removed range, the stems after `g`, the role words.
  { rule: "text-audit prefilter", marks: /0x202a|0x726f6e|\bnor\b[^\n]*\bard\b|\bard\b[^\n]*\bnor\b|system[", ]+override[", ]+prompt/i, homes: ["engines/parallel/wasm/audit.ts"] },
  { rule: "view rows", marks: /^\s*write: \w+,$/m, homes: ["views/rl-steps.ts", "views/trl-prompt-completion.ts"] },
  { rule: "split shard sets", marks: /class (SplitShards|RowGroupShardSets)\b/, homes: ["output/row-group-shard-sets.ts", "output/split-shards.ts"] },
  { rule: "dataset sink", marks: /class (DatasetSink|SnapshotSink)\b/, homes: ["dataset/snapshot-sink.ts", "output/dataset-sink.ts"] },
];

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const ARCHITECTURE = fileURLToPath(new URL("../../docs/architecture.md", import.meta.url));

/** Every TypeScript (and AssemblyScript) file of src/, by its path under src/. */
function sources(dir = SRC, files = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, files);
    else if (entry.name.endsWith(".ts")) files.set(relative(SRC, path).split("\\").join("/"), readFileSync(path, "utf8"));
  }
  return files;
}

/** Each rule written elsewhere than its homes, or no longer in one of them: one line each. */
function misplaced(files: ReadonlyMap<string, string>): string[] {
  return RULES.flatMap(({ rule, marks, homes }) => {
    const writers = [...files].filter(([, text]) => marks.test(text)).map(([path]) => path);
    return [
      ...writers.filter((path) => !homes.includes(path)).map((path) => `${rule}: written again in ${path} (its home: ${homes.join(", ")}); call the home instead`),
      ...homes.filter((path) => !writers.includes(path)).map((path) => `${rule}: no longer in ${path}; update RULES and docs/architecture.md`),
    ];
  });
}

describe("each rule has one home (issue 33)", () => {
  const files = sources();

  it("is written in its home(s) alone", () => {
    expect(misplaced(files)).toEqual([]);
  });

  it("fails on a second copy of any rule, however its file is named", () => {
    for (const { rule, marks, homes } of RULES) {
      const home = homes[0] as string;
      const copied = (files.get(home) as string).match(marks)?.[0] as string;
      const withCopy = new Map(files).set("jobs/copied-rule.ts", `// a rule's copy\n${copied}\n`);
      expect(misplaced(withCopy), rule).toEqual([`${rule}: written again in jobs/copied-rule.ts (its home: ${homes.join(", ")}); call the home instead`]);
    }
  });

  it("is named in docs/architecture.md's table with its home(s), a doubled one with why", () => {
    const doc = readFileSync(ARCHITECTURE, "utf8");
    const table = doc.slice(doc.indexOf("## Rule homes"));
    expect(table.length).toBeLessThan(doc.length);
    for (const { rule, homes } of RULES) {
      const row = table.split("\n").find((line) => line.startsWith(`| ${rule} |`));
      expect(row, rule).toBeDefined();
      for (const home of homes) expect(row, `${rule}: ${home}`).toContain(`src/${home}`);
      if (homes.length > 1) expect(row, rule).toContain("doubled");
    }
  });
});
