import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { verify } from "../../src/index.js";
import { LocalFiles } from "../../src/output/local-files.js";
import type { Files } from "../../src/output/storage.js";
import { tempDir } from "../helpers/temp-dir.js";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const FIXTURES = new URL("../../fixtures/records/", import.meta.url).pathname;
const root = tempDir("evalshard-verify-files-");

describe("verify reads through Files only", () => {
  it("uses list and read, nothing local: any storage (S3) works unchanged", async () => {
    const out = join(root, "out");
    execFileSync(process.execPath, [BIN, "convert", join(FIXTURES, "sft-valid.ndjson"), join(FIXTURES, "sft-bad-lines.ndjson"), "--out", out, "--max-quarantined", "1"], { stdio: "ignore" });
    const local = new LocalFiles(out);
    const calls: string[] = [];
    const remote: Files = {
      location: "s3://bucket/ds",
      list: (prefix) => (calls.push(`list ${prefix}`), local.list(prefix)),
      read: (path) => (calls.push(`read ${path}`), local.read(path)),
      create: () => Promise.reject(new Error("verify must not write")),
      rename: () => Promise.reject(new Error("verify must not write")),
      remove: () => Promise.reject(new Error("verify must not write")),
    };
    const report = await verify(remote);
    expect(report).toMatchObject({ location: "s3://bucket/ds", ok: true, findings: [] });
    expect(calls).toContain("read manifest.json");
    expect(calls).toContain("list data/");
  });
});
