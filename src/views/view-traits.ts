import { ConfigError } from "../core/errors.js";
import type { ViewName } from "./view.js";

/** What a plan must know of a view before any row is built: what it reads and what it may be written as. */
export interface ViewTraits {
  readonly from: "rl" | "dpo";
  readonly needsContext: boolean;
  readonly outputs: readonly ("parquet" | "jsonl")[];
  /** Whether its rows are chat messages a tokenizer can count (`View.training`). */
  readonly chat: boolean;
}

/**
 * The views' traits without their row builders, so resolving a plan (and the parallel engine's start-up)
 * loads no view code; each view takes its own from here (`traitsOf`). test/views/view-traits.test.ts holds
 * `chat` equal to whether the view has `training`.
 */
const TRAITS = {
  "trl-prompt-completion": { from: "rl", needsContext: false, outputs: ["parquet", "jsonl"], chat: true },
  "trl-kto": { from: "rl", needsContext: false, outputs: ["parquet", "jsonl"], chat: true },
  "trl-preference": { from: "dpo", needsContext: true, outputs: ["parquet", "jsonl"], chat: true },
  "openai-sft": { from: "rl", needsContext: false, outputs: ["jsonl"], chat: true },
  "openai-dpo": { from: "dpo", needsContext: true, outputs: ["jsonl"], chat: true },
  "rl-steps": { from: "rl", needsContext: false, outputs: ["parquet", "jsonl"], chat: false },
  "trl-stepwise": { from: "rl", needsContext: false, outputs: ["parquet", "jsonl"], chat: true },
  "trl-prompt-only": { from: "rl", needsContext: false, outputs: ["parquet", "jsonl"], chat: true },
  "trl-messages": { from: "rl", needsContext: false, outputs: ["parquet", "jsonl"], chat: true },
} as const satisfies Readonly<Record<ViewName, ViewTraits>>;
export const VIEW_TRAITS: Readonly<Record<ViewName, ViewTraits>> = TRAITS;

/** The traits a view object carries: all but `chat`, which its `training` says. */
export function traitsOf<N extends ViewName>(name: N): Omit<(typeof TRAITS)[N], "chat"> {
  const { chat: _, ...traits } = TRAITS[name];
  return traits;
}

/** The views that read `from`, for messages. */
export function viewsReading(from: "rl" | "dpo"): string[] {
  return (Object.entries(VIEW_TRAITS) as [ViewName, ViewTraits][]).filter(([, t]) => t.from === from).map(([name]) => name);
}

/**
 * A view that takes its prompts from RL records, given none: the one usage error, raised where it is first
 * known (the plan, for a forced format; the run, once the records name theirs; a library's stage or rows).
 */
export function contextMissing(name: ViewName): ConfigError {
  return new ConfigError(`The view ${name} takes its prompts from RL records: give the RL export with --context <files or dirs>`);
}
