// Shared by the bench scripts that time whole converts side by side (views.mjs, select-split.mjs, builds-vs-duckdb.mjs).
import { spawn } from "node:child_process";
import { createReadStream, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A timer of child runs under /usr/bin/time (GNU time), writing its report into `scratch`: each call resolves
 * to the exit code, wall and CPU seconds (user + system, every thread), peak RSS in MB, and stderr's tail.
 */
export function timedChild(scratch) {
  return (cmd, argv) => {
    const timeFile = join(scratch, "time.txt");
    const child = spawn("/usr/bin/time", ["-f", "%e %M %U %S", "-o", timeFile, cmd, ...argv], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-1 << 16)));
    return new Promise((done) => {
      child.on("close", (code) => {
        const [wall, kib, user, sys] = readFileSync(timeFile, "utf8").trim().split("\n").pop().split(" ").map(Number);
        done({ code, wall_s: wall, cpu_s: Math.round((user + sys) * 100) / 100, peak_rss_mb: Math.round(kib / 1024), stderr });
      });
    });
  };
}

/** Reads the file once before each run: this VM's kernel drops cold page cache within seconds (see convert-vs-duckdb.mjs). */
export async function warm(path) {
  for await (const _ of createReadStream(path, { highWaterMark: 1 << 22 }));
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}
