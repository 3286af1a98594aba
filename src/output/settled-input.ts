import type { FormatBasics } from "../formats/format.js";

/** What the engine's first read settled, before any row is written. */
export interface SettledInput {
  readonly format: FormatBasics;
  /** Distinct record keys in the inputs. */
  readonly keys: number;
  /** The split names, in order, when the plan splits (`--split`): every row's origin names one. */
  readonly splits?: readonly string[];
}
