import { mayMatter } from "./text-prefilter.js";

/**
 * The prompt-injection patterns a dataset's texts are scanned for: a small set, documented in
 * docs/views.md, that names what a text carries; it is a count for people, not a filter that claims to
 * catch every injection.
 */
export const INJECTION_PATTERNS = {
  /** "Ignore (all) previous instructions", "disregard the above", "forget all prior …". */
  ignore_previous: /\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|of|every)\s+)*(?:previous|prior|above|earlier|preceding|foregoing)\b/i,
  /** A line starting `SYSTEM:` (or `System override:`, `SYSTEM PROMPT:`, `system message:`). */
  system_line: /^[ \t]*system(?:[ \t]+(?:override|prompt|message|note))?[ \t]*:/im,
  /** A line that is a transcript role header: `Human:`, `Assistant:`, `User:`, `### Assistant:`, `### Instruction:`. */
  role_header: /^[ \t]*(?:#{1,6}[ \t]*(?:system|user|assistant|human|instruction|response|input)\b[ \t]*:?|(?:human|assistant|user|ai)[ \t]*:)/im,
  /**
   * A role written as a tag anywhere: `<|assistant|>`-style text (any `<|name|>`, also what sanitizing leaves
   * of an unknown template), `[assistant]:`, `<system>`, `{{system}}`.
   */
  role_tag: /<\|[a-z_]{2,32}\|>|\[(?:system|user|assistant|human|inst)\][ \t]*:|<\/?(?:system|user|assistant|human|instructions?)>|\{\{\s*(?:system|user|assistant)\s*\}\}/i,
} as const satisfies Record<string, RegExp>;

export type InjectionPattern = keyof typeof INJECTION_PATTERNS;

const NAMES = Object.keys(INJECTION_PATTERNS) as InjectionPattern[];
const NONE: readonly InjectionPattern[] = [];

/**
 * The injection patterns `text` matches, in {@link INJECTION_PATTERNS} order; empty for most texts. The
 * patterns run only on texts the prefilter flags (`mayMatter`: among what it looks for, a tag character, a
 * role word before a `:`, a stem of ignore, disregard or forget), which most texts lack.
 */
export function scanInjection(text: string): readonly InjectionPattern[] {
  if (!mayMatter(text)) return NONE;
  return matchInjection(text);
}

/** The injection patterns `text` matches, for a text the prefilter already flagged. */
export function matchInjection(text: string): readonly InjectionPattern[] {
  return NAMES.filter((name) => INJECTION_PATTERNS[name].test(text));
}
