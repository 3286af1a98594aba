import { describe, expect, it } from "vitest";
import { checkTrajectory, rl } from "../../src/formats/rl.js";
import type { RlRecord } from "../../src/formats/rl.js";
import { fixtureLines } from "../helpers/flow.js";

const parse = (text: string) => rl.schema.parse(JSON.parse(text)) as RlRecord;

describe("RL rl_format_version 1.0", () => {
  it("accepts the fixture trajectories", () => {
    for (const line of fixtureLines("records/rl-valid.ndjson")) expect(rl.check(parse(line.text))).toBeNull();
  });

  describe("invalid_trajectory", () => {
    const [ok, gap, early, idle] = fixtureLines("records/rl-invalid-trajectory.ndjson").map((l) => parse(l.text));
    it("accepts indexes 0..n-1 with the terminal reward on the last action step", () => {
      expect(checkTrajectory(ok!.tuples)).toBeNull();
    });
    it("rejects indexes out of order", () => {
      expect(checkTrajectory(gap!.tuples)?.detail).toMatch(/tuples\[1\]\.index is 2, expected 1/);
    });
    it("rejects a terminal reward before the last action step", () => {
      expect(checkTrajectory(early!.tuples)?.detail).toMatch(/tuples\[0\]/);
    });
    it("rejects a terminal reward on a non-action step after the last action", () => {
      expect(checkTrajectory(idle!.tuples)?.reason).toBe("invalid_trajectory");
    });
    it("accepts an empty trajectory", () => {
      expect(checkTrajectory([])).toBeNull();
    });
  });

  it("declares the untrusted fields the spec names, so a policy can act on them", () => {
    expect(rl.untrustedPaths).toContain("tuples[].state.transcript_window[].content");
    expect(rl.columns.map((c) => c.name)).toContain("outcome");
  });
});
