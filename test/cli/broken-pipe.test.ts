import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A reader that closes early: `evalshard pull --help | head -1` once crashed on an unhandled EPIPE.
const BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../../fixtures/records/rl-valid.ndjson", import.meta.url));

/** The built CLI piped into `reader` under pipefail: the CLI's own exit status, what the reader printed, the CLI's stderr. */
function piped(args: readonly string[], reader: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve) => {
    execFile("bash", ["--norc", "--noprofile", "-c", `set -o pipefail; ${quoted} | ${reader}`], { env: { PATH: process.env.PATH ?? "" } }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : Number((error as { code?: unknown }).code), stdout, stderr });
    });
  });
}

describe("stdout closed by its reader", () => {
  it.each(["pull", "run", "convert"])("%s --help | head -1, and into a reader gone before the first write: exit 0, nothing on stderr", async (command) => {
    const head = await piped([command, "--help"], "head -1");
    expect(head).toEqual({ status: 0, stdout: expect.stringMatching(new RegExp(`^Usage: evalshard ${command} \\[options\\]`)), stderr: "" });
    // `true` exits at once, so the CLI's first write meets a closed pipe every time.
    expect(await piped([command, "--help"], "true")).toEqual({ status: 0, stdout: "", stderr: "" });
  }, 30_000);

  it("rows on stdout (--out -) into a closed pipe: the run fails on one line, no stack", async () => {
    const r = await piped(["convert", FIXTURE, "--to", "jsonl", "--out", "-"], "true");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^evalshard: .*EPIPE/m);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 30_000);
});
