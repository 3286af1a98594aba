/** What a convert has just finished, for progress on a terminal and JSON log lines elsewhere (as a night's phases). */
export type ConvertPhase =
  | { readonly phase: "opened"; readonly inputs: number }
  | { readonly phase: "converted"; readonly engine: string; readonly records_in: number; readonly records_out: number; readonly quarantined: number; readonly stream_errors: number }
  | { readonly phase: "published"; readonly published: boolean; readonly shards: number; readonly records_out: number; readonly written_to: string };

/** Hooks of a convert: each phase as it ends. */
export interface ConvertHooks {
  readonly onPhase?: (phase: ConvertPhase) => void;
}
