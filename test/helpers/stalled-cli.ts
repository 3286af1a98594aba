import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/**
 * Whether a process of process group `group` is stopped (state T in /proc/PID/stat): its leader and the leader's
 * descendants, found through /proc/PID/task/TID/children, so each poll reads a few files, not every process's.
 */
function groupStopped(group: number): boolean {
  const pending = [group];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    const stat = statOf(pid);
    if (stat === null) continue;
    if (stat.state === "T" && stat.pgrp === group) return true;
    const children = childrenOf(pid);
    if (children === null) return anyStopped(group); // a kernel without the children files
    pending.push(...children);
  }
  return false;
}

function statOf(pid: number): { state: string; pgrp: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // After the parenthesised command name: state, ppid, pgrp.
  const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: state ?? "", pgrp: Number(pgrp) };
}

/** The children of `pid` (of each of its threads); [] once it is gone, null where the kernel has no such files. */
function childrenOf(pid: number): number[] | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const task of tasks) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && existsSync(`/proc/${pid}/task/${task}`)) return null;
    }
  }
  return out;
}

/** Every process's state, where the children files are missing. */
function anyStopped(group: number): boolean {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat?.pgrp === group && stat.state === "T") return true;
  }
  return false;
}
