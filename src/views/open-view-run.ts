import { ConfigError } from "../core/errors.js";
import { readOptionFile } from "../core/read-option-file.js";
import type { FormatName } from "../formats/format.js";
import type { RlRecord } from "../formats/rl.js";
import type { Field } from "../schema/column-type.js";
import type { ReadOptions } from "../sources/line-source.js";
import type { TokenCache } from "../tokens/token-cache.js";
import { readTokenSetup } from "../tokens/token-setup.js";
import { parseControlTokens } from "./parse-control-tokens.js";
import { RlContext } from "./rl-context.js";
import type { TextAudit } from "./text-audit.js";
import { tokenBudgetOf } from "./token-budget-of.js";
import type { TurnWeight } from "./turn-weight.js";
import type { AnyView } from "./view.js";
import { viewCard } from "./view-card.js";
import { viewEnv } from "./view-env.js";
import type { ViewOptions } from "./view-env.js";
import { viewManifest } from "./view-manifest.js";
import type { ContextCounts, ViewManifest, ViewSetup } from "./view-manifest.js";
import type { OnInjection } from "./view-records.js";
import { ViewTally } from "./view-tally.js";
import { contextMissing, viewsReading } from "./view-traits.js";
import { viewOf } from "./views.js";

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

/** A view opened for a run whose format is settled: its options, columns, and what the manifest and card say. */
export interface ViewRun {
  readonly view: AnyView;
  /** The options the view's env was resolved from (files read), for engines that resolve it again elsewhere. */
  readonly options: ViewOptions;
  readonly onInjection: OnInjection;
  /** The RL records a DPO view joins against, read; null for the views without. */
  readonly context: RlContext | null;
  readonly columns: readonly Field[];
  /** What the manifest and card count: the engine adds its units' counts to them. */
  readonly tally: ViewTally;
  readonly audit: TextAudit;
  manifest(): ViewManifest;
  card(): { readonly name: string; readonly lines: readonly string[] };
}

/**
 * Opens the view `plan` asks for, for records of `format`: reads what it names (system prompt file,
 * control-token file, `--context` RL records) and resolves the view's environment. Context lines go through
 * the same validate stage as any input (RL, forced); of two records of one run and seat the later scorecard
 * version is kept (`RlContext`); lines that are not valid RL records are counted, not fatal: they only cost
 * the pairs that needed them (`no_context`). A ConfigError when the view reads another format, or, once the
 * format fits, when it needs context that `contextRequired` says the caller must give.
 */
export async function openViewRun(
  plan: ViewRequest,
  format: FormatName,
  o: { readonly scratch?: string; readonly read: ReadOptions; readonly acceptLaterMinor: boolean; readonly inputs?: string; readonly contextRequired: boolean },
): Promise<ViewRun> {
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
    if (o.scratch === undefined) throw new Error(`Internal error: the view ${view.name} reads context, but no scratch directory was given`);
    // Loaded here: they bring zod, which the views without context (and the parallel engine's main) do without.
    const [{ FORMATS }, { expandInputs }, { validate }] = await Promise.all([import("../formats/index.js"), import("../sources/expand-inputs.js"), import("../stages/validate.js")]);
    context = new RlContext();
    const sources = await expandInputs(plan.context, { spoolDir: o.scratch });
    let records = 0;
    let invalid = 0;
    const lines = (async function* () {
      for (const source of sources) yield* source.lines(o.read);
    })();
    for await (const item of validate({ format: FORMATS.rl, forced: true, acceptLaterMinor: o.acceptLaterMinor })(lines)) {
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
  if (view.from !== format) {
    const others = format === "sft" ? "no view reads sft" : `views of ${format}: ${viewsReading(format).join(", ")}`;
    throw new ConfigError(`The view ${view.name} reads ${view.from} records, but ${o.inputs ?? "the inputs"} hold${o.inputs === undefined ? "" : "s"} ${format} records (${others})`);
  }
  if (view.needsContext && o.contextRequired && plan.context.length === 0) throw contextMissing(view.name);
  const tally = new ViewTally();
  const setup: ViewSetup = { view, onInjection: plan.onInjection, systemPrompt: systemPrompt !== undefined, extraControlTokens: controlTokens?.length ?? 0, context: counts, tokens };
  const manifest = (): ViewManifest => viewManifest({ ...setup, counts: tally.counts(), audit: env.audit.summary(), turnWeight: env.turnWeight });
  return {
    view,
    options: resolved,
    onInjection: plan.onInjection,
    context: env.context,
    columns: view.columns,
    tally,
    audit: env.audit,
    manifest,
    card: () => ({ name: view.name, lines: viewCard(view, manifest()) }),
  };
}
