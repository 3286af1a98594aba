import { Command } from "commander";
import { EXIT } from "./exit-codes.js";
import { wholeNumber } from "../plan/parse-text.js";
import { runAction } from "./run-action.js";
import { viewLosses, viewLossesLine } from "../views/view-losses.js";

export function inspectCommand(): Command {
  return new Command("inspect")
    .description("show an output's manifest summary, schema and first rows, or a single shard's")
    .argument("<path>", "an output directory or one shard file")
    .option("--rows <n>", "how many rows to show", wholeNumber("--rows", 0), 5)
    .option("--snapshot <n>", "a nightly dataset's kept snapshot of that number (its manifest's `snapshot`)", wholeNumber("--snapshot", 0))
    .option("--json", "print the result as JSON")
    .action(
      runAction(async (path: string, flags: { rows: number; snapshot?: number; json?: boolean }) => {
        const { inspect } = await import("../jobs/inspect.js");
        const result = await inspect(path, { rows: flags.rows, ...(flags.snapshot === undefined ? {} : { snapshot: flags.snapshot }) });
        if (flags.json === true) {
          process.stdout.write(`${JSON.stringify(result)}\n`);
          return EXIT.ok;
        }
        const out: string[] = [];
        const m = result.manifest;
        if (m !== null) {
          out.push(`${m.format.name} ${m.format.version} dataset, written ${m.finished_at} by evalshard ${m.evalshard_version}`);
          out.push(`records in ${m.records_in}, out ${m.records_out}; dropped ${JSON.stringify(m.dropped)}; quarantined ${JSON.stringify(m.quarantined)}; stream errors ${m.stream_errors}`);
          for (const warning of m.warnings) out.push(`warning: ${warning}`);
          // A view writes its own rows, each text sanitized; the record-level policy does not apply to them.
          if (m.view === undefined) out.push(`untrusted: ${Object.entries(m.untrusted).map(([p, a]) => `${p}=${a}`).join(", ")}`);
          else out.push(viewLossesLine(viewLosses(m.view)), `view rows: every text sanitized (chat-template control tokens removed); records matching an injection pattern: ${m.view.on_injection}`);
          if (m.split !== undefined) out.push(`split: ${Object.entries(m.split.splits).map(([name, c]) => `${name} ${c.rows} rows (${(c.row_fraction * 100).toFixed(1)}%)`).join(", ")}`);
          for (const s of m.shards) out.push(`  ${s.path}  ${s.rows} rows  ${s.bytes} bytes  sha256 ${s.sha256}`);
        }
        out.push(`${result.totalRows} rows; columns:`);
        for (const c of result.columns) out.push(`  ${c.name}: ${c.type}`);
        out.push(`first ${result.rows.length} rows:`);
        for (const row of result.rows) out.push(JSON.stringify(row));
        process.stdout.write(`${out.join("\n")}\n`);
        return EXIT.ok;
      }),
    );
}
