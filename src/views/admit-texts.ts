import type { Turn } from "./turn.js";
import { matchInjection, scanInjection } from "./scan-injection.js";
import type { InjectionPattern } from "./scan-injection.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";

/** One text a row is about to carry, at its path in the row (`prompt[].content`). */
export interface RowText {
  readonly path: string;
  readonly text: string;
  readonly changed: boolean;
  /** From the text's check (`ViewEnv.check`): false when no injection pattern can match it, true when one may. */
  readonly inject?: boolean;
}

const NONE: readonly InjectionPattern[] = [];

/** The texts of turns at `path`, the system message left out: it is the user's own, not the record's. */
export function turnTexts(path: string, turns: readonly Turn[]): RowText[] {
  const texts: RowText[] = [];
  for (const t of turns) if (t.role !== "system") texts.push(t.inject === undefined ? { path, text: t.content, changed: t.changed } : { path, text: t.content, changed: t.changed, inject: t.inject });
  return texts;
}

/** The patterns a row's text matches: scanned only when its check did not already clear it. */
export function patternsOf(t: RowText): readonly InjectionPattern[] {
  return t.inject === undefined ? scanInjection(t.text) : t.inject ? matchInjection(t.text) : NONE;
}

/** Counts a text of a kept row in the audit: changed or not, and the patterns it matches. */
export function countText(env: ViewEnv, t: RowText): void {
  env.audit.add(t.path, t.changed, patternsOf(t));
}

/**
 * Scans a row's texts for injection patterns. When any matches and `onInjection` is `drop`, the row goes: it
 * is counted in `result` as `injection`, nothing in the audit, and false is returned; otherwise every text is
 * counted in the audit and the row is kept.
 */
export function admitTexts(env: ViewEnv, result: ViewResultBuilder<unknown>, texts: readonly RowText[]): boolean {
  if (env.onInjection !== "drop") {
    for (const t of texts) countText(env, t);
    return true;
  }
  const scans = texts.map(patternsOf);
  if (scans.some((s) => s.length > 0)) {
    result.drop("injection");
    return false;
  }
  for (const [i, t] of texts.entries()) env.audit.add(t.path, t.changed, scans[i] as readonly InjectionPattern[]);
  return true;
}
