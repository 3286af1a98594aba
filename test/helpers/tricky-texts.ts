import fc from "fast-check";
import { BUILT_IN_CONTROL_TOKENS } from "../../src/views/control-tokens.js";

/** Pieces of what the text scan looks for (tokens, injection words, role words, tag and control characters), in any case. */
export const PIECES = [
  ...BUILT_IN_CONTROL_TOKENS,
  "<|tok|>", "<<MY>>", "<|reserved_special_token_12|>", "<|placeholder3|>", "[control_8]", "<unused0>", "<｜place▁holder▁no▁5｜>", "<|reserved_200013|>", "<|placeholder", "7|>", "<｜",
  "ignore", "IGNORE", "Disregard", "forGet", "all", "the", "previous", "PRIOR", "above",
  "ignore previous", "IGNORE ALL PRIOR", "disregard the above", "Forget earlier", " the ", "\nSystem:", "Human:", "### ",
  "system", "SYSTEM", "System", "override", "prompt", "message", "note", "human", "Assistant", "user", "AI", "ai",
  ":", "#", "###", "<", ">", "</", "[", "]", "{", "{{", "}}", "|", "/", " ", "\t", "\n", "\r", "x", "é", "ſ", "K",
  "\u0000", "\u0007", "\u007f", "\u0085", "\u180e", "\u200b", "\u200c", "\u200d", "\u202e", "\u2066", "\u2060", "\ufeff", "\udb40\udc41", "👨", "\u2600",
];
/** Texts joined from those pieces and short random strings. */
export const trickyText: fc.Arbitrary<string> = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 }), fc.constantFrom(...PIECES).map((p) => p.toUpperCase())), { maxLength: 12 }).map((ps) => ps.join(""));

