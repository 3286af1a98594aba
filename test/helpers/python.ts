import { fileURLToPath } from "node:url";

/**
 * The Python every test runs: the project's virtualenv (`.venv/`), which `npm test`'s first phase
 * (scripts/ensure-python-venv.mjs) creates and fills from test/python/requirements-{readers,trl}.txt. Never the system
 * `python3`: its packages are not ours to change (PEP 668), and the readers the tests need live in the venv.
 */
export const PYTHON = fileURLToPath(new URL(process.platform === "win32" ? "../../.venv/Scripts/python.exe" : "../../.venv/bin/python", import.meta.url));

/** What to run when the venv or its readers are missing. */
export const PYTHON_SETUP_HINT = "run `node scripts/ensure-python-venv.mjs` (npm test's first phase does)";
