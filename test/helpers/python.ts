import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { waitForSetupPhase } from "./setup-phase.js";

/**
 * The Python every test runs: the project's virtualenv (`.venv/`, or EVALSHARD_TEST_VENV), which `npm test`'s first
 * phase (scripts/ensure-python-venv.mjs) creates and fills from test/python/requirements-{readers,trl}.txt. Never the
 * system `python3`: its packages are not ours to change (PEP 668), and the readers the tests need live in the venv.
 */
export const VENV = process.env.EVALSHARD_TEST_VENV ? resolve(process.env.EVALSHARD_TEST_VENV) : fileURLToPath(new URL("../../.venv", import.meta.url));
export const PYTHON = process.platform === "win32" ? join(VENV, "Scripts", "python.exe") : join(VENV, "bin", "python");

/**
 * Put before a script (or `-c CODE`) the test runs as a process of its own: it runs as Python would run it, then
 * ends without the interpreter's teardown, where Arrow's threads can abort a process that has already printed
 * every answer (run_and_exit.py says more). The script's exit status and a failure's traceback are kept.
 */
export const RUN_AND_EXIT = fileURLToPath(new URL("./run_and_exit.py", import.meta.url));

/** What to run when the venv or its readers are missing. */
export const PYTHON_SETUP_HINT = "run `node scripts/ensure-python-venv.mjs` (npm test's first phase does)";

// `npm test` fills the venv while vitest starts: a file that reads with Python starts once it is ready.
await waitForSetupPhase("python-venv");
