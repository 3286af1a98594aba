import { Command } from "commander";
import { EXIT } from "./exit-codes.js";
import { runAction } from "./run-action.js";

export function verifyCommand(): Command {
  return new Command("verify")
    .description("check a published dataset against its manifest: the manifest's seal and arithmetic, every shard's sha256 and rows, no missing or extra shard, the quarantine's bytes, a nightly ledger; exit 5 on any difference")
    .argument("<dir>", "an output directory, or s3://BUCKET/PREFIX")
    .option("--json", "print the report as JSON")
    .action(
      runAction(async (dir: string, flags: { json?: boolean }) => {
        const { verify } = await import("../jobs/verify.js");
        const report = await verify(dir);
        if (flags.json === true) {
          process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        } else {
          const c = report.checked;
          const what = `${c.shards} shards, ${c.rows} rows, ${c.bytes} bytes, ${c.quarantine_entries} quarantine entries${report.layout === "huggingface-buckets" ? `, ${c.ledger_keys} ledger keys` : ""}`;
          const out = [report.ok ? `${report.location}: OK (${what} match manifest.json)` : `${report.location}: ${report.findings.length} problem${report.findings.length === 1 ? "" : "s"} (read ${what})`];
          for (const f of report.findings) out.push(`  ${f.kind}: ${f.message}`);
          process.stdout.write(`${out.join("\n")}\n`);
        }
        return report.ok ? EXIT.ok : EXIT.verifyFailed;
      }),
    );
}
