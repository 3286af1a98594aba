import type * as Crypto from "node:crypto";
import { lazyBuiltin } from "../core/lazy-builtin.js";
import { sha256Hex } from "../core/sha256-hex.js";
import { EVALSHARD_VERSION } from "../core/version.js";
import type { TemplateMessage } from "./token-counter.js";
import type { TokenSetup } from "./token-setup.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** Where a nightly dataset keeps the token counts of its rows, relative to its directory. */
export const TOKEN_CACHE_FILE = "_cache/token-counts.txt";

/** What a row's training text came to: its longest prompt plus completion in tokens, or this when its boundary did not hold. */
export const BOUNDARY_MISMATCH = -1;

// The boundary rule is part of what a kept entry means: /2 checks token ids.
const FORMAT = "evalshard-token-counts/2";
// The parallel engine's workers load this module whether or not a run counts tokens.
const nodeCrypto = lazyBuiltin<typeof Crypto>("node:crypto");

/**
 * The token counts a nightly dataset keeps from night to night (issue 34): what the budget made of each
 * row's training text, keyed by a digest of that text (the prompt and completions the template renders), so
 * a row whose text did not change is not rendered and tokenized again. The file names the setup its counts
 * were made under (tokenizer, template and special tokens, evalshard's version); under another, it counts
 * for nothing. It holds no text, only digests and counts, and only the rows this night looked up: the next
 * file is no larger than tonight's rows.
 */
export class TokenCache {
  #prior = new Map<string, number>();
  readonly #next = new Map<string, number>();
  /** A unit's copy: the entries of the record being viewed (see {@link drain}); null in main's. */
  #touched: (readonly [string, number])[] | null;
  #setup: string | null = null;

  /**
   * `text`: the file the last published night kept; null when there is none. The unit engine's units open their
   * own from it, `tracked`, and send each record's entries to main, which keeps those of the records it keeps.
   */
  constructor(
    readonly text: string | null,
    tracked = false,
  ) {
    this.#touched = tracked ? [] : null;
  }

  /** Binds the cache to the setup this run counts with; the kept counts apply only when they were made under it. */
  bind(setup: TokenSetup): void {
    this.#setup = setupDigest(setup);
    this.#prior = parseCounts(this.text, this.#setup);
  }

  /** The key of a row's training text. */
  key(prompt: readonly TemplateMessage[], completions: readonly (readonly TemplateMessage[])[]): string {
    return nodeCrypto().createHash("sha256").update(JSON.stringify([prompt, completions])).digest().subarray(0, 16).toString("base64url");
  }

  /** The count kept for `key`, which the next file keeps too; undefined when the row must be counted. */
  lookup(key: string): number | undefined {
    const n = this.#next.get(key) ?? this.#prior.get(key);
    if (n !== undefined) this.store(key, n);
    return n;
  }

  store(key: string, n: number): void {
    this.#next.set(key, n);
    this.#touched?.push([key, n]);
  }

  /** A unit's copy: the entries looked up or stored since the last call, a record's rows' in order. */
  drain(): readonly (readonly [string, number])[] {
    const touched = this.#touched ?? [];
    if (this.#touched !== null) this.#touched = [];
    return touched;
  }

  /**
   * Main's: a unit's entries of the records main kept, in their order, looked up and stored as if those rows
   * were judged here (so the next file's entries come in the records' read order); returns how many of them
   * this cache already held, the run's `view.tokens.cached` share.
   */
  absorb(entries: readonly (readonly [string, number])[]): number {
    let cached = 0;
    for (const [key, n] of entries) {
      if (this.lookup(key) === undefined) this.store(key, n);
      else cached++;
    }
    return cached;
  }

  /** The file to keep with the dataset this run publishes; null when no run bound it (no view counted tokens). */
  format(): string | null {
    if (this.#setup === null) return null;
    const lines = [JSON.stringify({ format: FORMAT, setup_sha256: this.#setup, entries: this.#next.size })];
    for (const [key, n] of this.#next) lines.push(`${key} ${n}`);
    return lines.join("\n") + "\n";
  }
}

/** What a row's count depends on besides its text. */
function setupDigest(setup: TokenSetup): string {
  const { tokenizer, template } = setup;
  const facts = {
    evalshard: EVALSHARD_VERSION,
    format: FORMAT,
    tokenizer: tokenizer.digest.sha256,
    kind: tokenizer.kind,
    specials: tokenizer.kind === "hf" ? Object.entries(tokenizer.specialTokens).sort(([a], [b]) => (a < b ? -1 : 1)) : null,
    template: template?.digest.sha256 ?? null,
  };
  return sha256Hex(JSON.stringify(facts));
}

/** The counts of a kept file made under `setup`; none when it is missing, made under another setup, or not one this code wrote. */
function parseCounts(text: string | null, setup: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (text === null) return counts;
  const lines = text.split("\n");
  const header = tryParseJson(lines[0] ?? "") as { format?: unknown; setup_sha256?: unknown; entries?: unknown } | undefined;
  if (header === undefined) return counts;
  if (header.format !== FORMAT || header.setup_sha256 !== setup) return counts;
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const match = /^([\w-]{22}) (-1|\d{1,9})$/.exec(line);
    if (match === null) return new Map();
    counts.set(match[1] as string, Number(match[2]));
  }
  return counts.size === header.entries ? counts : new Map();
}
