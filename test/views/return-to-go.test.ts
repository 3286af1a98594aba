import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { returnToGo, stepReward } from "../../src/views/return-to-go.js";

const rewards = fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { maxLength: 40 });
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-9 * Math.max(1, Math.abs(a), Math.abs(b)));

describe("return to go", () => {
  it("sums a step's reward and every later one's, undiscounted by default", () => {
    expect(returnToGo([0.1, 0.2, 0.3])).toEqual([0.1 + (0.2 + 0.3), 0.2 + 0.3, 0.3]);
    expect(returnToGo([])).toEqual([]);
  });

  it("discounts by gamma: G_t = r_t + gamma * G_{t+1}", () => {
    expect(returnToGo([1, 1, 1], 0.5)).toEqual([1.75, 1.5, 1]);
  });

  it("adds the terminal reward where there is one", () => {
    expect(stepReward({ checks_passed: 0, checks_failed: 0, conditions_met: [], scalar_reward: 0.1, progress_delta: 0, terminal_reward: 0.9 })).toBe(1);
    expect(stepReward({ checks_passed: 0, checks_failed: 0, conditions_met: [], scalar_reward: 0.1, progress_delta: 0, terminal_reward: null })).toBe(0.1);
  });

  it("property: the last step's return is its reward; G_t - gamma * G_{t+1} = r_t", () => {
    fc.assert(
      fc.property(rewards, fc.double({ min: 0, max: 1, noNaN: true }), (r, gamma) => {
        const g = returnToGo(r, gamma);
        expect(g).toHaveLength(r.length);
        if (r.length > 0) close(g.at(-1)!, r.at(-1)!);
        for (let t = 0; t + 1 < r.length; t++) close(g[t]! - gamma * g[t + 1]!, r[t]!);
      }),
    );
  });

  it("property: undiscounted, the first step's return is the trajectory's total; gamma 0 gives each step's own reward", () => {
    fc.assert(
      fc.property(rewards, (r) => {
        if (r.length > 0) close(returnToGo(r)[0]!, r.reduce((a, b) => a + b, 0));
        expect(returnToGo(r, 0)).toEqual(r.map((x) => x + 0));
      }),
    );
  });
});
