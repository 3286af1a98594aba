import type { FormatBasics } from "../formats/format.js";

/**
 * Where the plain (non-view) outputs keep text a model may be trained on, besides the format's untrusted
 * paths: judge evidence and trace steps (SFT), observations and actions (RL), the pair sides (DPO). `*` is any
 * key of a map, `[]` every element of a list.
 */
const TEXT_PATHS: Readonly<Record<string, readonly string[]>> = {
  sft: ["scores.per_trait.*.evidence", "trace_steps"],
  rl: ["tuples[].state.observation", "tuples[].action.content"],
  dpo: ["pairs[].chosen.content", "pairs[].rejected.content"],
};

/** The paths the text scan of a plain output walks: the format's untrusted paths and its {@link TEXT_PATHS}. */
export function textAuditPaths(format: Pick<FormatBasics, "name" | "untrustedPaths">): string[] {
  return [...new Set([...format.untrustedPaths, ...(TEXT_PATHS[format.name] ?? [])])];
}
