import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { CLI_BIN } from "./run-cli.js";
import type { CliRun } from "./run-cli.js";

/** The CLI, in a container of its own: a fresh pid namespace, where this host's /proc cannot tell it alive. */
export const inPidNamespace = (command: readonly string[]): string[] => ["unshare", "-p", "-f", "--mount-proc", "--kill-child", "sh", "-c", '"$@"; exit $?', "sh", ...command];

/** A CLI child that may stop itself (SIGSTOP, `EVALSHARD_TEST_STOP_AT_PUBLISH_STEP`) and be continued. */
export interface StallableCli {
  /** Resolves once a process of its group is stopped; rejects if it exits first or `timeoutMs` passes. */
  stopped(timeoutMs?: number): Promise<void>;
  /** SIGCONT to its whole process group. */
  resume(): void;
  readonly done: Promise<CliRun>;
}

/**
 * Starts `node dist/cli/main.js ARGS` (or `wrap(thatCommand)`, e.g. {@link inPidNamespace}) in a process group of
 * its own, so that it can be found stopped and continued wherever in a wrapper its node process runs.
 */
export function startCli(args: readonly string[], env: Record<string, string>, wrap: (command: string[]) => string[] = (c) => c): StallableCli {
  const command = wrap([process.execPath, CLI_BIN, ...args]);
  const child = spawn(command[0]!, command.slice(1), { env, detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      exited = true;
      resolve({ code, signal, stdout, stderr });
    });
  });
  const group = child.pid!;
  return {
    done,
    async stopped(timeoutMs = 60_000) {
      for (const started = Date.now(); !groupStopped(group); ) {
        if (exited) throw new Error(`the job exited before it stopped: ${stderr}`);
        if (Date.now() - started > timeoutMs) throw new Error(`the job did not stop within ${timeoutMs} ms: ${stderr}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    resume() {
      process.kill(-group, "SIGCONT");
    },
  };
}

/** Whether a process of process group `group` is stopped (state T in /proc/PID/stat). */
function groupStopped(group: number): boolean {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    // After the parenthesised command name: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === group && state === "T") return true;
  }
  return false;
}
