import type { TokenSetup } from "../tokens/token-setup.js";
import type { PathAudit } from "./text-audit.js";
import { tokenStats } from "./token-stats.js";
import type { TokenStats } from "./token-stats.js";
import type { AnyView } from "./view.js";
import type { TurnWeight } from "./turn-weight.js";
import type { ViewDropReason } from "./view-result.js";
import type { ViewCounts } from "./view-tally.js";

/** The RL records a DPO view joined against (`--context`). */
export interface ContextCounts {
  readonly inputs: readonly string[];
  /** Valid RL records read. */
  readonly records: number;
  /** Trajectories (run and seat) held, the latest scorecard version of each. */
  readonly trajectories: number;
  /** Lines of the context that were not valid RL records: left out of the context, not the dataset. */
  readonly invalid: number;
}

/** The manifest's `view` section: what the view made of the kept records. */
export interface ViewManifest {
  readonly name: string;
  /** TRL's dataset format and type (`conversational prompt-completion`, `standard stepwise supervision`), or null for the views TRL does not read as such. */
  readonly trl_dataset_type: string | null;
  readonly trainer: string | null;
  /** Kept records the view read (records quarantined by `--on-injection quarantine` not among them). */
  readonly records_in: number;
  readonly rows_out: number;
  /** `steps_dropped` (RL views) or `pairs_dropped` (DPO views), by reason. */
  readonly steps_dropped?: ViewCounts["dropped"];
  readonly pairs_dropped?: ViewCounts["dropped"];
  /** Episode views: seat episodes that gave no row, by reason (their steps without an assistant turn are in `steps_dropped`). */
  readonly episodes_dropped?: ViewCounts["dropped"];
  readonly prompts_trimmed: number;
  readonly on_injection: "keep" | "drop" | "quarantine";
  readonly system_prompt: boolean;
  readonly extra_control_tokens: number;
  readonly context: ContextCounts | null;
  /** Per output path: texts written, changed by sanitizing, matching an injection pattern (and which). */
  readonly text_audit: Readonly<Record<string, PathAudit>>;
  /** With `--tokenizer`: what the rows were counted with and their lengths in tokens. */
  readonly tokens?: TokenStats;
  /** `openai-sft --episodes`: the rule that weighed each assistant message. */
  readonly turn_weight?: TurnWeight;
}

/** How a view was set up for a run, as its manifest section says. */
export interface ViewSetup {
  readonly view: AnyView;
  readonly onInjection: "keep" | "drop" | "quarantine";
  readonly systemPrompt: boolean;
  readonly extraControlTokens: number;
  readonly context: ContextCounts | null;
  /** What the rows are counted with (`--tokenizer`). */
  readonly tokens: TokenSetup | null;
}

export interface ViewManifestOptions extends ViewSetup {
  readonly counts: ViewCounts;
  readonly audit: Readonly<Record<string, PathAudit>>;
  readonly turnWeight?: TurnWeight | undefined;
}

export function viewManifest(o: ViewManifestOptions): ViewManifest {
  const { view, counts } = o;
  return {
    name: view.name,
    trl_dataset_type: view.trl === null ? null : `${view.trl.format ?? "conversational"} ${view.trl.type}`,
    trainer: view.trl?.trainer ?? null,
    records_in: counts.records_in,
    rows_out: counts.rows_out,
    ...(view.unit === "step" ? { steps_dropped: counts.dropped } : view.unit === "pair" ? { pairs_dropped: counts.dropped } : episodesDropped(counts.dropped)),
    prompts_trimmed: counts.prompts_trimmed,
    on_injection: o.onInjection,
    system_prompt: o.systemPrompt,
    extra_control_tokens: o.extraControlTokens,
    context: o.context,
    text_audit: o.audit,
    ...(o.tokens === null ? {} : { tokens: tokenStats(o.tokens, counts.tokens ?? [], counts.tokens_cached) }),
    ...(o.turnWeight === undefined ? {} : { turn_weight: o.turnWeight }),
  };
}

/** What an episode view left out: one tally, its reasons split into whole episodes and steps without an assistant turn. */
function episodesDropped(dropped: ViewCounts["dropped"]): { steps_dropped: ViewCounts["dropped"]; episodes_dropped: ViewCounts["dropped"] } {
  const entries = Object.entries(dropped) as [ViewDropReason, number][];
  return {
    steps_dropped: Object.fromEntries(entries.filter(([r]) => !EPISODE_REASONS.has(r))),
    episodes_dropped: Object.fromEntries(entries.filter(([r]) => EPISODE_REASONS.has(r))),
  };
}

/** The reasons an episode view counts whole episodes under; its other reasons count steps. */
const EPISODE_REASONS: ReadonlySet<ViewDropReason> = new Set(["no_turns", "injection", "over_token_budget", "template_boundary_mismatch"]);
