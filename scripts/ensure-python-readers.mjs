// Makes sure the Python readers the interop tests compare against are installed (pyarrow, duckdb,
// datasets). Runs before `npm test`; a no-op when they are already importable.
import { spawnSync } from "node:child_process";

const modules = ["pyarrow", "duckdb", "datasets"];
const importable = () => spawnSync("python3", ["-c", `import ${modules.join(", ")}`], { stdio: "ignore" }).status === 0;

if (!importable()) {
  console.error(`installing Python readers for the interop tests: ${modules.join(" ")}`);
  // --retries 0: an index that cannot be reached should fail over to the machine's other indexes at once.
  const pip = spawnSync("python3", ["-m", "pip", "install", "--quiet", "--retries", "0", ...modules], { stdio: "inherit" });
  if (pip.status !== 0 || !importable()) {
    console.error(`could not install ${modules.join(", ")} with pip; the interop tests need them`);
    process.exit(1);
  }
}
