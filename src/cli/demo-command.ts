import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command } from "commander";
import { EXIT } from "./exit-codes.js";
import { nightlyEnvironment, reportNight } from "./nightly-output.js";
import { wholeNumber } from "../plan/parse-text.js";
import { runAction } from "./run-action.js";
import { SHIPPED_PIPELINES } from "./shipped-pipeline.js";

const NAMES = ["nightly-sft", "nightly-rl", "nightly-dpo"];

export function demoCommand(): Command {
  return new Command("demo")
    .description("start the bundled emulator, run the shipped nightly pipelines, advance the world a day, run them again")
    .option("--out <dir>", "where the datasets go", "out/demo")
    .option("--seed <n>", "the emulator's seed", wholeNumber("--seed"), 7)
    .option("--runs <n>", "runs in the emulated world", wholeNumber("--runs"), 600)
    .action(
      runAction(async (flags: { out: string; seed: number; runs: number }) => {
        const [{ runNightly }, { loadPipeline }, { startEmulator }] = await Promise.all([import("../jobs/nightly/run-nightly.js"), import("../pipeline-file/load-pipeline.js"), import("../service/index.js")]);
        // Some runs on benchmark suite scenarios, and a suite released before night 2: decontamination at work (issue 35).
        const emulator = await startEmulator({ seed: flags.seed, runs: flags.runs, benchmarkRuns: true });
        let code: number = EXIT.ok;
        try {
          // The pipelines read these like any deployment would; the token stays in this process.
          const env = { ...process.env, EVAL_BASE_URL: emulator.url, EVAL_OWNER_TOKEN: emulator.ownerToken, EVAL_API_KEY: emulator.apiKeys[0]?.api_key ?? "", EVALSHARD_OUT: flags.out, EVAL_AUTH: "owner" };
          for (const night of [1, 2]) {
            process.stdout.write(`\nnight ${night} (emulator epoch ${emulator.epoch})\n`);
            for (const name of NAMES) {
              const spec = await loadPipeline(join(SHIPPED_PIPELINES, `${name}.yaml`), env);
              const result = await runNightly(spec, { ...nightlyEnvironment(name), env });
              code = Math.max(code, reportNight(result, false));
            }
            if (night === 1) await emulator.advance();
          }
          // Each dataset's report beside it (not inside: the dataset holds only what its manifest lists).
          const { report } = await import("../jobs/report.js");
          const reports: string[] = [];
          for (const name of NAMES) {
            const path = join(flags.out, `${name}.report.html`);
            await writeFile(path, (await report(join(flags.out, name))).html);
            reports.push(path);
          }
          process.stdout.write(`\nreports (open in a browser): ${reports.join(", ")}`);
          process.stdout.write(`\ndatasets: ${NAMES.map((n) => join(flags.out, n)).join(", ")}\n${loadHint(join(flags.out, "nightly-sft"))}\n`);
        } finally {
          await emulator.close();
        }
        return code;
      }),
    );
}

/**
 * How to load a dataset, with a Python that has `datasets`: the checkout's venv (`npm test` makes it) when there
 * is one here, since the system's Python often lacks the package; otherwise any Python the user gives it to.
 */
function loadHint(dataset: string): string {
  const code = `import datasets; print(datasets.load_dataset('${dataset}', split='train'))`;
  const venv = join(".venv", process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
  if (existsSync(venv)) return `load one: ${venv} -c "${code}"`;
  return `load one (with a Python that has the datasets package: pip install datasets): python3 -c "${code}"`;
}
