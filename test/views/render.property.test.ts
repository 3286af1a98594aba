import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RlTuple } from "../../src/formats/rl.js";
import { BUILT_IN_CONTROL_TOKENS } from "../../src/views/control-tokens.js";
import type { ChatMessage } from "../../src/views/chat-message.js";
import { trlPromptCompletion } from "../../src/views/trl-prompt-completion.js";
import { viewEnv } from "../../src/views/view-env.js";
import { rlOf, step } from "./helpers/view-records.js";

/** ChatML as TRL renders a prompt-completion row: the prompt with a generation prompt, then the completion. */
const chatml = (messages: readonly ChatMessage[]) => messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("");
const count = (text: string, token: string) => text.split(token).length - 1;

const token = fc.constantFrom(...BUILT_IN_CONTROL_TOKENS);
const text = fc
  .array(fc.oneof(fc.string({ maxLength: 6 }), token, token.map((t) => t.slice(0, 4)), token.map((t) => t.slice(4)), fc.constantFrom("\u200b", "\u202e", "\n", "user", "assistant")), { maxLength: 6 })
  .map((ps) => ps.join(""));
const window = fc.array(fc.record({ role: fc.constantFrom("dm", "player", "negotiator", "guard", "system"), content: text }), { maxLength: 6 });
const trajectory = fc.array(fc.tuple(window, fc.option(text, { nil: null })), { maxLength: 6 }).map((steps) => rlOf("run-p", steps.map(([w, action], i): RlTuple => step(i, w, action))));

describe("property: random windows with random control tokens", () => {
  it("never yield a row that renders extra template turns", () => {
    fc.assert(
      fc.property(trajectory, fc.boolean(), (record, system) => {
        const { rows } = trlPromptCompletion.rows(record, viewEnv(system ? { systemPrompt: "Negotiate." } : {}));
        for (const row of rows) {
          const rendered = `${chatml(row.prompt)}<|im_start|>assistant\n${row.completion[0]?.content}<|im_end|>\n`;
          expect(count(rendered, "<|im_start|>")).toBe(row.prompt.length + 1);
          expect(count(rendered, "<|im_end|>")).toBe(row.prompt.length + 1);
          for (const m of [...row.prompt, ...row.completion]) expect(BUILT_IN_CONTROL_TOKENS.some((t) => m.content.includes(t))).toBe(false);
          expect(row.prompt.at(-1)?.role).toBe("user");
        }
      }),
      { numRuns: 1500 },
    );
  });
});
