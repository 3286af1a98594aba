import { IoError } from "../core/errors.js";
import { LocalFiles } from "../output/local-files.js";
import { ObjectStorage } from "../output/object-storage.js";
import { SNAPSHOTS } from "../output/object-snapshot-pointer.js";
import { keptSnapshotNumbers } from "../output/local-snapshot-storage.js";
import { snapshotPath } from "./snapshot-path.js";
import { storageFor } from "../output/storage-for.js";
import type { Files } from "../output/storage.js";
import { requiredManifest } from "../output/published-manifest.js";
import type { ReportManifest, ReportNight } from "../report/report-manifest.js";
import { reportHtml } from "../report/report-html.js";

/** A dataset's report: the HTML page, and what it was made of. */
export interface DatasetReport {
  readonly html: string;
  readonly current: ReportManifest;
  /** The kept snapshots shown night over night, oldest first (the current one last). */
  readonly nights: readonly ReportNight[];
}

/**
 * The report of a published dataset (a local directory or `s3://BUCKET/PREFIX`): its current manifest and,
 * for a nightly dataset, the manifests of the snapshots it keeps. Reads manifests only, never the shards:
 * every figure is one the run counted while it wrote the data.
 */
export async function report(location: string): Promise<DatasetReport> {
  const files = await storageFor(location);
  const current = await manifestAt(files);
  const kept = files instanceof ObjectStorage ? await storedNights(files) : await localNights(location);
  const nights = nightsUpTo(current, kept);
  return { html: reportHtml({ location, current, nights }), current, nights };
}

/** A manifest the report reads: a dataset's, or a kept night's; one without counts is not one. */
async function manifestAt(files: Files, path = "manifest.json"): Promise<ReportManifest> {
  const manifest = await requiredManifest<ReportManifest>(files, path);
  if (typeof manifest.records_out !== "number") throw new IoError(`${files.location}/${path} is not an evalshard manifest: it has no counts`, `${files.location}/${path}`);
  return manifest;
}

/** A local nightly dataset keeps its nights beside it, `OUT.snapshots/<n>/manifest.json`. */
async function localNights(location: string): Promise<ReportManifest[]> {
  const numbers = await keptSnapshotNumbers(location);
  const read = await Promise.all(numbers.map((n) => snapshotPath(location, n).then((dir) => manifestAt(new LocalFiles(dir))).catch(() => null)));
  return read.filter((m): m is ReportManifest => m !== null);
}

/**
 * On object storage the pointer's history names the kept nights, each a snapshot folder with its own manifest
 * (`snapshots/<id>/manifest.json`); a listing would not show them, the storage hides its own folders.
 */
async function storedNights(storage: ObjectStorage): Promise<ReportManifest[]> {
  const history = (await storage.current())?.history ?? [];
  return Promise.all(history.map((folder) => manifestAt(storage, `${SNAPSHOTS}${folder}/manifest.json`)));
}

/**
 * The nights to show, oldest first, ending with the current one: kept snapshots numbered up to the current's
 * (a folder past it is a publish in progress, not a night yet). A dataset without numbered snapshots (a
 * conversion) is the current manifest alone.
 */
function nightsUpTo(current: ReportManifest, kept: readonly ReportManifest[]): ReportNight[] {
  const top = typeof current.snapshot === "number" ? current.snapshot : null;
  if (top === null) return [{ label: "current", manifest: current }];
  const byNumber = new Map<number, ReportManifest>();
  for (const m of kept) if (typeof m.snapshot === "number" && m.snapshot <= top) byNumber.set(m.snapshot, m);
  byNumber.set(top, current);
  return [...byNumber].sort(([a], [b]) => a - b).map(([n, manifest]) => ({ label: `#${n}`, manifest }));
}
