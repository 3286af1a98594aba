import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { lockOutput } from "../../src/output/lock-output.js";
import { openStaging, recoverStaging } from "../../src/output/local-staging.js";
import { tempDir } from "../helpers/temp-dir.js";
import { linkBuiltModules } from "../helpers/built-modules.js";
import { evalshardLeftovers } from "../helpers/local-layout.js";

const root = tempDir("evalshard-staging-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);

/** Every file under dir (dot-entries of evalshard left out) with its content, as a reader finds them (links followed). */
function visible(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (d === dir && name.startsWith(".evalshard")) continue;
      if (!existsSync(p)) continue; // a dangling link: absent for a reader
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

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
const withoutNotes = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([p]) => p !== "notes.txt"));

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * An output directory holding OLD (published by a first staging, or, `legacy`, written as plain entries as
 * evalshard wrote them before snapshot folders), and a staging directory holding NEW.
 */
async function prepare(onStep?: (step: string) => void, legacy = false) {
  const out = freshOut();
  writeTree(out, { "notes.txt": OLD["notes.txt"] });
  if (legacy) writeTree(out, OLD);
  else {
    const first = await openStaging(out);
    writeTree(first.dir, withoutNotes(OLD));
    await first.publish(ENTRIES);
  }
  const staging = await openStaging(out, onStep === undefined ? {} : { onStep });
  writeTree(staging.dir, withoutNotes(NEW));
  return { out, staging };
}

class Crash extends Error {}

const STEPS = ["in:data", "in:README.md", "in:manifest.json", "snapshot", "linked", "switched", "cleaned", "expired", "done"];

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
    // Readers open the same paths as ever: links through the one current-snapshot link.
    expect(lstatSync(join(out, "data")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(out, "manifest.json"))).toBe(".evalshard-current/manifest.json");
    expect(existsSync(join(out, "_quarantine"))).toBe(false);
  });

  it("a reader sees the whole old or the whole new output at every step, switching at one rename", async () => {
    const seen: string[] = [];
    const { out, staging } = await prepare((step) => {
      expect(visible(out), `at ${step}`).toEqual(STEPS.indexOf(step) < STEPS.indexOf("switched") ? OLD : NEW);
      seen.push(step);
    });
    await staging.publish(ENTRIES);
    expect(seen).toEqual(STEPS);
  });

  it("rejects entries that are not top-level names", async () => {
    const staging = await openStaging(freshOut());
    for (const bad of ["../x", "a/b", "", ".evalshard-tmp-x", ".."]) await expect(staging.publish([bad])).rejects.toThrow(ConfigError);
    await staging.abort();
  });

  it("carries over the current version's entries a publish does not list", async () => {
    const { out, staging } = await prepare();
    await staging.publish(["data", "manifest.json"]);
    expect(visible(out)).toEqual({ ...NEW, "README.md": "old card", "_quarantine/sft.ndjson": "old quarantine\n" });
    expect(evalshardLeftovers(out)).toEqual([]);
  });
});

describe("a crash at any step of publish leaves the old or the new output, never a mix, even before any recovery", () => {
  it.each(STEPS.slice(0, -1))("crash after %s", async (crashAt) => {
    const { out, staging } = await prepare((step) => {
      if (step === crashAt) throw new Crash(step);
    });
    await expect(staging.publish(ENTRIES)).rejects.toThrow(Crash);
    // The process is gone: what a reader sees until the next job is already whole.
    const expected = STEPS.indexOf(crashAt) < STEPS.indexOf("switched") ? OLD : NEW;
    expect(visible(out)).toEqual(expected);
    const recovery = await recoverStaging(out);
    expect(visible(out)).toEqual(expected);
    expect(evalshardLeftovers(out)).toEqual([]);
    expect(recovery.discarded).toEqual([staging.dir]);
  });

  it("abort after a failed publish finishes it rather than leave a mix", async () => {
    const { out, staging } = await prepare((step) => {
      if (step === "switched") throw new Crash(step);
    });
    await expect(staging.publish(ENTRIES)).rejects.toThrow(Crash);
    await staging.abort();
    expect(visible(out)).toEqual(NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
  });
});

describe("an output of the layout before snapshot folders (plain entries)", () => {
  it("is converted by its first publish", async () => {
    const { out, staging } = await prepare(undefined, true);
    await staging.publish(ENTRIES);
    expect(visible(out)).toEqual(NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
  });

  // No snapshot is replaced (the plain entries are moved aside), so no grace expires.
  it.each(STEPS.filter((s) => s !== "expired").slice(0, -1))("crash after %s: recovered to the old or the new output", async (crashAt) => {
    const { out, staging } = await prepare((step) => {
      if (step === crashAt) throw new Crash(step);
    }, true);
    await expect(staging.publish(ENTRIES)).rejects.toThrow(Crash);
    // Before the switch nothing visible changed; converting the plain entries after it is finished by recovery.
    if (STEPS.indexOf(crashAt) < STEPS.indexOf("switched")) expect(visible(out)).toEqual(OLD);
    await recoverStaging(out);
    expect(visible(out)).toEqual(STEPS.indexOf(crashAt) < STEPS.indexOf("switched") ? OLD : NEW);
    expect(evalshardLeftovers(out)).toEqual([]);
  });

  it("a publish journal an older evalshard left half done is still rolled forward", async () => {
    const out = freshOut();
    writeTree(out, OLD);
    const dir = join(out, ".evalshard-tmp-legacy");
    writeTree(dir, withoutNotes(NEW));
    const entries = ENTRIES.map((name) => ({ name, present: existsSync(join(dir, name)) }));
    writeFileSync(join(dir, "journal.json"), JSON.stringify({ version: 1, id: "legacy", entries }));
    // Half of a roll-forward: the old manifest and data moved aside, the new data moved in.
    mkdirSync(join(out, ".evalshard-old-legacy"));
    const { renameSync } = await import("node:fs");
    renameSync(join(out, "manifest.json"), join(out, ".evalshard-old-legacy", "manifest.json"));
    renameSync(join(out, "data"), join(out, ".evalshard-old-legacy", "data"));
    renameSync(join(dir, "data"), join(out, "data"));
    const recovery = await recoverStaging(out);
    expect(recovery.rolledForward).toEqual([dir]);
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
import { parquetFormat } from "./sinks/native-parquet-format.js";
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
