import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// The bundled emulator's generated data must hold the spec's own rules (issue 20): faults come only where a test
// asks for them. Seed 7, 600 runs used to give two SFT records with `met_count` over `total_checks` a night
// (win conditions met on steps of fewer checks), quarantined as `count_out_of_range`.
describe("the emulator's data is spec-valid", () => {
  it("evalshard demo (seed 7, 600 runs, two nights): nothing quarantined in any pipeline", { timeout: 180_000 }, async () => {
    const out = join(tempDir("evalshard-spec-valid-"), "demo");
    const r = await spawnCli(["demo", "--out", out, "--runs", "600", "--seed", "7"]);
    expect(r.status, r.stderr).toBe(0);
    for (const name of ["nightly-sft", "nightly-rl", "nightly-dpo"]) {
      const manifest = JSON.parse(readFileSync(join(out, name, "manifest.json"), "utf8")) as { records_in: number; quarantined: Record<string, number> };
      expect(manifest.records_in, name).toBeGreaterThan(0);
      expect({ name, quarantined: manifest.quarantined }).toEqual({ name, quarantined: {} });
    }
  });
});
