#!/usr/bin/env node
// The report's browser test renders pages in headless Chromium: Debian's `chromium` package, installed here
// when missing (CI starts from a fresh machine and runs as root). Prints the binary's path.
import { execFileSync, spawnSync } from "node:child_process";

const found = () => spawnSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).stdout.trim().split("\n")[0] ?? "";

let bin = found();
if (bin === "") {
  if (process.getuid?.() !== 0) {
    console.error("evalshard: the report's browser test needs Chromium: run `sudo apt-get install -y chromium` (or run this script as root)");
    process.exit(1);
  }
  console.error("evalshard: installing chromium (apt-get) for the report's browser test");
  const apt = { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
  execFileSync("apt-get", ["update", "-qq"], apt);
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], apt);
  bin = found();
}
process.stdout.write(`${bin}\n`);
