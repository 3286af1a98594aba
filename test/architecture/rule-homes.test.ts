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
  /** Several homes, each of its own part (a view's rows: one home per view), none a copy of another. */
  readonly apart?: true;
}

/** A file that names both a path step's kind and an action that removes text. */
const STRIP_RULE = /"(items|values)"[\s\S]*"(drop|redact)"|"(drop|redact)"[\s\S]*"(items|values)"/;
const VIEW_ROWS = /new LeafColumns\(|^\s*rows\(record[^)]*\)\s*\{[\s\S]*^\s*write: \w+,$|^\s*write: \w+,$[\s\S]*^\s*rows\(record[^)]*\)\s*\{/m;

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
  // A skip of a JSON value keeps a stack of the closers its open containers wait for (`}` and `]`, two code
  // points after their openers): the walk's three skips (plain, with the form check, with the audit) are one loop.
  { rule: "JSON value skip", marks: /\bc \+ 2\b|STACK \+ depth/, homes: ["engines/parallel/wasm/skip.ts"] },
  // Interpreting the policy's paths is stepping along a path's steps (`[]`, `*`) to drop or redact: applyPolicy
  // does it once, into the compiled schema's marks, which the wasm walk and recordStripper both follow.
  { rule: "untrusted-text strip", marks: STRIP_RULE, homes: ["engines/parallel/fast/apply-policy.ts"] },
  // A prefilter's copy would hold what it looks for: a removed range, the stems after `g`, the role words.
  { rule: "text-audit prefilter", marks: /0x202a|0x726f6e|\bnor\b[^\n]*\bard\b|\bard\b[^\n]*\bnor\b|system[", ]+override[", ]+prompt/i, homes: ["engines/parallel/wasm/audit.ts"] },
  // A view that writes its rows into leaves (a LeafColumns writer) has no other implementation of them: its
  // rows() reads the writer's rows back (views/written-rows.ts); a view file holding both a rows() method and
  // a write is a second implementation.
  { rule: "view rows", marks: VIEW_ROWS, homes: ["views/prompt-completion-writer.ts", "views/rl-steps-writer.ts"], apart: true },
  // An input's lines (a CR before the LF dropped, blank lines, a line past the limit, the last line without a
  // newline): cut into batches of whole lines on main, split in the units, and `splitLines` is the two in a row.
  // A copy would keep the CR a pending line may hold past the limit, or judge blanks or heads again.
  { rule: "lines of an input", marks: /maxLineBytes \+ 1|function (isBlank|decodeHead)\b/, homes: ["sources/split-batch.ts", "sources/cut-batches.ts"], apart: true },
  // A file that imports the footer's writer assembles a Parquet file (PAR1, row groups at their offsets, footer).
  { rule: "Parquet file", marks: /import \{[^}]*\bFooterBuilder\b/, homes: ["output/parquet-shard.ts"] },
  { rule: "split shard sets", marks: /class (SplitShards|RowGroupShardSets)\b/, homes: ["output/row-group-shard-sets.ts"] },
  // Convert's and a night's: the one that opens a dataset's quarantine in its staging.
  { rule: "dataset sink", marks: /class \w*(Dataset|Snapshot)Sink\b|new QuarantineWriter\(/, homes: ["dataset/dataset-sink.ts"] },
  // A lease judged, renewed or fenced anywhere else would be a second lock: it asks whether a holder is gone, or fences.
  { rule: "lease lock", marks: /import \{[^}]*\bisGone\b|new FencedError\(/, homes: ["output/lease-lock.ts"] },
  // A view's step label (trl-kto, trl-stepwise, openai-sft --episodes' weights): the reward's test.
  { rule: "step label", marks: /\.scalar_reward\s*>\s*0|\.scalar_reward : \(returns\[/, homes: ["views/reward-label.ts"] },
  // A merged turn is known clear of injection patterns only when every part is.
  { rule: "turn merge", marks: /\.inject === false && \w+\.inject === false/, homes: ["views/turn.ts"] },
  { rule: "row refused for injection", marks: /drop\("injection"\)/, homes: ["views/admit-texts.ts"] },
  // A line over `--max-line-bytes` is quarantined with its head and length, in words a copy would repeat.
  { rule: "line over the limit", marks: /bytes, over the limit/, homes: ["stages/quarantine-item.ts"] },
  // `--on-injection quarantine` judges a record by its rows' injection count: a copy reads that count.
  { rule: "record quarantined for injection", marks: /\.dropped\.injection\b/, homes: ["views/view-records.ts"] },
  { rule: "a tokenizer's special tokens", marks: /\.special === true/, homes: ["tokens/token-setup.ts"] },
  // A secret is looked for by the process's one set (its forms, escapes and fragments): errors, causes, stderr,
  // quarantine, manifests and a pull's lines are all cleared through it, whichever client took the secret in.
  { rule: "secret redaction", marks: /new SecretRedactor\(/, homes: ["core/secrets.ts"] },
  // An error and its causes on one line (the service client's messages and causes, an S3 error's detail).
  { rule: "error described on one line", marks: /` \(\$\{code\}\)`/, homes: ["core/describe-error.ts"] },
  // Which failure of a service call is retried: a retryable status, a network or stream failure that is not permanent.
  { rule: "retry reason of a failure", marks: /retryReasonOf\(\w+\.status\)/, homes: ["http/attempt-failure.ts"] },
  // A second reader of a published manifest would read the file by its name (the one reader takes it as its default path).
  { rule: "published manifest read", marks: /\b(readText|readFile)\([^)\n]*"manifest\.json"|\bpath = "manifest\.json"\): Promise<ReadManifest/, homes: ["output/published-manifest.ts"] },
  // What a format's facts and check read, as paths the fast parser builds into a skeleton: a second list of them
  // would drift from the rules (paths only the record rules read mark it).
  { rule: "what a format's rules read", marks: /"(scores\.outcomes\.total_actions|scoring_basis\.composite_delta)"/, homes: ["formats/record-rules.ts"] },
  // A DPO view given no RL records: the plan, the run, the stage and the rows ask for them in one wording.
  { rule: "missing --context", marks: /give the RL export with --context/, homes: ["views/view-traits.ts"] },
  // A store of scorecards appends each card's per-trait means: a pull's cache and its book keep theirs in one.
  { rule: "scorecard store", marks: /\.addSeat\(/, homes: ["formats/score-book-writer.ts"] },
  // A try around JSON.parse alone whose catch takes a text that is not JSON as no value (returns, skips or falls through).
  { rule: "JSON text or nothing", marks: /JSON\.parse\([^\n]*\n\s*\} catch \{\n\s*(return\b|continue;|\/\/)/, homes: ["core/try-parse-json.ts"] },
  // A filesystem step's failure, named by the step and the path (a full disk in words): output's steps and the
  // spool's and a pull's staging writes once had a wrapper each.
  { rule: "I/O step's error", marks: /function (ioStep|writeStep)\b|Cannot \$\{what\} \$\{path\}/, homes: ["core/io-step.ts"] },
  // A text's or bytes' sha256 in hex taken in one expression; a hash fed chunk by chunk (a file, an upload, the
  // ledger) is another mechanism and does not match.
  { rule: "sha256 hex of a text", marks: /createHash\("sha256"\)\.update\([^\n]*\)\.digest\("hex"\)/, homes: ["core/sha256-hex.ts"] },
  // The manifest is put in place last (the card first): the journal's roll-forward, the local links and the root copies on object storage.
  // A bin from a value, or its lower edge: the manifest's `stats` and the report's histogram charts read one rule.
  { rule: "a histogram's bins", marks: /2 \*\* bin\b|Math\.round\(\w+ \* 1e6\) \/ Math\.round/, homes: ["stats/histogram.ts"] },
  // The report's charts share one frame: caption, inline SVG, or "none".
  { rule: "a report chart's frame", marks: /<figure class="chart">/, homes: ["report/chart-figure.ts"] },
  // A digest read as a big-endian integer mod N a byte at a time: a pull's share of a run and a dataset's bucket of a key were one rule twice.
  { rule: "an opaque id's hash share", marks: /\* 256 \+ byte\) % /, homes: ["pull/partition.ts"] },
  { rule: "publish order", marks: /"manifest\.json" \? 2\b|sort\([^\n]*"manifest\.json"|COMMIT_(ENTRY|FILE) = "manifest\.json"/, homes: ["output/publish-order.ts"] },
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

  it("knows a strip that reads the policy's paths again, as the record strip once did", () => {
    const interpretation = `for (const rule of policy.rules) if (rule.action === "drop") for (const step of rule.steps) if (step.kind === "items") walkItems();`;
    const withCopy = new Map(files).set("stages/strip.ts", interpretation);
    expect(misplaced(withCopy)).toEqual(["untrusted-text strip: written again in stages/strip.ts (its home: engines/parallel/fast/apply-policy.ts); call the home instead"]);
  });

  it("fails on a view that writes its rows into leaves and builds them again as objects", () => {
    const view = files.get("views/rl-steps.ts") as string;
    const twice = view.replace(/^\s*rows: writtenRows\(.*$/m, "  rows(record, env) {\n    return rowsBuiltAgain(record, env);\n  },");
    expect(twice).not.toBe(view);
    expect(misplaced(new Map(files).set("views/rl-steps.ts", twice))).toEqual(["view rows: written again in views/rl-steps.ts (its home: views/prompt-completion-writer.ts, views/rl-steps-writer.ts); call the home instead"]);
  });

  it("is named in docs/architecture.md's table with its home(s), a doubled one with why", () => {
    const doc = readFileSync(ARCHITECTURE, "utf8");
    const table = doc.slice(doc.indexOf("## Rule homes"));
    expect(table.length).toBeLessThan(doc.length);
    for (const { rule, homes, apart } of RULES) {
      const row = table.split("\n").find((line) => line.startsWith(`| ${rule} |`));
      expect(row, rule).toBeDefined();
      for (const home of homes) expect(row, `${rule}: ${home}`).toContain(`src/${home}`);
      if (homes.length > 1 && apart !== true) expect(row, rule).toContain("doubled");
    }
  });
});
