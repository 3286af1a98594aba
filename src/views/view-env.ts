import { ConfigError } from "../core/errors.js";
import type { TokenSetup } from "../tokens/token-setup.js";
import type { RlContext } from "./rl-context.js";
import type { TokenBudget } from "../tokens/token-budget.js";
import type { Utf8Range } from "./utf8-range.js";
import { sanitizePolicy, sanitizer } from "./sanitize-text.js";
import type { Checked, Sanitized, Sanitizer, TextCheck } from "./sanitize-text.js";
import { labelCheck } from "./label-check.js";
import { KTO_LABELS } from "./reward-label.js";
import type { KtoLabel } from "./reward-label.js";
import { mayMatter } from "./text-prefilter.js";
import { TextAudit } from "./text-audit.js";
import { TURN_WEIGHTS } from "./turn-weight.js";
import type { TurnWeight } from "./turn-weight.js";

/** The options of every view, as a plan carries them. All optional. */
export interface ViewOptions {
  /** What happens to every text a view emits: `sanitize` (default) or `keep` as written. */
  readonly text?: "sanitize" | "keep";
  /** A tokenizer's own control tokens, removed on top of the built-in ones (`--control-tokens FILE`). */
  readonly controlTokens?: readonly string[];
  /** A system message put first in every prompt (`--system-prompt`); none by default. */
  readonly systemPrompt?: string;
  /** A row any text of which matches an injection pattern: kept (default, counted) or dropped (`injection`). */
  readonly onInjection?: "keep" | "drop";
  /** Discount of `rl-steps`' `return_to_go` (and of a `return_to_go` KTO label), from 0 to 1; default 1. */
  readonly gamma?: number;
  /** The KTO label rule; default `scalar_reward`. */
  readonly ktoLabel?: KtoLabel;
  /** `openai-sft --episodes`: whole episodes, each assistant turn weighted by this rule; absent: a line per step. */
  readonly turnWeight?: TurnWeight;
  /** A model's tokenizer, chat template and token budget (`--tokenizer`, `--max-tokens`), files read. */
  readonly tokens?: TokenSetup;
}

/** What a view's `rows` runs with: the resolved options, the context records and the audit it counts into. */
export interface ViewEnv {
  readonly sanitize: Sanitizer;
  /**
   * `sanitize`, telling too whether an injection pattern could match the result: what the step views run.
   * @internal
   */
  readonly check: TextCheck;
  /**
   * `check` for the short texts `rl-steps` writes as they are besides its window contents and actions (window
   * roles, action types, the seat's role, condition ids), each distinct one checked once.
   * @internal
   */
  readonly label: TextCheck;
  /**
   * Whether `check` would give a text of these UTF-8 bytes back unchanged and cleared of every injection
   * pattern; false when it cannot tell. Set by the parallel engine (a byte prefilter that knows the built-in
   * control tokens only, so not with `controlTokens`) for the texts its walk hands `rl-steps` as bytes.
   * @internal
   */
  readonly clearBytes?: (text: Utf8Range) => boolean;
  /**
   * `isStringifyForm` of a JSON value's bytes as a walk read them (valid UTF-8), answered the same way faster:
   * set by the parallel engine (its wasm module) for the JSON values its walk hands `rl-steps` as bytes.
   * @internal
   */
  readonly jsonForm?: (json: Utf8Range) => boolean;
  readonly systemPrompt: string | undefined;
  readonly onInjection: "keep" | "drop";
  readonly gamma: number;
  readonly ktoLabel: KtoLabel;
  readonly turnWeight: TurnWeight | undefined;
  readonly context: RlContext | null;
  readonly audit: TextAudit;
  /** The token budget rows are held to (`viewRows`), or null when the run counts no tokens. */
  readonly tokens: TokenBudget | null;
}

const keep: Sanitizer = (text): Sanitized => ({ text, changed: false });
const keepChecked: TextCheck = (text): Checked => ({ text, changed: false, inject: mayMatter(text) });

/** Resolves view options, naming a bad value. `context` is the RL records a DPO view joins against. */
export function viewEnv(options: ViewOptions = {}, context: RlContext | null = null, tokens: TokenBudget | null = null): ViewEnv {
  const text = options.text ?? "sanitize";
  if (text !== "sanitize" && text !== "keep") throw new ConfigError(`Expected the view text policy to be sanitize or keep, got ${JSON.stringify(text)}`);
  const gamma = options.gamma ?? 1;
  if (!(gamma >= 0 && gamma <= 1)) throw new ConfigError(`Expected \`gamma\` to be a number from 0 to 1, got ${gamma}`);
  const onInjection = options.onInjection ?? "keep";
  if (onInjection !== "keep" && onInjection !== "drop") throw new ConfigError(`Expected \`onInjection\` to be keep or drop, got ${JSON.stringify(onInjection)}`);
  const ktoLabel = options.ktoLabel ?? "scalar_reward";
  if (!KTO_LABELS.includes(ktoLabel)) throw new ConfigError(`Expected \`ktoLabel\` to be one of ${KTO_LABELS.join(", ")}, got ${JSON.stringify(ktoLabel)}`);
  const turnWeight = options.turnWeight;
  if (turnWeight !== undefined && !TURN_WEIGHTS.includes(turnWeight)) throw new ConfigError(`Expected \`turnWeight\` to be one of ${TURN_WEIGHTS.join(", ")}, got ${JSON.stringify(turnWeight)}`);
  const policy = text === "keep" ? { sanitize: keep, check: keepChecked } : sanitizePolicy(options.controlTokens);
  const systemPrompt = options.systemPrompt;
  // The system prompt is the user's own, not sanitized; a control token there would break every rendered row.
  if (systemPrompt !== undefined && (systemPrompt.trim() === "" || sanitizer(options.controlTokens)(systemPrompt).changed)) {
    throw new ConfigError(`The system prompt must be non-blank text without chat-template control tokens or control characters, got ${JSON.stringify(systemPrompt.slice(0, 80))}`);
  }
  return { sanitize: policy.sanitize, check: policy.check, label: labelCheck(policy.check), systemPrompt, onInjection, gamma, ktoLabel, turnWeight, context, audit: new TextAudit(), tokens };
}
