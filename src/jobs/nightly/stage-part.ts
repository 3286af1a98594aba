import { storageFor } from "../../output/storage-for.js";
import { publishedManifest } from "../../output/published-manifest.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import { commitIfLast } from "./commit-if-last.js";
import type { CommitResult } from "./commit-night.js";
import type { NightlyManifest } from "./nightly-manifest.js";
import { partitionOf } from "./partition-of.js";
import { nightOf, writeStagedPart } from "./staged-part.js";

/** What {@link stagePart} reads of a night's result (a `NightlyResult`). */
interface PartNight {
  readonly outDir: string;
  readonly decision: { readonly published: boolean; readonly rejected_to: string | null };
  readonly dryRun?: unknown;
}

/**
 * After a part of a partitioned night: records under the pipeline's output that this part staged the
 * night (its dataset now holds tonight's share), for `commit`. A dry run, or a night the guards refused
 * (the part still holds an earlier night), stages nothing, so the commit names this part as missing.
 * `commitLast`: then commits the night when this part is the last of the N to stage it (commitIfLast).
 */
export async function stagePart<R extends PartNight>(spec: PipelineSpec, env: Readonly<Record<string, string | undefined>>, startedAt: string, result: R, commitLast: boolean): Promise<R & { commit?: CommitResult }> {
  const source = spec.source;
  if (source.kind !== "http" || source.partition === undefined || result.dryRun !== undefined) return result;
  if (!result.decision.published && result.decision.rejected_to !== null) return result;
  const manifest = await publishedManifest<Pick<NightlyManifest, "manifest_sha256" | "records_out">>(await storageFor(result.outDir));
  if (manifest === null) return result;
  const { index, count, by = "run" } = partitionOf(source.partition, source.partition_by, env);
  const root = await storageFor(spec.output.dir);
  const night = nightOf(env, new Date(startedAt));
  await writeStagedPart(root, {
    format: "evalshard-staged-part/1",
    night,
    index,
    count,
    by,
    manifest_sha256: manifest.manifest_sha256,
    records_out: manifest.records_out,
    finished_at: new Date().toISOString(),
  });
  if (!commitLast) return result;
  const commit = await commitIfLast(root, spec.output.dir, index, { parts: count, night });
  return commit === null ? result : { ...result, commit };
}
