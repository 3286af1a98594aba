import { Command } from "commander";
import type { CommitResult } from "../jobs/nightly/commit-night.js";
import { wholeNumber } from "../plan/parse-text.js";
import { OPTIONS } from "../plan/options.js";
import { addOptionFlags } from "./option-flags.js";
import { reportDecision, runAction } from "./run-action.js";

export function commitCommand(): Command {
  const command = new Command("commit")
    .description("publish one snapshot of a partitioned night: check that all N parts staged it, merge their shards, counts and cards; exit 10 naming the parts that did not")
    .argument("<out>", "the pipeline's output (its output.dir: a directory or s3://BUCKET/PREFIX), whose _parts/ the parts wrote")
    .requiredOption("--parts <n>", "N: how many parts the night was split into")
    .option("--night <label>", "the night the parts staged (their EVALSHARD_NIGHT); default EVALSHARD_NIGHT, else today's UTC date");
  // The night's publish, which `pull` and `run` otherwise make: their --keep-snapshots, from the option table.
  return addOptionFlags(command, "pull", { keepSnapshots: OPTIONS.keepSnapshots })
    .option("--publish-anyway", "publish the night even over a publish guard it trips (the exit code still names it)")
    .option("--json", "print the summary as one JSON line")
    .action(
      runAction(async (out: string, flags: { parts: string; night?: string; keepSnapshots?: number; publishAnyway?: boolean; json?: boolean }) => {
        const [{ commitNight }, { nightOf }] = await Promise.all([import("../jobs/nightly/commit-night.js"), import("../jobs/nightly/staged-part.js")]);
        const parts = wholeNumber("--parts")(flags.parts);
        const night = flags.night ?? nightOf(process.env, new Date());
        const result = await commitNight(out, { parts, night, keepSnapshots: flags.keepSnapshots ?? OPTIONS.keepSnapshots.default, publishAnyway: flags.publishAnyway === true });
        return reportCommit(result, flags.json === true || !process.stdout.isTTY);
      }),
    );
}

/** Prints a commit's summary (one JSON line when `json`) and any tripped guard; returns its exit code. */
export function reportCommit(result: CommitResult, json: boolean): number {
  const m = result.manifest;
  const summary = { out: result.outDir, night: m.night_label, parts: m.partition.count, changed: result.changed, snapshot: m.snapshot, records_out: m.records_out, shards: m.shards.length };
  process.stdout.write(json ? `${JSON.stringify(summary)}\n` : `${result.outDir}: night ${m.night_label} of ${m.partition.count} parts ${result.changed ? `published as snapshot ${m.snapshot}` : result.decision.published ? "already published" : "not published"}: ${m.records_out} rows in ${m.shards.length} shards\n`);
  return reportDecision(result.decision, result.outDir);
}
