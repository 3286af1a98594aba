import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { tempDir } from "../helpers/temp-dir.js";

const RL = fileURLToPath(new URL("../../fixtures/records/views-rl.ndjson", import.meta.url));
const root = tempDir("evalshard-text-audit-");

describe("the text scan of plain (non-view) outputs", () => {
  it("counts, per kept path, texts with control tokens and injection patterns; the manifest carries it", async () => {
    const { manifest } = await convert({ inputs: [RL], out: join(root, "keep"), workers: 0, untrusted: { "tuples[].state.transcript_window[].content": "keep" } });
    expect(manifest.text_audit).toMatchObject({
      // run-a (8 window messages) and run-b (6): every message carries raw ChatML tokens (a role tag, raw),
      // each of the 11 DM messages the injection too. Actions: 9 (one is null).
      "tuples[].state.transcript_window[].content": { values: 14, changed: 14, injected: 14, patterns: { ignore_previous: 11, role_tag: 14 } },
      "tuples[].action.content": { values: 9 },
    });
    // Dropped by the default policy: not in the dataset, not counted.
    const { manifest: dropped } = await convert({ inputs: [RL], out: join(root, "drop"), workers: 0 });
    // (The fixture's observations hold no text: a path with no text has no entry.)
    expect(Object.keys(dropped.text_audit ?? {})).toEqual(["tuples[].action.content"]);
  });

  it("is in a default convert's manifest too (worker threads), the same as on main's thread", async () => {
    const untrusted = { "tuples[].state.transcript_window[].content": "keep" };
    const { manifest } = await convert({ inputs: [RL], out: join(root, "threads"), workers: 2, untrusted });
    expect(manifest.output.engine).toBe("parallel");
    const { manifest: main } = await convert({ inputs: [RL], out: join(root, "main"), workers: 0, untrusted });
    expect(manifest.text_audit).toEqual(main.text_audit);
    expect(manifest.text_audit?.["tuples[].state.transcript_window[].content"]).toMatchObject({ values: 14, changed: 14, injected: 14 });
  });
});
