import { spawn } from "node:child_process";

/** The built CLI, as users run it (tests that use it need `npm run build` first). */
export const CLI_BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;

export interface CliRun {
  /** The exit code; null when a signal ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI asynchronously (safe beside an in-process s3rver or emulator, unlike spawnSync) with
 * `env`: the whole environment when `replaceEnv`, else added to this process's.
 */
export function runCli(args: readonly string[], options: { readonly env?: Record<string, string>; readonly replaceEnv?: boolean; readonly stdin?: NodeJS.ReadableStream } = {}): Promise<CliRun> {
  const env = options.replaceEnv === true ? options.env : { ...process.env, ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.stdin?.pipe(child.stdin);
  });
}
