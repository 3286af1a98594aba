import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sftRecord } from "../helpers/records.js";
import { tempDir } from "../helpers/temp-dir.js";

// Disk full (ENOSPC) says so and names the path, never "Cannot read input". The CLI runs in its own
// mount namespace over a tmpfs of a few KiB (`unshare -rm`), so the host's disks are never filled.

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const canUnshare = spawnSync("unshare", ["-rm", "true"]).status === 0;

/** Runs the CLI with `dir` mounted as a tmpfs of `size` bytes, stdin from `input`. */
function runOnSmallDisk(dir: string, size: number, args: string[], input: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const script = `mount -t tmpfs -o size=${size} tmpfs "$1" && shift && exec "$@"`;
    const child = spawn("unshare", ["-rm", "sh", "-c", script, "sh", dir, process.execPath, BIN, ...args], { env: { PATH: process.env.PATH ?? "" }, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
    child.on("close", (status) => resolve({ status, stderr }));
  });
}

describe.skipIf(!canUnshare)("a full disk is reported as one, naming the path", () => {
  const root = tempDir("evalshard-enospc-");
  const big = Array.from({ length: 400 }, (_, i) => JSON.stringify(sftRecord({ run_id: `run-${String(i).padStart(6, "0")}` }))).join("\n") + "\n";

  it("convert from stdin, spooling onto a full disk", async () => {
    const dir = join(root, "spool");
    mkdirSync(dir);
    expect(big.length).toBeGreaterThan(64 * 1024);
    const r = await runOnSmallDisk(dir, 16 * 1024, ["convert", "-", "--out", join(dir, "ds"), "--format", "sft", "--to", "jsonl"], big);
    expect(r.status).not.toBe(0);
    expect(r.stderr).not.toMatch(/Cannot read input/);
    expect(r.stderr).toMatch(/disk full|no space left/i);
    expect(r.stderr).toContain(dir);
  });

  it("convert of a file, writing shards onto a full disk", async () => {
    const dir = join(root, "out");
    mkdirSync(dir);
    const input = join(root, "input.ndjson");
    writeFileSync(input, big);
    const r = await runOnSmallDisk(dir, 16 * 1024, ["convert", input, "--out", join(dir, "ds"), "--format", "sft", "--to", "jsonl"], "");
    expect(r.status).not.toBe(0);
    expect(r.stderr).not.toMatch(/Cannot read input/);
    expect(r.stderr).toMatch(/disk full|no space left/i);
    expect(r.stderr).toContain(dir);
  });
});
