import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulator } from "../pull/support.js";
import { s3rverCliEnv, startS3rver } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// `evalshard report` on s3://: the kept nights are the snapshot pointer's history, shown as a local dataset's
// kept snapshots are. The same three nights are pulled to both, keeping two; s3rver and the emulator run in
// this process (async spawn).
const root = tempDir("evalshard-report-s3-");
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets");
});
afterAll(async () => server.stop());

/** Each night-over-night column of the page: "series@night" -> value. */
function columnsOf(html: string): Map<string, number> {
  return new Map([...html.matchAll(/<rect class="col" data-series="([^"]*)" data-night="([^"]*)" data-value="(\d+)"/g)].map((c) => [`${c[1]}@${c[2]}`, Number(c[3])]));
}

describe("evalshard report on s3://", () => {
  it("names each kept night, with its figures, as the same dataset written locally", { timeout: 240_000 }, async () => {
    const emu = await emulator({ seed: 28, runs: 30 });
    const outs = { local: join(root, "nightly"), s3: "s3://datasets/nightly" };
    const env = { ...s3rverCliEnv(server), EVAL_OWNER_TOKEN: emu.ownerToken };
    for (let night = 0; night < 3; night++) {
      for (const out of Object.values(outs)) {
        const r = await spawnCli(["pull", "sft", "--buckets", "2", "--base-url", emu.url, "--out", out, "--snapshot-grace", "0", "--keep-snapshots", "2"], env);
        expect(r.status, r.stderr).toBe(0);
      }
      // Two epochs a night: enough change for every night to publish.
      await emu.advance();
      await emu.advance();
    }
    const pages = new Map<string, string>();
    for (const [name, out] of Object.entries(outs)) {
      const path = join(root, `${name}.html`);
      const r = await spawnCli(["report", out, "--out", path], env);
      expect(r.status, r.stderr).toBe(0);
      pages.set(name, readFileSync(path, "utf8"));
    }
    const s3 = pages.get("s3") as string;
    const local = pages.get("local") as string;
    expect(s3.match(/Night over night \(\d+ kept snapshots\)/)?.[0]).toBe("Night over night (2 kept snapshots)");
    const columns = columnsOf(s3);
    expect([...new Set([...columns.keys()].map((k) => k.slice(k.indexOf("@") + 1)))]).toEqual(["#2", "#3"]);
    expect(columns).toEqual(columnsOf(local));
  });
});
