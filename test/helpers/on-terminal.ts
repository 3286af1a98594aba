import { spawn, spawnSync } from "node:child_process";
import { CLI_BIN } from "./run-cli.js";

/** util-linux `script` is there to give the CLI a terminal. */
export const HAS_SCRIPT = spawnSync("script", ["--version"]).status === 0;

/**
 * Runs the built CLI on a terminal (stdout and stderr both, through util-linux `script`), as a user at a shell
 * does, asynchronously (safe beside an in-process emulator); resolves with what the terminal showed.
 */
export function onTerminal(args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const command = [process.execPath, CLI_BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", ...env } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", () => resolve(out));
  });
}
