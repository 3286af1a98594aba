import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Command } from "commander";
import { ioStep } from "../core/io-step.js";
import { EXIT } from "./exit-codes.js";
import { runAction } from "./run-action.js";

export function reportCommand(): Command {
  return new Command("report")
    .description("write one self-contained HTML page (charts inline, nothing fetched) of a dataset's current snapshot and, for a nightly dataset, its kept nights side by side")
    .argument("<dataset>", "an output directory, or s3://BUCKET/PREFIX")
    .option("--out <file>", "where to write the page", "report.html")
    .option("--json", "print where it went and what it shows as JSON")
    .action(
      runAction(async (dataset: string, flags: { out: string; json?: boolean }) => {
        const { report } = await import("../jobs/report.js");
        const made = await report(dataset);
        const out = resolve(flags.out);
        await ioStep(out, "write the report to", () => writeFile(out, made.html));
        if (flags.json === true) process.stdout.write(`${JSON.stringify({ report: out, dataset, nights: made.nights.map((n) => n.label) })}\n`);
        else process.stdout.write(`report of ${dataset} (${made.nights.length} night${made.nights.length === 1 ? "" : "s"}): ${out}\n`);
        return EXIT.ok;
      }),
    );
}
