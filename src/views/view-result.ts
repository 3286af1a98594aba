/** Why a step or a pair gave no row. */
export const VIEW_DROP_REASONS = [
  /** RL: a `blocked_or_idle` step, or one without an action. */
  "no_action",
  /** An action (RL) or a pair side (DPO) whose `content` is null. */
  "null_content",
  /** A content that is blank once sanitized. */
  "empty_content",
  /** DPO: both sides say the same once sanitized: nothing to prefer. */
  "chosen_equals_rejected",
  /** DPO: no RL step of `run_chosen`, same seat, at the pair's index among the context records. */
  "no_context",
  /** DPO: an `alignment` other than `step_index`, which no join rule is known for. */
  "unknown_alignment",
  /** The window leaves no `user` message to answer. */
  "no_prompt",
  /** An episode view: no assistant turn to train on is left in the seat's episode (with a turn weight, none weighs 1). */
  "no_turns",
  /** A text matched an injection pattern and `onInjection` is `drop`. */
  "injection",
  /** `--max-tokens`: the row's rendered training text is over the budget (never truncated). */
  "over_token_budget",
  /** `--tokenizer`: the rendered prompt is not a prefix of the rendered prompt plus completion. */
  "template_boundary_mismatch",
] as const;
export type ViewDropReason = (typeof VIEW_DROP_REASONS)[number];

/** What a view made of one record: its rows and the steps or pairs it left out. */
export interface ViewResult<Row> {
  readonly rows: readonly Row[];
  /** Steps (RL views) or pairs (DPO views) that gave no row, by reason. */
  readonly dropped: Readonly<Partial<Record<ViewDropReason, number>>>;
  /** Rows written whose prompt lost own messages at its start or end. */
  readonly trimmed: number;
  /** With a tokenizer (`viewRows`): each row's training-text tokens, in row order. */
  readonly tokens?: readonly number[];
  /** With a nightly dataset's token cache: the rows judged from it, neither rendered nor counted again. */
  readonly cached?: number;
}

/** What a view's `write` made of one record: as {@link ViewResult}, with the rows written counted. */
export type ViewWritten = Omit<ViewResult<never>, "rows" | "cached"> & { readonly rows: number };

/** Collects a {@link ViewResult} while a view walks a record. */
export class ViewResultBuilder<Row> {
  readonly rows: Row[] = [];
  readonly dropped: Partial<Record<ViewDropReason, number>> = {};
  trimmed = 0;

  drop(reason: ViewDropReason): void {
    this.dropped[reason] = (this.dropped[reason] ?? 0) + 1;
  }

  result(): ViewResult<Row> {
    return { rows: this.rows, dropped: this.dropped, trimmed: this.trimmed };
  }

  /** The counts of a `write` that wrote `rows` rows (and kept none here). */
  written(rows: number): ViewWritten {
    return { rows, dropped: this.dropped, trimmed: this.trimmed };
  }
}
