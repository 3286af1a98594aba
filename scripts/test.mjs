// `npm test`: four phases, a line of progress as each starts and ends, so a long run says where it is: the
// Python venv the interop and training tests read with (scripts/ensure-python-venv.mjs), Debian's Chromium for the
// report's browser test (scripts/ensure-chromium.mjs), the build (the CLI tests run dist/), then vitest. Arguments go
// to vitest: `npm test -- test/cli/cli.test.ts`.
//
// On a fresh machine the venv is mostly a download (~90 s) and Chromium an apt-get: both run in the background,
// their output to a log, while the build runs and vitest starts the files that need neither. Each ends by writing
// `<phase>.ok` or `<phase>.failed` into the directory named by EVALSHARD_TEST_SETUP; the test helpers that need one
// wait for it there (test/helpers/setup-phase.ts), and the sequencer starts them last while it runs. A phase that
// fails shows its log at once and fails the command once vitest ends.
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const setup = mkdtempSync(join(tmpdir(), "evalshard-test-setup-"));
// Run as `npx -p node@24 -c 'npm ci && npm test'`, the environment carries npx's own call (npm_config_call,
// npm_config_package): every `npx` a test runs would inherit them and run that call instead of its own command.
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !["npm_config_call", "npm_config_package", "npm_config_yes"].includes(key))),
  EVALSHARD_TEST_SETUP: setup,
};
const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const total = 4;

/** Runs one phase; `log` sends its output to a file (a background phase) instead of this terminal. */
function phase(n, name, command, args, log) {
  const t0 = performance.now();
  console.log(`npm test: ${n}/${total} ${name}, on Node ${process.version}${log ? `, in the background (log: ${log})` : ""}...`);
  const out = log ? openSync(log, "w") : "inherit";
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", out, out], env });
  return new Promise((done) => {
    child.on("error", (error) => finish(String(error)));
    child.on("close", (code, signal) => finish(code === 0 ? undefined : `exit ${code ?? signal}`));
    let ended = false;
    function finish(failure) {
      if (ended) return;
      ended = true;
      if (failure === undefined) console.log(`npm test: ${n}/${total} ${name} done in ${seconds(t0)} s (${seconds(started)} s in all)`);
      else console.log(`npm test: ${n}/${total} ${name} failed (${failure}) after ${seconds(t0)} s${log ? `; its log:\n${readFileSync(log, "utf8")}` : ""}`);
      done(failure === undefined);
    }
  });
}

/** A background phase: its marker is written once it ends, for the tests that wait on it. */
async function background(n, name, marker, script) {
  const ok = await phase(n, name, process.execPath, [script], join(setup, `${marker}.log`));
  writeFileSync(join(setup, `${marker}.${ok ? "ok" : "failed"}`), "");
  return ok;
}

const venv = background(1, "Python venv (.venv/)", "python-venv", "scripts/ensure-python-venv.mjs");
const chromium = background(2, "Chromium (the report's browser test)", "chromium", "scripts/ensure-chromium.mjs");
let ok = await phase(3, "build (dist/)", "npm", ["run", "--silent", "build"]);
if (ok) ok = await phase(4, "tests (vitest)", process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]);
const prepared = (await venv) && (await chromium);
if (prepared) rmSync(setup, { recursive: true, force: true });
else console.log(`npm test: a set-up phase failed (its log above, and in ${setup})`);
process.exit(ok && prepared ? 0 : 1);
