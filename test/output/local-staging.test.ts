import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { lockOutput } from "../../src/output/lock-output.js";
import { openStaging, recoverStaging } from "../../src/output/local-staging.js";
import { tempDir } from "../helpers/temp-dir.js";
import { linkBuiltModules } from "../helpers/built-modules.js";

const root = tempDir("evalshard-staging-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);

/** Every file under dir (dot-entries of evalshard left out) with its content. */
function visible(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (d === dir && name.startsWith(".evalshard")) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const evalshardLeftovers = (dir: string) => readdirSync(dir).filter((n) => n.startsWith(".evalshard-"));

const OLD = {
  "data/train-00000-of-00001.jsonl": "old rows\n",
  "_quarantine/sft.ndjson": "old quarantine\n",
  "README.md": "old card",
  "manifest.json": '{"run":"old"}',
  "notes.txt": "the user's own file",
};
const NEW = {
  "data/train-00000-of-00002.jsonl": "new rows 1\n",
  "data/train-00001-of-00002.jsonl": "new rows 2\n",
  "README.md": "new card",
  "manifest.json": '{"run":"new"}',
  "notes.txt": "the user's own file",
};
// The new run has no quarantine: listing it removes the old one.
const ENTRIES = ["data", "_quarantine", "README.md", "manifest.json"];

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** An output directory holding OLD, and a staging directory holding NEW. */
async function prepare(onStep?: (step: string) => void) {
  const out = freshOut();
  writeTree(out, OLD);
  const staging = await openStaging(out, onStep === undefined ? {} : { onStep });
  writeTree(staging.dir, Object.fromEntries(Object.entries(NEW).filter(([p]) => p !== "notes.txt")));
  return { out, staging };
}

class Crash extends Error {}

describe("openStaging", () => {
  it("creates the output directory and a fresh hidden staging directory inside it", async () => {
    const out = join(freshOut(), "nested");
    const staging = await openStaging(out);
    expect(dirname(staging.dir)).toBe(out);
    expect(staging.dir).toMatch(/\.evalshard-tmp-[^/]+$/);
    expect(readdirSync(staging.dir)).toEqual([]);
    await staging.abort();
    expect(readdirSync(out)).toEqual([]);
  });
});

describe("publish", () => {
  it("replaces the listed entries, removes listed ones the run did not produce, and leaves other files", async () => {
    const { out, staging } = await prepare();
    await staging.publish(ENTRIES);
    expect(visible(out)).toEqual(NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
  });

  it("moves the manifest out first and in last, so it never sits next to data it does not describe", async () => {
    const seen: string[] = [];
    const { out, staging } = await prepare((step) => {
      const now = visible(out);
      if ("manifest.json" in now) expect([OLD, NEW]).toContainEqual(now);
      seen.push(step);
    });
    await staging.publish(ENTRIES);
    expect(seen).toEqual([
      "synced",
      "journal",
      "aside:manifest.json",
      "aside:README.md",
      "aside:_quarantine",
      "aside:data",
      "in:data",
      "in:README.md",
      "in:manifest.json",
      "moved",
      "old-removed",
      "done",
    ]);
  });

  it("rejects entries that are not top-level names", async () => {
    const staging = await openStaging(freshOut());
    for (const bad of ["../x", "a/b", "", ".evalshard-tmp-x", ".."]) await expect(staging.publish([bad])).rejects.toThrow(ConfigError);
    await staging.abort();
  });
});

describe("a crash at any point of publish recovers to the old or the new output, never a mix", () => {
  const STEPS = ["synced", "journal", "aside:manifest.json", "aside:README.md", "aside:_quarantine", "aside:data", "in:data", "in:README.md", "in:manifest.json", "moved", "old-removed"];

  it.each(STEPS)("crash after %s", async (crashAt) => {
    const { out, staging } = await prepare((step) => {
      if (step === crashAt) throw new Crash(step);
    });
    await expect(staging.publish(ENTRIES)).rejects.toThrow(Crash);
    // The process is gone: nothing else runs until the next job opens the directory.
    const recovery = await recoverStaging(out);
    expect(visible(out)).toEqual(crashAt === "synced" ? OLD : NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
    expect(recovery[crashAt === "synced" ? "discarded" : "rolledForward"]).toEqual([staging.dir]);
  });

  it("a recovery that itself crashes can be run again", async () => {
    const { out, staging } = await prepare((step) => {
      if (step === "aside:data") throw new Crash(step);
    });
    await expect(staging.publish(ENTRIES)).rejects.toThrow(Crash);
    // Half of a roll-forward: the new data moved in, nothing else.
    const { renameSync } = await import("node:fs");
    renameSync(join(staging.dir, "data"), join(out, "data"));
    await recoverStaging(out);
    expect(visible(out)).toEqual(NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
  });

  it("abort after a failed publish finishes it rather than leave a mix", async () => {
    const { out, staging } = await prepare((step) => {
      if (step === "in:data") throw new Crash(step);
    });
    await expect(staging.publish(ENTRIES)).rejects.toThrow(Crash);
    await staging.abort();
    expect(visible(out)).toEqual(NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
  });
});

describe("recoverStaging", () => {
  it("deletes staging directories without a journal and leftover replaced entries, and nothing else", async () => {
    const out = freshOut();
    writeTree(out, OLD);
    writeTree(join(out, ".evalshard-tmp-unfinished"), { "data/.train-00000.parquet.partial": "half" });
    writeTree(join(out, ".evalshard-old-gone"), { "data/train-00000-of-00001.jsonl": "older" });
    const recovery = await recoverStaging(out);
    expect(recovery).toEqual({ rolledForward: [], discarded: [join(out, ".evalshard-tmp-unfinished")] });
    expect(visible(out)).toEqual(OLD);
    expect(evalshardLeftovers(out)).toEqual([]);
  });

  it("is a no-op on a missing directory", async () => {
    expect(await recoverStaging(join(root, "does-not-exist"))).toEqual({ rolledForward: [], discarded: [] });
  });

  it("refuses to guess with an unreadable journal", async () => {
    const out = freshOut();
    writeTree(out, { ".evalshard-tmp-x/journal.json": "{not json" });
    await expect(recoverStaging(out)).rejects.toThrow(/journal/);
  });
});

function compileSinks(): string {
  const lib = linkBuiltModules(join(root, "lib"));
  writeFileSync(
    join(lib, "writer.js"),
    `import { lockOutput } from "./output/lock-output.js";
import { openStaging } from "./output/local-staging.js";
import { ShardedWriter } from "./output/sharded-writer.js";
import { parquetFormat } from "./sinks/parquet-format.js";
const out = process.argv[2];
await lockOutput(out);
const staging = await openStaging(out);
process.stdout.write("staging " + staging.dir + "\\n");
const columns = [{ name: "id", type: { kind: "int64" }, nullable: false }, { name: "text", type: { kind: "string" }, nullable: true }];
const writer = new ShardedWriter({ dir: staging.dir, format: parquetFormat({ compression: "zstd" }), columns, maxRows: 2000, maxBytes: Infinity });
for (let id = 0; ; id++) {
  await writer.write({ id, text: "x".repeat(2000) });
  if ((id + 1) % 1000 === 0) process.stdout.write("rows " + (id + 1) + "\\n");
}
`,
  );
  return lib;
}

describe("a writer killed mid-run", () => {
  it("leaves the previous output as it was, no shard visible under data/, and nothing after recovery", async () => {
    const lib = compileSinks();
    const out = freshOut();
    writeTree(out, OLD);
    const child = spawn(process.execPath, [join(lib, "writer.js"), out], { stdio: ["ignore", "pipe", "inherit"] });
    let seen = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        // Several shards done and one converting: kill it in the middle of things.
        if (seen.includes("rows 7000")) {
          child.kill("SIGKILL");
          resolve();
        }
      });
      child.on("exit", (code) => reject(new Error(`writer exited early with ${code}: ${seen}`)));
    });
    await new Promise((r) => child.once("exit", r));

    const stagingDir = /staging (.*)\n/.exec(seen)?.[1];
    expect(stagingDir).toBeDefined();
    // The debris is there, hidden in the staging directory; the visible output is untouched.
    expect(readdirSync(join(stagingDir!, "data")).some((n) => n.endsWith(".partial"))).toBe(true);
    expect(visible(out)).toEqual(OLD);
    expect(readdirSync(join(out, "data"))).toEqual(["train-00000-of-00001.jsonl"]);

    // The next job takes over the dead writer's lock and clears the debris.
    const release = await lockOutput(out);
    const staging = await openStaging(out);
    await staging.abort();
    await release();
    expect(visible(out)).toEqual(OLD);
    expect(readdirSync(out).filter((n) => n.startsWith("."))).toEqual([]);
  });
});
