import { ConfigError } from "../core/errors.js";
import type { FormatName } from "../formats/format.js";
import type { ViewName } from "../views/view.js";
import { contextMissing, VIEW_TRAITS, viewsReading } from "../views/view-traits.js";
import { flagName } from "./option-spec.js";
import type { CommandName, ResolvedOptionsOf } from "./option-spec.js";
import { OPTIONS } from "./options.js";
import type { Options, OutputKind } from "./options.js";
import type { ViewPlan } from "./run-plan.js";

const VIEW_ONLY = ["context", "systemPrompt", "systemPromptFile", "controlTokens", "onInjection", "ktoLabel", "gamma", "episodes", "turnWeight", "tokenizer", "chatTemplate", "maxTokens"] as const;

/** The view options as the table names them, checked one by one already. */
type ViewOptionValues = Partial<Pick<ResolvedOptionsOf<Options, "convert">, "view" | (typeof VIEW_ONLY)[number]>>;

/**
 * The OpenAI views are JSON Lines only, as the API reads them, and its upload refuses compressed files:
 * such a view is written as `.jsonl` when `to` is not named, uncompressed when `compression` is not named
 * (`--to jsonl` alone included). Anything the caller names is kept (and checked).
 */
export function withViewDefaults<O extends object>(options: O): O {
  const given = options as { readonly view?: unknown; readonly to?: unknown; readonly compression?: unknown };
  const traits = typeof given.view === "string" ? VIEW_TRAITS[given.view as ViewName] : undefined;
  if (traits === undefined || traits.outputs.includes("parquet")) return options;
  return { ...options, ...(given.to === undefined ? { to: "jsonl" } : {}), ...(given.compression === undefined ? { compression: "none" } : {}) };
}

/** What the plan says about views, or a ConfigError naming the option that does not fit the others. */
export function viewPlanOf(command: CommandName, o: ViewOptionValues, at: { readonly to: OutputKind | undefined; readonly format: FormatName | undefined; readonly source: "files" | "http" }): ViewPlan | undefined {
  if (o.view === undefined) {
    const stray = VIEW_ONLY.find((name) => o[name] !== undefined);
    if (stray !== undefined) throw new ConfigError(`${flagName(OPTIONS[stray])} applies to training views only: add --view (${Object.keys(VIEW_TRAITS).join(", ")})`);
    return undefined;
  }
  const name = o.view;
  const traits = VIEW_TRAITS[name];
  if (at.format !== undefined && at.format !== traits.from) {
    throw new ConfigError(`The view ${name} reads ${traits.from} records, not ${at.format}: for ${at.format} input there is ${at.format === "sft" ? "no view" : viewsReading(at.format).join(", ")}`);
  }
  // `validate` writes nothing: no output to check.
  if (at.to !== undefined && !traits.outputs.includes(at.to)) throw new ConfigError(`The view ${name} is written as JSON Lines only, as the OpenAI API reads it: use --to jsonl (or leave --to out)`);
  const context = o.context ?? [];
  // A pull from the service fetches the paired runs' RL records itself; export files come with none.
  if (traits.needsContext && command === "pull" && at.source !== "http") {
    throw new ConfigError(`The view ${name} takes its prompts from RL records, which a pipeline of export files does not have: pull from the service, or convert the DPO export with --view ${name} --context <its RL export>`);
  }
  // Without --format the records name their format when read: a view of the wrong format must be told that
  // first (the run checks it before it asks for context), not asked for a context it cannot use.
  if (traits.needsContext && context.length === 0 && command !== "pull" && at.format !== undefined) throw contextMissing(name);
  if (!traits.needsContext && context.length > 0) throw new ConfigError(`--context is for the DPO views (${viewsReading("dpo").join(", ")}); the view ${name} reads its prompts from its own records`);
  if (o.tokenizer === undefined && (o.chatTemplate !== undefined || o.maxTokens !== undefined)) throw new ConfigError(`${o.chatTemplate !== undefined ? "--chat-template" : "--max-tokens"} needs --tokenizer: the model's tokens are what it counts`);
  if (o.tokenizer !== undefined && !traits.chat) throw new ConfigError(`--tokenizer counts chat messages, and the view ${name} writes none: use it with ${Object.entries(VIEW_TRAITS).filter(([, t]) => t.chat).map(([n]) => n).join(", ")}`);
  if (o.episodes === true && name !== "openai-sft") throw new ConfigError(`--episodes is openai-sft's (a line per seat episode); the view ${name} ${name === "trl-messages" ? "writes episodes already" : "writes its own rows"}`);
  if (o.turnWeight !== undefined && o.episodes !== true) throw new ConfigError("--turn-weight weighs the assistant messages of whole episodes: add --episodes (with --view openai-sft)");
  if (o.systemPrompt !== undefined && o.systemPromptFile !== undefined) throw new ConfigError("Give the system prompt once: --system-prompt or --system-prompt-file, not both");
  return {
    name,
    context,
    systemPrompt: o.systemPrompt,
    systemPromptFile: o.systemPromptFile,
    controlTokens: o.controlTokens,
    onInjection: o.onInjection ?? "keep",
    ktoLabel: o.ktoLabel === "return-to-go" ? "return_to_go" : "scalar_reward",
    gamma: o.gamma ?? 1,
    ...(o.episodes === true ? { turnWeight: o.turnWeight === undefined ? "all" : (o.turnWeight.replaceAll("-", "_") as "scalar_reward" | "return_to_go") } : {}),
    tokenizer: o.tokenizer,
    chatTemplate: o.chatTemplate,
    maxTokens: o.maxTokens,
  };
}
