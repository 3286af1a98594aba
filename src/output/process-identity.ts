import { readFileSync, readlinkSync } from "node:fs";

/**
 * Who a process is, beyond its pid: the boot, the pid (and time) namespace it runs in, and its start time
 * in clock ticks since boot. Two processes with equal identities are the same process; a pid alone is
 * not (a restarted container is PID 1 again), nor is a hostname (a new pod has a new one). Linux only.
 */
export interface ProcessIdentity {
  readonly boot: string;
  readonly namespace: string;
  readonly start: number;
}

/** This process's identity, or null where /proc does not tell it (macOS, Windows, a /proc-less sandbox). */
export function ownIdentity(): ProcessIdentity | null {
  const start = startTicks("self");
  if (start === null) return null;
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return { boot, namespace: namespaceOf(), start };
  } catch {
    return null;
  }
}

/**
 * Whether the process `pid` with identity `held` is known to be gone: only when it ran in this process's
 * pid namespace on this boot, where the pid names exactly one process, and no process with that pid and
 * start time exists. Undefined when it cannot be told from here (another namespace, host or boot).
 */
export function isGone(pid: number, held: ProcessIdentity, mine: ProcessIdentity | null): boolean | undefined {
  if (mine === null || held.boot !== mine.boot || held.namespace !== mine.namespace) return undefined;
  // A namespace's inode is unique among live namespaces; if it was reused, the holder's namespace, and so
  // the holder, is gone, and no process of the new one can have started as early as the holder did.
  return startTicks(String(pid)) !== held.start;
}

/** Field 22 of /proc/PID/stat (after the parenthesised command name, which may hold spaces). */
function startTicks(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const field = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const ticks = Number(field);
    return Number.isSafeInteger(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function namespaceOf(): string {
  const link = (name: string) => {
    try {
      return readlinkSync(`/proc/self/ns/${name}`);
    } catch {
      return "";
    }
  };
  // The time namespace shifts the start times /proc shows; include it so that shifted ticks never compare.
  return `${link("pid")} ${link("time")}`;
}
