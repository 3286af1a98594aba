import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NightlyManifest } from "../../src/jobs/nightly/nightly-manifest.js";
import { emulator } from "../pull/support.js";
import { runCli } from "../helpers/run-cli.js";
import { readerFiles } from "../helpers/local-layout.js";
import { tempDir } from "../helpers/temp-dir.js";

// `evalshard pull` against the bundled emulator (in this process: the CLI runs asynchronously): a night
// over --min-records publishes nothing and keeps its attempt; faults that the pull recovers trip nothing.
const root = tempDir("evalshard-guards-pull-");


describe("publish guards (pull)", () => {
  it("a night under --min-records leaves the dataset; recovered partial_stream lines trip no guard", { timeout: 180_000 }, async () => {
    const big = await emulator({ seed: 31, runs: 60, faults: "partial=0.1" });
    const small = await emulator({ seed: 32, runs: 8 });
    const out = join(root, "pulled");
    const pull = (url: string, ...flags: string[]) => runCli(["pull", "sft", "--base-url", url, "--out", out, "--json", ...flags], { env: { EVAL_OWNER_TOKEN: big.ownerToken } });
    const first = await pull(big.url);
    expect(first.code, first.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as NightlyManifest;
    // The emulator's partial_stream lines were fetched again run by run: counted, recovered, published.
    expect(manifest.pull?.streamErrors).toBeGreaterThan(0);
    expect(manifest.publish).toMatchObject({ published: true, tripped: [] });
    const before = readerFiles(out);

    const refused = await runCli(["pull", "sft", "--base-url", small.url, "--out", out, "--json", "--min-records", String(manifest.records_out), "--max-shrink", "1"], { env: { EVAL_OWNER_TOKEN: small.ownerToken } });
    expect(refused.code, refused.stderr).toBe(7);
    expect(refused.stderr).toMatch(/under --min-records .*previous dataset is untouched; this attempt is kept in .*_rejected\//);
    expect(readerFiles(out)).toEqual(before);
    const [name] = readdirSync(join(out, "_rejected"));
    expect(existsSync(join(out, "_rejected", name ?? "-", "_state"))).toBe(true);
    const kept = JSON.parse(readFileSync(join(out, "_rejected", name ?? "-", "manifest.json"), "utf8")) as NightlyManifest;
    expect(kept.publish).toMatchObject({ published: false, tripped: [{ guard: "min_records", limit: manifest.records_out }] });
  });
});
