import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NightlyResult } from "../../../src/jobs/nightly/run-nightly.js";
import type { TokenStats } from "../../../src/views/token-stats.js";
import { tempDir } from "../../helpers/temp-dir.js";
import { datasetOf, emulator, envFor, night } from "./support.js";
import { wordTokenizer } from "./word-tokenizer.js";

// Issue 34: a night keeps its rows' token counts with the dataset; the next night tokenizes only rows whose
// training text changed, and its dataset and `view.tokens` equal those of a night that had no counts kept.
const root = tempDir("evalshard-token-cache-");
type Tokens = TokenStats & { cached: number };

/** One night of the shipped RL pipeline with the trl-prompt-completion view counting tokens. */
function tokenNight(env: Record<string, string>, options: string, jsonl: boolean): Promise<NightlyResult> {
  return night("nightly-rl", env, jsonl, (text) => {
    const edited = text.replace(/ {2}buckets: 16\n/, `  buckets: 16\n  view: trl-prompt-completion\n  view_options: {${options}}\n`);
    expect(edited).toContain("view_options");
    return edited;
  });
}

function tokensOf(result: NightlyResult): Tokens {
  return result.manifest.view?.tokens as Tokens;
}

/** Rows the budget judged: written, or dropped by it. */
function judged(result: NightlyResult): number {
  const view = result.manifest.view;
  return (view?.rows_out ?? 0) + (view?.steps_dropped?.over_token_budget ?? 0) + (view?.steps_dropped?.template_boundary_mismatch ?? 0);
}

const tok = wordTokenizer(join(root, "tok"));

// JSON Lines and the shipped Parquet: the engine that runs a night's view may come to differ between them, and
// each must keep the counts.
describe.each([["JSON Lines", true] as const, ["Parquet", false] as const])("a nightly dataset's token counts (issue 34), %s", (to, jsonl) => {
  it("the second night tokenizes only the changed rows; dataset and view.tokens equal a night without kept counts; another template counts again", async () => {
    const emu = await emulator({ seed: 31, runs: 120 });
    const kept = join(root, `kept-${to}`);
    const first = await tokenNight(envFor(emu, kept), `tokenizer: ${tok}`, jsonl);
    // A first night tokenizes each distinct row text once (a text repeated tonight is counted once).
    expect(tokensOf(first).cached).toBeLessThan(judged(first));
    expect(tokensOf(first).rows).toBe(first.manifest.view?.rows_out);
    expect(tokensOf(first).rows).toBeGreaterThan(50);
    const file = readFileSync(join(kept, "nightly-rl", "_cache", "token-counts.txt"), "utf8").trim().split("\n");
    // Digests and counts only, one per row text the night judged.
    expect(file.slice(1).every((l) => /^[\w-]{22} (-1|\d+)$/.test(l))).toBe(true);
    expect(file.length - 1).toBe(judged(first) - tokensOf(first).cached);
    expect(file.length - 1).toBeGreaterThan(0);

    await emu.advance();
    // Tonight with a budget: the kept counts are judged against it as fresh ones are.
    const budget = `tokenizer: ${tok}, max_tokens: ${tokensOf(first).p50 ?? 0}`;
    const second = await tokenNight(envFor(emu, kept), budget, jsonl);
    const fresh = await tokenNight(envFor(emu, join(root, `fresh-${to}`)), budget, jsonl);
    await emu.close().catch(() => undefined);
    expect(second.changed).toBe(true);
    expect(datasetOf(join(kept, "nightly-rl"))).toEqual(datasetOf(join(root, `fresh-${to}`, "nightly-rl")));
    const { cached, ...secondTokens } = tokensOf(second);
    const { cached: freshCached, ...freshTokens } = tokensOf(fresh);
    expect(cached).toBeGreaterThan(freshCached);
    expect(secondTokens).toEqual(freshTokens);
    expect({ ...second.manifest.view, tokens: null }).toEqual({ ...fresh.manifest.view, tokens: null });
    expect(second.manifest.view?.steps_dropped?.over_token_budget).toBeGreaterThan(0);
    // Tokenized tonight: only rows that the night added or replaced (a replaced row may keep its text, and be cached).
    const { added, replaced } = second.manifest.night;
    expect(added + replaced).toBeGreaterThan(0);
    expect(judged(second) - cached).toBeLessThanOrEqual(added + replaced);
    expect(judged(second) - cached).toBeLessThan(judged(fresh) - freshCached);
    const entries = readFileSync(join(kept, "nightly-rl", "_cache", "token-counts.txt"), "utf8").trim().split("\n").length - 1;
    expect(entries).toBeLessThanOrEqual(judged(second));

    // Another template: the kept counts are not its; every row is counted again.
    const again = await emulator({ seed: 31, runs: 120, epoch: 1 });
    const other = await tokenNight(envFor(again, kept), `${budget}, chat_template: ${join(root, "tok", "other.jinja")}`, jsonl);
    await again.close().catch(() => undefined);
    expect(judged(other) - tokensOf(other).cached).toBe(judged(fresh) - freshCached);
    expect(tokensOf(other).rows).toBeGreaterThan(0);
  }, 300_000);
});
