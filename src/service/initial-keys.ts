import type { Scope } from "./accounts.js";

/** A key that exists when the emulator starts. */
export interface InitialKey {
  readonly name: string;
  readonly account: number;
  readonly scopes: readonly Scope[];
  /** Handed out (with its secret) in the serve line and `RunningEmulator.apiKeys`. */
  readonly exposed: boolean;
  /** How the key is seated: as a candidate for its home slot, or as a filler for free slots. */
  readonly seat: { readonly weight: number; readonly primary: boolean } | "filler";
}

/**
 * The starting keys, in creation order (which fixes their ids). The exposed ones cover the cases a
 * client must handle: all scopes with `rl_dpo_export` (seated in most runs of the first account),
 * `play` only, `read:scores` without `rl_dpo_export` (second account), and `read:scores` without `play`.
 */
export const INITIAL_KEYS: readonly InitialKey[] = [
  { name: "primary-agent", account: 0, scopes: ["play", "read:scores", "manage:runs"], exposed: true, seat: { weight: 0.65, primary: true } },
  { name: "play-only", account: 0, scopes: ["play"], exposed: true, seat: { weight: 0.35, primary: false } },
  { name: "partner-scores", account: 1, scopes: ["play", "read:scores"], exposed: true, seat: { weight: 0.7, primary: true } },
  { name: "scores-only", account: 0, scopes: ["read:scores"], exposed: true, seat: { weight: 0.35, primary: false } },
  { name: "baseline-agent", account: 0, scopes: ["play", "read:scores"], exposed: false, seat: "filler" },
  { name: "teammate-agent", account: 0, scopes: ["play", "read:scores"], exposed: false, seat: "filler" },
  { name: "sparring-agent", account: 0, scopes: ["play"], exposed: false, seat: "filler" },
  { name: "partner-baseline", account: 1, scopes: ["play", "read:scores"], exposed: false, seat: "filler" },
  { name: "partner-teammate", account: 1, scopes: ["play"], exposed: false, seat: "filler" },
  { name: "partner-sparring", account: 1, scopes: ["play"], exposed: false, seat: "filler" },
];
