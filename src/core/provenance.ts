/** Where a line came from: kept on every record until it is written or quarantined. */
export interface Provenance {
  /** The input as the user named it (a path, or "-" for stdin). */
  readonly source: string;
  /** 1-based line number within the (decompressed) input. */
  readonly line: number;
  /** Byte offset of the line's first byte within the (decompressed) input. */
  readonly offset: number;
}

/** A line's provenance on a unit's thread, which does not know it: main gives it from the line's place in its batch. */
export const NO_PROVENANCE: Provenance = { source: "", line: 0, offset: 0 };
