// The Python the tests read shards back with (pyarrow, duckdb, datasets, polars, pandas, ...) and train with (TRL)
// lives in a project-local virtualenv, `.venv/` at the repo root, made here as `npm test`'s first phase
// (scripts/test.mjs). The system interpreter is only ever asked to create the venv: Debian's and Ubuntu's refuse pip installs into themselves
// (PEP 668, externally-managed-environment), and a test run should not change the machine anyway. Every pip call
// below runs as `<venv>/bin/python -m pip`, with PIP_REQUIRE_VIRTUALENV set so pip itself refuses any other target.
//
// A no-op when the venv exists, was last filled from the same requirements files (a hash stamped inside it), and
// every requirement is still findable: reruns cost one Python start (~50 ms), not a pip resolve.
//
// Usage: node scripts/ensure-python-venv.mjs [--venv DIR] [--requirements FILE]...
// Defaults: .venv (or EVALSHARD_TEST_VENV, where test/helpers/python.ts then looks too), and the two files of test/python/: requirements-readers.txt (the readers the interop tests
// compare against) and requirements-trl.txt (the training checks: TRL on CPU-only torch).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { venv: { type: "string" }, requirements: { type: "string", multiple: true } } });
const venv = resolve(values.venv ?? (process.env.EVALSHARD_TEST_VENV || join(root, ".venv")));
const requirements = (values.requirements ?? ["requirements-readers.txt", "requirements-trl.txt"].map((file) => join(root, "test/python", file))).map((file) => resolve(file));
const python = process.platform === "win32" ? join(venv, "Scripts", "python.exe") : join(venv, "bin", "python");
const stampFile = join(venv, ".requirements.sha256");

const text = requirements.map((file) => readFileSync(file, "utf8")).join("\n");
const stamp = createHash("sha256").update(text).digest("hex");
// Import names of the requirements: the distribution names, lower case, `-` as `_` (true of every one listed).
const modules = text
  .split("\n")
  .map((line) => line.replace(/#.*/, "").trim())
  .filter((line) => line !== "" && !line.startsWith("-"))
  .map((line) => (/^[A-Za-z0-9._-]+/.exec(line)?.[0] ?? line).toLowerCase().replaceAll("-", "_"));

const run = (command, args, env = process.env) => spawnSync(command, args, { stdio: "inherit", env });
// find_spec, not import: whether each is installed, without paying for importing datasets or torch.
const findable = () =>
  spawnSync(python, ["-c", "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in sys.argv[1:]))", ...modules], { stdio: "ignore" }).status === 0;

function fail(message) {
  console.error(`ensure-python-venv: ${message}`);
  process.exit(1);
}

if (!existsSync(python)) {
  const base = process.env.EVALSHARD_PYTHON || "python3";
  console.error(`creating ${venv} with ${base} -m venv`);
  const made = run(base, ["-m", "venv", venv]);
  if (made.status !== 0 || !existsSync(python)) {
    fail(`could not create the virtualenv with \`${base} -m venv ${venv}\`${made.error ? ` (${made.error.message})` : ""}; on Debian/Ubuntu install python3-venv, or set EVALSHARD_PYTHON to another Python 3`);
  }
}

const stamped = existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === stamp;
if (!stamped || !findable()) {
  console.error(`installing the tests' Python packages into ${venv}: ${modules.join(" ")}`);
  // --retries 0: an index that cannot be reached should fail over to the machine's other indexes at once.
  const files = requirements.flatMap((file) => ["-r", file]);
  const pip = run(python, ["-m", "pip", "install", "--quiet", "--retries", "0", ...files], { ...process.env, PIP_REQUIRE_VIRTUALENV: "1" });
  if (pip.status !== 0 || !findable()) fail(`could not install ${requirements.join(" and ")} into ${venv} with pip; the tests need them`);
  writeFileSync(stampFile, `${stamp}\n`);
}
