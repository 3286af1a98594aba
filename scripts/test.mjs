// `npm test`: four phases, a line of progress as each starts and ends, so a long run says where it is: the
// Python venv the interop and training tests read with (scripts/ensure-python-venv.mjs), Debian's Chromium for the report's browser test (scripts/ensure-chromium.mjs), the build (the CLI tests
// run dist/), then vitest. Arguments go to vitest: `npm test -- test/cli/cli.test.ts`.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const phases = [
  ["Python venv (.venv/)", process.execPath, ["scripts/ensure-python-venv.mjs"]],
  ["Chromium (the report's browser test)", process.execPath, ["scripts/ensure-chromium.mjs"]],
  ["build (dist/)", "npm", ["run", "--silent", "build"]],
  ["tests (vitest)", process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]],
];
// Run as `npx -p node@24 -c 'npm ci && npm test'`, the environment carries npx's own call (npm_config_call,
// npm_config_package): every `npx` a test runs would inherit them and run that call instead of its own command.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !["npm_config_call", "npm_config_package", "npm_config_yes"].includes(key)));
const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

for (const [i, [name, command, args]] of phases.entries()) {
  const t0 = performance.now();
  console.log(`npm test: ${i + 1}/${phases.length} ${name}, on Node ${process.version}...`);
  const r = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (r.status !== 0) {
    console.log(`npm test: ${name} failed (exit ${r.status ?? r.signal}) after ${seconds(t0)} s`);
    process.exit(r.status ?? 1);
  }
  console.log(`npm test: ${i + 1}/${phases.length} ${name} done in ${seconds(t0)} s (${seconds(started)} s in all)`);
}
