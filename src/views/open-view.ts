import { readOptionFile } from "../core/read-option-file.js";
import type { RlRecord } from "../formats/rl.js";
import type { ReadOptions } from "../sources/line-source.js";
import { parseControlTokens } from "./parse-control-tokens.js";
import { RlContext } from "./rl-context.js";
import { viewEnv } from "./view-env.js";
import type { ViewEnv, ViewOptions } from "./view-env.js";
import type { ContextCounts, ViewSetup } from "./view-manifest.js";
import { viewOf } from "./views.js";
import type { TurnWeight } from "./turn-weight.js";
import { readTokenSetup } from "../tokens/token-setup.js";
import type { TokenCache } from "../tokens/token-cache.js";
import { tokenBudgetOf } from "./token-budget-of.js";

/** What a run asks of a view; the plan's `ViewPlan` is this with the name checked (views/ does not import plan/, which imports views/). */
export interface ViewRequest {
  readonly name: string;
  readonly context: readonly string[];
  /** How the manifest names the context inputs, when not by their paths (a pull's spool of fetched records). */
  readonly contextNames?: readonly string[];
  readonly systemPrompt: string | undefined;
  readonly systemPromptFile: string | undefined;
  readonly controlTokens: string | undefined;
  readonly onInjection: "keep" | "drop" | "quarantine";
  readonly ktoLabel: "scalar_reward" | "return_to_go";
  readonly gamma: number;
  /** `openai-sft --episodes`: the rule weighing each assistant turn; absent, a line per step. */
  readonly turnWeight?: TurnWeight;
  /** `--tokenizer FILE` (a tokenizer.json) or `tiktoken:NAME`; with it, `chatTemplate` and `maxTokens`. */
  readonly tokenizer?: string | undefined;
  readonly chatTemplate?: string | undefined;
  readonly maxTokens?: number | undefined;
  /** A nightly dataset's kept token counts, which the run looks rows up in and adds to. */
  readonly tokenCache?: TokenCache;
}

/** A view ready to run: its environment, and what the manifest says about how it was set up. */
export interface OpenedView extends ViewSetup {
  readonly env: ViewEnv;
  /** What `env` was resolved from, files read: plain data, so a worker thread can resolve its own env. */
  readonly options: ViewOptions;
}

/**
 * Reads what a view plan names (system prompt file, control-token file, `--context` RL records) and resolves
 * the view's environment. Context lines go through the same validate stage as any input (RL, forced); of two
 * records of one run and seat the later scorecard version is kept (`RlContext`); lines that are not valid RL
 * records are counted, not fatal: they only cost the pairs that needed them (`no_context`).
 */
export async function openView(plan: ViewRequest, options: { readonly scratch?: string; readonly read: ReadOptions; readonly acceptLaterMinor: boolean }): Promise<OpenedView> {
  const view = viewOf(plan.name, plan.turnWeight === undefined ? {} : { turnWeight: plan.turnWeight });
  const systemPrompt = plan.systemPromptFile === undefined ? plan.systemPrompt : (await readOptionFile(plan.systemPromptFile, "--system-prompt-file")).replace(/\r?\n$/, "");
  const fileTokens = plan.controlTokens === undefined ? undefined : parseControlTokens(await readOptionFile(plan.controlTokens, "--control-tokens"), plan.controlTokens);
  const tokens = plan.tokenizer === undefined ? null : await readTokenSetup({ tokenizer: plan.tokenizer, chatTemplate: plan.chatTemplate, maxTokens: plan.maxTokens });
  // The model's own special tokens are control tokens of its template: the sanitizer removes them too.
  const modelTokens = tokens?.tokenizer.kind === "hf" ? tokens.tokenizer.controlTokens : [];
  const controlTokens = fileTokens === undefined && modelTokens.length === 0 ? undefined : [...new Set([...(fileTokens ?? []), ...modelTokens])];
  let context: RlContext | null = null;
  let counts: ContextCounts | null = null;
  if (view.needsContext) {
    if (options.scratch === undefined) throw new Error(`Internal error: the view ${view.name} reads context, but no scratch directory was given`);
    // Loaded here: they bring zod, which the views without context (and the parallel engine's main) do without.
    const [{ FORMATS }, { expandInputs }, { validate }] = await Promise.all([import("../formats/index.js"), import("../sources/expand-inputs.js"), import("../stages/validate.js")]);
    context = new RlContext();
    const sources = await expandInputs(plan.context, { spoolDir: options.scratch });
    let records = 0;
    let invalid = 0;
    const lines = (async function* () {
      for (const source of sources) yield* source.lines(options.read);
    })();
    for await (const item of validate({ format: FORMATS.rl, forced: true, acceptLaterMinor: options.acceptLaterMinor })(lines)) {
      if (item.kind === "kept") {
        records++;
        context.add(item.value.record as unknown as RlRecord);
      } else if (item.kind === "quarantined") invalid++;
    }
    counts = { inputs: plan.contextNames ?? sources.map((s) => s.name), records, trajectories: context.size, invalid };
  }
  const resolved: ViewOptions = {
    ...(controlTokens === undefined ? {} : { controlTokens }),
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    onInjection: plan.onInjection === "keep" ? "keep" : "drop",
    gamma: plan.gamma,
    ktoLabel: plan.ktoLabel,
    ...(plan.turnWeight === undefined ? {} : { turnWeight: plan.turnWeight }),
    ...(tokens === null ? {} : { tokens }),
  };
  const env = viewEnv(resolved, context, await tokenBudgetOf(resolved, plan.tokenCache ?? null));
  return { view, env, options: resolved, onInjection: plan.onInjection, systemPrompt: systemPrompt !== undefined, extraControlTokens: controlTokens?.length ?? 0, context: counts, tokens };
}
