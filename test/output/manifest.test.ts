import { describe, expect, it } from "vitest";
import { Tally } from "../../src/core/tally.js";
import { buildManifest } from "../../src/output/manifest.js";

const facts = (tally: Tally) => ({
  startedAt: "2026-01-01T00:00:00.000Z",
  format: { name: "sft" as const, versionField: "format_version", version: "1.1" },
  tally,
  shards: [],
  sources: [{ info: async () => ({ path: "a.ndjson", bytes: 1, sha256: "x" }) }],
  quarantine: { path: "_quarantine/sft.ndjson", entries: 0 },
  untrusted: { transcript: "drop" },
  warnings: [],
});

describe("buildManifest", () => {
  it("lists the shared keys and a job's own in the order manifests have always had", async () => {
    const convert = await buildManifest(facts(new Tally()), { output: { engine: "parallel" }, options: { shard_rows: 1 } });
    expect(Object.keys(convert)).toEqual(["evalshard_version", "started_at", "finished_at", "format", "output", "records_in", "records_out", "dropped", "quarantined", "stream_errors", "shards", "inputs", "quarantine", "options", "untrusted", "quarantined_share", "warnings", "manifest_sha256"]);
    const nightly = await buildManifest(facts(new Tally()), { pipeline: "p", output: {}, night: {}, pull: null, filters: {} });
    expect(Object.keys(nightly)).toEqual(["evalshard_version", "pipeline", "started_at", "finished_at", "format", "output", "records_in", "records_out", "dropped", "quarantined", "stream_errors", "night", "shards", "inputs", "pull", "quarantine", "filters", "untrusted", "quarantined_share", "warnings", "manifest_sha256"]);
  });

  it("reports an empty quarantine as null, and the inputs' info", async () => {
    const m = await buildManifest(facts(new Tally()), {});
    expect(m.quarantine).toBeNull();
    expect(m.inputs).toEqual([{ path: "a.ndjson", bytes: 1, sha256: "x" }]);
    expect(m.format).toEqual({ name: "sft", version_field: "format_version", version: "1.1" });
  });

  it("refuses counts that do not reconcile", async () => {
    const broken = { counts: () => ({ records_in: 2, records_out: 1, dropped: {}, quarantined: {}, stream_errors: 0 }), quarantinedShare: () => 0 };
    await expect(buildManifest({ ...facts(new Tally()), tally: broken }, {})).rejects.toThrow(/do not reconcile/);
  });
});
