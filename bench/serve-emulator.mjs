import { spawn } from "node:child_process";

/**
 * `evalshard serve --runs N --seed 1` of the build in `dist` (`args` after, e.g. `--faults`), as a child process;
 * `stop()` sends SIGTERM and reports how it exited.
 */
export async function serveEmulator(dist, runs, args = []) {
  const child = spawn(process.execPath, [`${dist}/cli/main.js`, "serve", "--runs", String(runs), "--seed", "1", ...args], {
    // With --faults the emulator logs a line per fault on stderr: thousands in a large world.
    stdio: ["ignore", "pipe", args.includes("--faults") ? "ignore" : "inherit"],
  });
  const exited = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  const info = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    exited.then((e) => reject(new Error(`evalshard serve exited before it was ready: ${JSON.stringify(e)}`)));
  });
  return {
    info,
    pid: child.pid,
    stop: async () => {
      child.kill("SIGTERM");
      const e = await exited;
      return { ...e, ok: e.code === 0 };
    },
  };
}
