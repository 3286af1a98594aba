import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLineParser } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { FORMATS } from "../../../../src/formats/index.js";
import { RECORD_RULES } from "../../../../src/formats/record-rules.js";
import { resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";
import type { FormatName } from "../../../../src/formats/format.js";
import { dpoArb, rlArb, sftArb } from "../../../helpers/arbitraries.js";
import { subject } from "./helpers/differential.js";
import { random, spell, BENIGN, unusual } from "./helpers/json-spelling.js";
import { recorders } from "./helpers/recording-writer.js";
import { sftRecord } from "../../../helpers/records.js";

type Tuple = { index: number; kind: string; reward: { terminal_reward: number | null } };

/** Valid RL records, some with trajectory faults: shuffled indexes, terminal rewards on other steps, other kinds. */
const rlFaultyArb = fc.tuple(rlArb, fc.integer()).map(([record, seed]) => {
  const rnd = random(seed);
  const tuples = (record as { tuples: Tuple[] }).tuples;
  for (const t of tuples) {
    if (rnd() < 0.2) t.index = Math.floor(rnd() * 4);
    if (rnd() < 0.2) t.kind = t.kind === "action" ? "blocked_or_idle" : "action";
    if (rnd() < 0.2) t.reward.terminal_reward = t.reward.terminal_reward === null ? rnd() : null;
  }
  return record;
});
/** Valid DPO records, sometimes pairing a run with itself. */
const dpoFaultyArb = fc.tuple(dpoArb, fc.boolean()).map(([record, same]) => (same ? { ...record, run_rejected: (record as { run_chosen: string }).run_chosen } : record));

const ARBS: Readonly<Record<FormatName, fc.Arbitrary<object>>> = { sft: sftArb, rl: fc.oneof(rlArb, rlFaultyArb), dpo: fc.oneof(dpoArb, dpoFaultyArb) };

describe("the skeleton stands in for the record in facts() and check()", () => {
  for (const name of ["sft", "rl", "dpo"] as const) {
    it(`${name}: facts(skeleton) and check(skeleton) deep-equal facts(record) and check(record), with the full skeleton and with just what the rules read`, () => {
      const format = FORMATS[name];
      const { parser, policy } = subject(format);
      // The parallel engine's parser: a skeleton of RECORD_RULES[name].reads only.
      const reading = compileLineParser(format, policy, RECORD_RULES[name].reads);
      let faults = 0;
      fc.assert(
        fc.property(ARBS[name], fc.integer(), (input, seed) => {
          const line = spell(input, random(seed), BENIGN);
          const record = format.schema.parse(JSON.parse(line));
          for (const p of [parser, reading]) {
            const skeleton = p.parse(Buffer.from(line), 0, Buffer.byteLength(line), recorders(p.plan.leaves.length));
            if (skeleton === null) {
              expect(unusual(input)).toBe(true);
              return;
            }
            expect(format.facts(skeleton as never)).toEqual(format.facts(record));
            expect(format.check(skeleton as never)).toEqual(format.check(record));
          }
          if (format.check(record) !== null) faults++;
        }),
        { numRuns: 300 },
      );
      if (name !== "sft") expect(faults).toBeGreaterThan(3);
    });
  }

  // Strings inside lists were left out too until the DPO pair rules read `pairs[].alignment` and `content`.
  it("leaves out JSON-typed values, keeps strings and enums inside lists", () => {
    const line = '{"rl_format_version":"1.0","run_id":"r","scenario":{"campaign_id":"c","seed":1,"win_conditions":[{"id":"w","description":"d"}]},"seat":{"seat_index":0,"role":"x","agent_key_id":null},"scored":true,"flagged":false,"scorecard_version":1,"reconstruction":"no_session","tuples":[{"index":0,"kind":"action","state":{"observation":{"a":1},"transcript_window":[{"role":"dm","content":"hi"}]},"action":{"action_type":"say","content":"x"},"reward":{"checks_passed":1,"checks_failed":0,"conditions_met":["w"],"scalar_reward":0.5,"progress_delta":0,"terminal_reward":1}}],"outcome":{"dm_messages":["m"]}}';
    const { parser } = subject(FORMATS.rl);
    expect(parser.parse(Buffer.from(line), 0, line.length, recorders(parser.plan.leaves.length))).toEqual({
      rl_format_version: "1.0",
      run_id: "r",
      scenario: { campaign_id: "c", seed: 1, win_conditions: [{ id: "w" }] },
      seat: { seat_index: 0, role: "x", agent_key_id: null },
      scored: true,
      flagged: false,
      scorecard_version: 1,
      reconstruction: "no_session",
      tuples: [
        {
          index: 0,
          kind: "action",
          // `content` is untrusted: never in a skeleton.
          state: { transcript_window: [{ role: "dm" }] },
          action: { action_type: "say", content: "x" },
          reward: { checks_passed: 1, checks_failed: 0, conditions_met: ["w"], scalar_reward: 0.5, progress_delta: 0, terminal_reward: 1 },
        },
      ],
    });
  });

  it("with the rules' reads, holds just those paths", () => {
    const line = JSON.stringify(sftRecord({ run_id: "r", coaching: { weak_traits: ["t"], guidance: "g" } }));
    const record = FORMATS.sft.schema.parse(JSON.parse(line)) as { scenario: { campaign_id: string }; seat: { seat_index: number; role: string; agent_key_id: string | null }; scorecard_version: number; flagged: boolean; scored: boolean; reconstruction: string };
    const parser = compileLineParser(FORMATS.sft, resolveUntrustedPolicy(FORMATS.sft, { run_id: "drop" }), RECORD_RULES.sft.reads);
    expect(parser.parse(Buffer.from(line), 0, Buffer.byteLength(line), recorders(parser.plan.leaves.length))).toEqual({
      run_id: "r",
      scenario: { campaign_id: record.scenario.campaign_id },
      seat: { seat_index: record.seat.seat_index, role: record.seat.role, agent_key_id: record.seat.agent_key_id },
      scorecard_version: record.scorecard_version,
      flagged: record.flagged,
      scored: record.scored,
      reconstruction: record.reconstruction,
      scores: { outcomes: { met_count: 1, total_checks: 4, total_actions: 12 } },
    });
    const rl = '{"rl_format_version":"1.0","run_id":"r","scenario":{"campaign_id":"c","seed":1,"win_conditions":[]},"seat":{"seat_index":0,"role":"x","agent_key_id":null},"scored":true,"flagged":false,"scorecard_version":1,"reconstruction":"no_session","tuples":[{"index":0,"kind":"action","state":{"observation":{},"transcript_window":[]},"action":null,"reward":{"checks_passed":1,"checks_failed":0,"conditions_met":[],"scalar_reward":0.5,"progress_delta":0,"terminal_reward":1}}],"outcome":{"dm_messages":[]}}';
    const rlParser = compileLineParser(FORMATS.rl, resolveUntrustedPolicy(FORMATS.rl, {}), RECORD_RULES.rl.reads);
    expect(rlParser.parse(Buffer.from(rl), 0, rl.length, recorders(rlParser.plan.leaves.length))).toEqual({
      run_id: "r",
      scenario: { campaign_id: "c" },
      seat: { seat_index: 0, role: "x", agent_key_id: null },
      scored: true,
      flagged: false,
      scorecard_version: 1,
      reconstruction: "no_session",
      tuples: [{ index: 0, kind: "action", action: null, reward: { checks_passed: 1, checks_failed: 0, terminal_reward: 1 } }],
    });
  });

  it("refuses reads the schema does not have", () => {
    const policy = resolveUntrustedPolicy(FORMATS.rl, {});
    expect(() => compileLineParser(FORMATS.rl, policy, ["tuples[].rewards"])).toThrow(/tuples\[\]\.rewards, which the schema does not have/);
    expect(() => compileLineParser(FORMATS.rl, policy, ["run_id.length"])).toThrow(/run_id\.length, but run_id holds a string/);
  });

  it("leaves out the text the spec calls untrusted (no rule reads it), whatever the policy", () => {
    const line = JSON.stringify(sftRecord({ coaching: { weak_traits: ["t"], guidance: "untrusted advice" } }));
    for (const action of ["drop", "redact", "keep"]) {
      const { parser } = subject(FORMATS.sft, { "coaching.guidance": action });
      // `weak_traits` (a list of strings) is in the full skeleton; `guidance` never is.
      expect(parser.parse(Buffer.from(line), 0, Buffer.byteLength(line), recorders(parser.plan.leaves.length)), action).toMatchObject({ coaching: { weak_traits: ["t"] } });
      expect(parser.parse(Buffer.from(line), 0, Buffer.byteLength(line), recorders(parser.plan.leaves.length)), action).not.toHaveProperty("coaching.guidance");
    }
  });

  it("keeps what the rules read when a policy drops it from the output", () => {
    const record = sftRecord({ run_id: "run-kept-for-dedup" });
    const line = JSON.stringify(record);
    const { parser } = subject(FORMATS.sft, { run_id: "drop", "seat.seat_index": "drop", flagged: "drop", reconstruction: "drop" });
    const skeleton = parser.parse(Buffer.from(line), 0, Buffer.byteLength(line), recorders(parser.plan.leaves.length));
    expect(skeleton).not.toBeNull();
    expect(FORMATS.sft.facts(skeleton as never)).toEqual(FORMATS.sft.facts(FORMATS.sft.schema.parse(record)));
  });

  it("carries nothing over from a line it gave up on half way", () => {
    const { parser } = subject(FORMATS.sft);
    const out = () => recorders(parser.plan.leaves.length);
    const broken = JSON.stringify(sftRecord()).replace('"transcript":[', '"transcript":[01');
    expect(parser.parse(Buffer.from(broken), 0, Buffer.byteLength(broken), out())).toBeNull();
    const line = JSON.stringify(sftRecord({ manifest: undefined }));
    expect(parser.parse(Buffer.from(line), 0, Buffer.byteLength(line), out())?.manifest).toBeUndefined();
  });
});
