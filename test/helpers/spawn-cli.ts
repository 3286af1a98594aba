import { spawn } from "node:child_process";

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;

/**
 * The built CLI as a child process, asynchronously: an emulator or s3rver running in the test's process must
 * keep answering while it works (spawnSync would deadlock them). The environment is `env` alone, plus PATH.
 */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
