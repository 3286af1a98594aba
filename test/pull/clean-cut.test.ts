import { describe, expect, it } from "vitest";
import { byKey, clientFor, emulator, readAll, source } from "./support.js";

// An owner bulk stream that ends cleanly at a line boundary between two seats of one run looks whole
// (spec 4.8 gives the stream no end marker and no seat count): the run must not count as delivered with
// seats missing. The emulator's `end` fault ends a stream so.

interface Line {
  run_id: string;
  scenario: { campaign_id: string };
  seat: { seat_index: number };
}

describe("a bulk stream cut cleanly between two seats of one run", () => {
  it.each(["sft", "rl"] as const)("owner %s: the later seats are fetched; the pull equals an uncut one", async (format) => {
    const emu = await emulator({ seed: 41, runs: 120 });
    const whole = source(emu, { auth: "owner", format });
    const expected = byKey(await readAll(whole));

    // Find, in one campaign's stream, a line whose run is the same as the line before it.
    const owner = clientFor(emu, "owner");
    const campaigns = [...new Set([...expected.values()].map((l) => (JSON.parse(l) as Line).scenario.campaign_id))];
    let target: { campaign: string; at: number; runId: string } | undefined;
    for (const campaign of campaigns) {
      const lines: Line[] = [];
      for await (const l of owner.getNdjson(`/api/evals/finetuning${format === "rl" ? "/rl" : ""}`, { limit: 500, campaign_id: campaign })) lines.push(JSON.parse(l) as Line);
      // Not the stream's first run: a cut there would leave the whole stream to the per-run fetches.
      const at = lines.findIndex((l, i) => i > 2 && lines[i - 1]?.run_id === l.run_id && expected.has(`${l.run_id}#${l.seat.seat_index}`));
      if (at > 0) {
        target = { campaign, at, runId: lines[at]?.run_id as string };
        break;
      }
    }
    if (target === undefined) throw new Error("seed 41 has no multi-seat run to cut: pick another seed");

    emu.aimFault({ kind: "end", path: new RegExp(`campaign_id=${target.campaign}`), at: target.at });
    const cut = source(emu, { auth: "owner", format });
    const got = byKey(await readAll(cut));
    expect(emu.faultLog.some((f) => f.kind === "end" && f.aimed)).toBe(true);
    const missing = [...expected.keys()].filter((k) => !got.has(k));
    expect(missing).toEqual([]);
    expect(got).toEqual(expected);
  });
});
