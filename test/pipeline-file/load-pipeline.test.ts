import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { interpolate } from "../../src/pipeline-file/interpolate.js";
import { loadPipeline, parsePipeline } from "../../src/pipeline-file/load-pipeline.js";

const PIPELINES = new URL("../../pipelines/", import.meta.url).pathname;
const env = { EVAL_BASE_URL: "http://127.0.0.1:4000", EVAL_OWNER_TOKEN: "canary-secret-token" };

describe("pipeline files", () => {
  it("the shipped nightly pipelines load with only the environment set", async () => {
    const names = readdirSync(PIPELINES).filter((f) => f.endsWith(".yaml")).sort();
    expect(names).toEqual(["nightly-dpo.yaml", "nightly-rl.yaml", "nightly-sft.yaml"]);
    for (const name of names) {
      const spec = await loadPipeline(`${PIPELINES}${name}`, env);
      expect(spec.source).toMatchObject({ kind: "http", base_url: "http://127.0.0.1:4000", auth: "owner" });
      expect(spec.output.dir).toBe(`out/${name.replace(".yaml", "")}`);
      expect(JSON.stringify(spec)).not.toContain("canary-secret-token");
    }
    const dpo = await loadPipeline(`${PIPELINES}nightly-dpo.yaml`, { ...env, EVALSHARD_PARTITION: "1/4", EVALSHARD_OUT: "/data" });
    expect(dpo.source).toMatchObject({ format: "dpo", partition: "1/4", dpo: { strategy: "best-worst", max_pairs_per_scenario: 10 } });
    expect(dpo.output.dir).toBe("/data/nightly-dpo");
  });

  it("names an unset variable and where it is used", async () => {
    await expect(loadPipeline(`${PIPELINES}nightly-sft.yaml`, {})).rejects.toThrow(/EVAL_BASE_URL is not set \(used at source\.base_url\)/);
  });

  it("rejects unknown keys and bad values, naming the path", () => {
    const base = "version: 1\nname: x\nsource: {kind: files, inputs: [a.ndjson]}\noutput: {dir: out}\n";
    expect(parsePipeline(base, "p.yaml", {}).output).toEqual({ dir: "out", to: "parquet", compression: "zstd", buckets: 16, keep_snapshots: 7, snapshot_grace: 5 });
    expect(() => parsePipeline(`${base}surprise: 1\n`, "p.yaml", {})).toThrow(/p\.yaml.*surprise/);
    expect(() => parsePipeline(base.replace("kind: files", "kind: ftp"), "p.yaml", {})).toThrow(ConfigError);
    expect(() => parsePipeline(`${base}filters: {flaged: false}\n`, "p.yaml", {})).toThrow(/flaged/);
    expect(() => parsePipeline(`${base}untrusted: {coaching.guidance: shred}\n`, "p.yaml", {})).toThrow(/untrusted/);
    const http = "version: 1\nname: x\nsource: {kind: http, base_url: 'http://h', format: sft, partition: '4/4'}\noutput: {dir: out}\n";
    expect(() => parsePipeline(http, "p.yaml", {})).toThrow(/partition/);
    expect(() => parsePipeline("version: [", "p.yaml", {})).toThrow(/not valid YAML/);
  });

  it("interpolates ${VAR}, ${VAR:-default} and $$", () => {
    expect(interpolate({ a: ["${X}/y", "${Y:-d}", "$$5", "${E:-}"] }, { X: "x", E: "" })).toEqual({ a: ["x/y", "d", "$5", ""] });
  });
});
