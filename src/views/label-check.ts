import type { Checked, TextCheck } from "./sanitize-text.js";

/** Labels longer than this are checked each time: a label is a role or a type name, a few bytes. */
const MAX_LENGTH = 64;
/** Distinct labels remembered; past that, each is checked each time (an export of random labels grows no map). */
const MAX_LABELS = 4096;

/**
 * `check` for short texts that repeat row after row (window roles, action types, seat roles, condition ids):
 * each distinct one is checked once. `check` is pure, so this changes no text and no count.
 */
export function labelCheck(check: TextCheck): TextCheck {
  const known = new Map<string, Checked>();
  return (text) => {
    let checked = known.get(text);
    if (checked !== undefined) return checked;
    checked = check(text);
    if (text.length <= MAX_LENGTH && known.size < MAX_LABELS) known.set(text, checked);
    return checked;
  };
}
