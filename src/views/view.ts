import type { DpoRecord } from "../formats/dpo.js";
import type { RlRecord } from "../formats/rl.js";
import type { ColumnPlan } from "../parquet/column-plan.js";
import type { Field } from "../schema/column-type.js";
import type { RowOut } from "./leaf-columns.js";
import type { TrainingText } from "./training-text.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResult, ViewWritten } from "./view-result.js";

/** The names of the views (issue 18). */
export const VIEW_NAMES = ["trl-prompt-completion", "trl-kto", "trl-preference", "openai-sft", "openai-dpo", "rl-steps", "trl-stepwise", "trl-prompt-only", "trl-messages"] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** The formats a view reads, with their validated record types. */
export interface ViewInputs {
  readonly rl: RlRecord;
  readonly dpo: DpoRecord;
}

/**
 * A training view: turns one kept, validated record of format `from` into rows, reporting the steps or
 * pairs it left out by reason. Pure apart from `env.audit`, which counts the texts of the rows it returns.
 */
export interface View<From extends keyof ViewInputs = keyof ViewInputs, Row extends Record<string, unknown> = Record<string, unknown>> {
  readonly name: ViewName;
  /** The export format whose records the view reads. */
  readonly from: From;
  /** True when the view also needs RL records as context (`--context`): the DPO views, for prompts. */
  readonly needsContext: boolean;
  /** What one row comes from; names the manifest's tally of those left out (`steps_dropped`, `pairs_dropped`, `episodes_dropped`). */
  readonly unit: "step" | "pair" | "episode";
  /** The rows' columns, typed: messages are lists of `{role, content}` structs, not JSON text. */
  readonly columns: readonly Field[];
  /** The outputs it may be written as: the OpenAI views are JSON Lines only, as the API reads them. */
  readonly outputs: readonly ("parquet" | "jsonl")[];
  /** For the dataset card: TRL's dataset type, the trainer that reads it and the format (conversational unless named), or null. */
  readonly trl: { readonly type: "prompt-completion" | "unpaired preference" | "preference" | "stepwise supervision" | "prompt-only" | "language modeling"; readonly trainer: string; readonly format?: "standard" } | null;
  /** One line for the dataset card and `--help`. */
  readonly description: string;
  rows(record: ViewInputs[From], env: ViewEnv): ViewResult<Row>;
  /** What a row trains on, as chat messages, for counting its tokens (`--tokenizer`); absent: no chat text (`rl-steps`). */
  training?(row: Row): TrainingText;
  /**
   * Optional: the rows `rows` gives, written straight into a row group's leaves laid out by `plan` (the
   * view's columns), entry for entry as shredding them would, without building them as objects first. The
   * parallel engine's workers write with it where a view has it (test/engines/executors-agree.test.ts holds
   * the rows alike).
   * @internal
   */
  readonly write?: (plan: ColumnPlan) => (record: ViewInputs[From], env: ViewEnv, out: RowOut) => ViewWritten;
}

/** Any view, whatever it reads: what a plan holds. */
export type AnyView = View<"rl"> | View<"dpo">;
