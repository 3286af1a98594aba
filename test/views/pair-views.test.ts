import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { openAiDpo } from "../../src/views/openai-dpo.js";
import { RlContext } from "../../src/views/rl-context.js";
import { trlPreference } from "../../src/views/trl-preference.js";
import { viewEnv } from "../../src/views/view-env.js";
import { RULES_PAIRS, RULES_TRAJECTORY, UNJOINED_PAIRS } from "./helpers/view-fixtures.js";
import { dm, rlOf, step } from "./helpers/view-records.js";

const context = () => {
  const c = new RlContext();
  c.add(RULES_TRAJECTORY);
  return c;
};

describe("trl-preference: a usable DPO pair, its prompt joined from the chosen run's step", () => {
  const env = viewEnv({}, context());
  const result = trlPreference.rows(RULES_PAIRS, env);

  it("drops every pair it cannot use, by reason: never a blank side or a made-up prompt", () => {
    expect(result.rows.map((r) => r.step_index)).toEqual([0, 5]);
    expect(result.dropped).toEqual({ unknown_alignment: 1, null_content: 1, empty_content: 1, chosen_equals_rejected: 1, no_context: 1, no_prompt: 1 });
    expect(result.trimmed).toBe(1);
  });

  it("takes the prompt from the step of run_chosen at the pair's index, same seat", () => {
    expect(result.rows[0]).toEqual({
      prompt: [{ role: "user", content: "Welcome to the dock." }],
      chosen: [{ role: "assistant", content: "Hello." }],
      rejected: [{ role: "assistant", content: "Go away." }],
      run_chosen: "run-1",
      run_rejected: "run-2",
      seat_index: 0,
      step_index: 0,
      campaign_id: "camp-views",
    });
  });

  it("finds no context for another chosen run or another seat", () => {
    for (const record of UNJOINED_PAIRS) expect(trlPreference.rows(record, viewEnv({}, context())).dropped).toEqual({ no_context: 1 });
  });

  it("counts the texts of the rows it writes per output path", () => {
    expect(Object.keys(env.audit.summary())).toEqual(["chosen[].content", "prompt[].content", "rejected[].content"]);
    expect(env.audit.summary()["chosen[].content"]).toEqual({ values: 2, changed: 0, injected: 0, patterns: {} });
  });

  it("refuses to run without context", () => {
    expect(() => trlPreference.rows(RULES_PAIRS, viewEnv())).toThrow(ConfigError);
  });
});

describe("openai-dpo: only input.messages, preferred_output, non_preferred_output", () => {
  it("writes the same pairs in the OpenAI shape", () => {
    const r = openAiDpo.rows(RULES_PAIRS, viewEnv({}, context()));
    expect(r.rows).toHaveLength(2);
    expect(r.rows[0]).toEqual({
      input: { messages: [{ role: "user", content: "Welcome to the dock." }] },
      preferred_output: [{ role: "assistant", content: "Hello." }],
      non_preferred_output: [{ role: "assistant", content: "Go away." }],
    });
    for (const row of r.rows) {
      expect(Object.keys(row)).toEqual(["input", "preferred_output", "non_preferred_output"]);
      expect(Object.keys(row.input)).toEqual(["messages"]);
      expect(row.input.messages.at(-1)?.role).toBe("user");
    }
  });
});

describe("RL context", () => {
  it("keeps the highest scorecard version of a run and seat", () => {
    const c = new RlContext();
    c.add(rlOf("run-9", [step(0, [dm("v2")], "a")], { scorecard_version: 2 }));
    c.add(rlOf("run-9", [step(0, [dm("v1")], "a")], { scorecard_version: 1 }));
    expect(c.step("run-9", 0, 0)?.window).toEqual([dm("v2")]);
    c.add(rlOf("run-9", [step(0, [dm("v3")], "a")], { scorecard_version: 3 }));
    expect(c.step("run-9", 0, 0)?.window).toEqual([dm("v3")]);
    expect(c.step("run-9", 1, 0)).toBeUndefined();
    expect(c.size).toBe(1);
  });

  it("says whose messages are own by the context seat's role", () => {
    const c = new RlContext();
    c.add(rlOf("run-8", [step(0, [dm("Hi."), { role: "guard", content: "Mine." }, dm("Go on.")], "a")], { seat: { seat_index: 0, role: "guard", agent_key_id: null } }));
    const r = trlPreference.rows({ ...RULES_PAIRS, run_chosen: "run-8", pairs: [{ index: 0, chosen: { action_type: "s", content: "x" }, rejected: { action_type: "s", content: "y" }, alignment: "step_index" }] }, viewEnv({}, c));
    expect(r.rows[0]?.prompt.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});
