import type { z } from "zod";
import type { dpo } from "./dpo.js";
import type { Format } from "./format.js";
import type { rl } from "./rl.js";
import type { sft } from "./sft.js";

/**
 * `T` with the fields at the paths `P` (path syntax: `coaching.guidance`, `tuples[].state.transcript_window[].content`)
 * made optional: what the strip stage leaves of a record, as the untrusted-text policy may drop those fields
 * (`drop`), replace their text (`redact`) or keep them.
 */
export type Stripped<T, P extends string> = [P] extends [never] ? T : T extends readonly (infer I)[] ? Stripped<I, P>[] : T extends object ? StrippedObject<T, P> : T;

type StrippedObject<T, P extends string> = Simplify<
  { [K in keyof T as K extends LeafOf<P> ? never : K]: K extends string ? Stripped<T[K], RestOf<P, K>> : T[K] } & {
    [K in keyof T as K extends LeafOf<P> ? K : never]?: T[K];
  }
>;

/** The field names the paths end at, at this level. */
type LeafOf<P extends string> = P extends `${string}.${string}` ? never : P extends `${infer H}[]` ? H : P;
/** The paths below field `K`. */
type RestOf<P extends string, K extends string> = P extends `${K}.${infer R}` ? R : P extends `${K}[].${infer R}` ? R : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** A format's record type (its schema's output); a plain object for the generic `Format` (a detected format). */
export type RecordOf<F> = F extends Format<infer S, string> ? (z.ZodType extends S ? Record<string, unknown> : z.output<S> & object) : never;

/** A format's record type after the strip stage: its untrusted paths may be gone (dropped) or redacted. */
export type StrippedRecordOf<F> = F extends Format<infer S, infer U> ? (z.ZodType extends S ? Record<string, unknown> : Stripped<z.output<S>, U> & object) : never;

/** An SFT record after the strip stage (`coaching.guidance`, `scores.win_conditions[].description`, `transcript` optional). */
export type StrippedSftRecord = StrippedRecordOf<typeof sft>;
/** An RL record after the strip stage (its untrusted texts optional). */
export type StrippedRlRecord = StrippedRecordOf<typeof rl>;
/** A DPO record after the strip stage (its untrusted texts optional). */
export type StrippedDpoRecord = StrippedRecordOf<typeof dpo>;
