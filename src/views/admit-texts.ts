import type { Turn } from "./prompt-from-window.js";
import { scanInjection } from "./scan-injection.js";
import type { InjectionPattern } from "./scan-injection.js";
import type { ViewEnv } from "./view-env.js";

/** One text a row is about to carry, at its path in the row (`prompt[].content`). */
export interface RowText {
  readonly path: string;
  readonly text: string;
  readonly changed: boolean;
}

/** The texts of turns at `path`, the system message left out: it is the user's own, not the record's. */
export function turnTexts(path: string, turns: readonly Turn[]): RowText[] {
  return turns.filter((t) => t.role !== "system").map((t) => ({ path, text: t.content, changed: t.changed }));
}

/**
 * Scans a row's texts for injection patterns. When any matches and `onInjection` is `drop`, the row goes
 * (`injection`) and nothing is counted; otherwise every text is counted in the audit and the row is kept.
 */
export function admitTexts(env: ViewEnv, texts: readonly RowText[]): "keep" | "injection" {
  const scans: (readonly InjectionPattern[])[] = texts.map((t) => scanInjection(t.text));
  if (env.onInjection === "drop" && scans.some((s) => s.length > 0)) return "injection";
  for (const [i, t] of texts.entries()) env.audit.add(t.path, t.changed, scans[i] as readonly InjectionPattern[]);
  return "keep";
}
