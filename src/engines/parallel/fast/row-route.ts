import type { LeafWriter } from "../../../parquet/leaf-writer.js";
import type { WalkAudit } from "./walk-audit.js";

/**
 * Where a line's row is written, chosen from the line's route key before anything of the row is: a split
 * run's worker writes each row into its split's row group so (run/split-route.ts), instead of into one and
 * moving it once the record's group is known. The parser calls {@link pick} once per line it is given,
 * then writes into {@link out} and hands the walk's audit answers to {@link audit}.
 */
export interface RowRoute {
  /**
   * The line's key (its string at the path the parser was made to route by, as the skeleton holds it), or
   * null when the walk cannot tell it before writing (a line the walk declines).
   * Begins the row where it is to go.
   */
  pick(key: string | null): void;
  /** The leaf writers of the row group {@link pick} chose. */
  readonly out: readonly LeafWriter[];
  /** Where the walk's audit answers for the row go, or null. */
  readonly audit: WalkAudit | null;
}
