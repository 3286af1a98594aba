import type { z } from "zod";
import type { Format } from "../formats/format.js";
import type { FilterRule } from "../core/reasons.js";
import type { ReadOptions } from "../sources/line-source.js";
import type { SuiteBook } from "../formats/suite-book.js";
import type { GateBook } from "../formats/gate-book.js";
import type { GateBy } from "../formats/card-gate.js";
import type { ScoreBook } from "../formats/scorecard-book.js";
import type { SelectionPlan } from "../stages/select-plan.js";

/**
 * Options of the library's `planPipeline` and `runPipeline`: `convert`'s rules. `F`, the format named by `format`,
 * types the records that come out; without it they are plain objects.
 */
export interface PipelineOptions<F extends Format<z.ZodType, string> = Format> {
  /** Force the format instead of detecting it from the first record. */
  readonly format?: F;
  readonly acceptLaterMinor?: boolean;
  readonly read?: ReadOptions;
  readonly filters?: Partial<Record<FilterRule, boolean>>;
  /** The scorecards' gating (src/formats/gate-book.ts); without it no record is gated. */
  readonly gates?: GateBook;
  /** Gate a seat by its own card (default) or the whole run by any of its cards. */
  readonly gateBy?: GateBy;
  /** Valid scorecards by seat: RL and DPO scores for the selection's thresholds. */
  readonly scores?: ScoreBook;
  /** The released benchmark suites (src/formats/suite-book.ts); without it nothing is decontaminated. */
  readonly suites?: SuiteBook;
  /** Which seats to keep (src/stages/select.ts); what is left out is the default (agent seats only). */
  readonly selection?: Partial<SelectionPlan>;
  /** Untrusted-path overrides, path -> drop | redact | keep. */
  readonly untrusted?: Readonly<Record<string, string>>;
  /** false: leave records whole for a training view, which emits its own sanitized texts (issue 18). */
  readonly strip?: false;
}
