import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/flow.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// A usage error names the real problem first: a DPO view given RL records is told the input is RL, not asked
// for a --context it could not use; a DPO view given DPO records without --context is asked for it, with the
// format detected or forced, on either executor.
const RL = `${FIXTURES}records/views-rl.ndjson`;
const DPO = `${FIXTURES}records/views-dpo.ndjson`;
const root = tempDir("evalshard-view-usage-");
let n = 0;

const cases: [string, string[], RegExp][] = [
  ["RL input: the format, first", [RL], /reads dpo records, but the inputs hold rl records/],
  ["DPO input, detected: the context", [DPO], /give the RL export with --context/],
  ["DPO input, forced: the context", [DPO, "--format", "dpo"], /give the RL export with --context/],
];

describe("convert --view trl-preference without --context", () => {
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const r = await spawnCli(["convert", ...args, "--view", "trl-preference", "--out", join(root, `out-${n++}`)]);
      expect(r.stderr).toMatch(message);
      expect(r.status).toBe(2);
    });
  }

  it("validate asks for the context too", async () => {
    const r = await spawnCli(["validate", DPO, "--view", "trl-preference"]);
    expect(r.stderr).toMatch(/give the RL export with --context/);
    expect(r.status).toBe(2);
  });
});
