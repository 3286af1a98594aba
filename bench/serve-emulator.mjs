import { spawn } from "node:child_process";

/** `evalshard serve --runs N --seed 1` of the build in `dist`, as a child process; `stop()` sends SIGTERM and reports how it exited. */
export async function serveEmulator(dist, runs) {
  const child = spawn(process.execPath, [`${dist}/cli/main.js`, "serve", "--runs", String(runs), "--seed", "1"], { stdio: ["ignore", "pipe", "inherit"] });
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
    stop: async () => {
      child.kill("SIGTERM");
      const e = await exited;
      return { ...e, ok: e.code === 0 };
    },
  };
}
