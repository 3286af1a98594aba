import type { RlRecord, RlTuple } from "../formats/rl.js";
import type { Utf8Range } from "./utf8-range.js";

/**
 * An RL step as `rl-steps` reads it: a window text, an action's content or the observation may be the UTF-8
 * bytes the parallel engine's walk read (fast/view-reads.ts `VIEW_BYTE_READS`, the skeleton's JSON values)
 * in place of the string or parsed value a validated record holds. A validated record's step is one.
 */
export interface RlStepsTuple extends Omit<RlTuple, "state" | "action"> {
  readonly state: {
    readonly observation: RlTuple["state"]["observation"] | Utf8Range;
    readonly transcript_window: readonly { readonly role: string; readonly content: string | Utf8Range }[];
  };
  readonly action: { readonly action_type: string; readonly content: string | Utf8Range | null } | null;
}

/** An RL record as `rl-steps` reads it: its steps as {@link RlStepsTuple}. A validated record is one. */
export interface RlStepsRecord extends Omit<RlRecord, "tuples"> {
  readonly tuples: readonly RlStepsTuple[];
}
