import { spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSnapshot } from "../../src/dataset/write-snapshot.js";
import type { SnapshotRecord } from "../../src/dataset/incoming.js";
import { sft } from "../../src/formats/sft.js";
import { jsonlFormat } from "../../src/sinks/jsonl-format.js";
import type { ShardFormat } from "../../src/output/shard-format.js";
import { lockOutput } from "../../src/output/lock-output.js";
import { recoverStaging } from "../../src/output/local-staging.js";
import { tempDir } from "../helpers/temp-dir.js";
import { jsonlOptions, leftovers, rec, tree } from "./snapshot-fixtures.js";
import { linkBuiltModules } from "../helpers/built-modules.js";

const root = tempDir("evalshard-snapshot-crash-");
let counter = 0;
const freshOut = () => join(root, `out-${counter++}`);

class Crash extends Error {}

/** S1, and S2: a third rescored, a tenth gone, some new. */
function snapshots(n: number, pad = 0): [SnapshotRecord[], SnapshotRecord[]] {
  const filler = "x".repeat(pad);
  const s1 = Array.from({ length: n }, (_, i) => rec(`r${i}`, 1, `${filler}${i}`));
  const s2 = [
    ...Array.from({ length: n }, (_, i) => i)
      .filter((i) => i % 10 !== 7)
      .map((i) => (i % 3 === 0 ? rec(`r${i}`, 2, `${filler}${i} rescored`) : rec(`r${i}`, 1, `${filler}${i}`))),
    ...Array.from({ length: Math.ceil(n / 20) }, (_, i) => rec(`new${i}`, 1)),
  ];
  return [s1, s2];
}

async function fresh(records: SnapshotRecord[]): Promise<Record<string, string>> {
  const out = freshOut();
  await writeSnapshot(records, jsonlOptions(out));
  return tree(out);
}

/** Every file visible under out/data is a whole shard of the old or the new dataset, under its own name. */
function expectOnlyWholeShards(out: string, allowed: readonly Record<string, string>[]): void {
  const data = join(out, "data");
  if (!existsSync(data)) return; // between moving the old data/ aside and the new one in
  for (const name of readdirSync(data)) {
    const sha = createHash("sha256").update(readFileSync(join(data, name))).digest("hex");
    expect(allowed.some((t) => t[`data/${name}`] === sha), `data/${name} is not a whole shard`).toBe(true);
  }
}

const [S1, S2] = snapshots(60);

describe("a publish that crashes at any step", () => {
  it("is finished or undone, never half visible, and the next run ends as the fresh build", async () => {
    const t1 = await fresh(S1);
    const t2 = await fresh(S2);
    const steps: string[] = [];
    const probe = freshOut();
    await writeSnapshot(S1, jsonlOptions(probe));
    await writeSnapshot(S2, jsonlOptions(probe, { onStep: (s) => void steps.push(s) }));
    // The commit is the switch of .evalshard-current (issue 20; before it, a journal).
    expect(steps).toContain("switched");
    expect(steps.length).toBeGreaterThan(5);

    for (const crashAt of steps) {
      const out = freshOut();
      await writeSnapshot(S1, jsonlOptions(out));
      const onStep = (step: string) => {
        expectOnlyWholeShards(out, [t1, t2]);
        if (step === crashAt) throw new Crash(step);
      };
      await expect(writeSnapshot(S2, jsonlOptions(out, { onStep }))).rejects.toThrow(Crash);
      // Before the switch the run is undone; after it, finished by the abort's recovery.
      const after = tree(out);
      expect([t1, t2], `after a crash at ${crashAt}`).toContainEqual(after);
      expect(after).toEqual(steps.indexOf(crashAt) < steps.indexOf("switched") ? t1 : t2);
      await writeSnapshot(S2, jsonlOptions(out));
      expect(tree(out)).toEqual(t2);
      expect(leftovers(out)).toEqual([]);
    }
  });
});

describe("a shard writer that fails", () => {
  /** JSONL shards whose writer throws at the given row, or at close when the row is never reached. */
  function failing(atRow: number): ShardFormat {
    const inner = jsonlFormat({ compression: "none" });
    let rows = 0;
    return {
      ...inner,
      async open(path, columns) {
        const writer = await inner.open(path, columns);
        return {
          get rows() {
            return writer.rows;
          },
          write: async (record) => {
            if (++rows === atRow) throw new Crash(`row ${atRow}`);
            await writer.write(record);
          },
          close: async () => {
            if (atRow > 1000) throw new Crash("close");
            return writer.close();
          },
          abort: () => writer.abort(),
        };
      },
    };
  }

  it("leaves the previous dataset as it was and nothing behind", async () => {
    const t1 = await fresh(S1);
    const t2 = await fresh(S2);
    for (const atRow of [1, 17, 40, 5000]) {
      const out = freshOut();
      await writeSnapshot(S1, jsonlOptions(out));
      await expect(writeSnapshot(S2, jsonlOptions(out, { shardFormat: failing(atRow) }))).rejects.toThrow(Crash);
      expect(tree(out)).toEqual(t1);
      expect(leftovers(out)).toEqual([]);
      await writeSnapshot(S2, jsonlOptions(out));
      expect(tree(out)).toEqual(t2);
    }
  });
});

function compileForChild(): string {
  const lib = linkBuiltModules(join(root, "lib"));
  writeFileSync(
    join(lib, "run.js"),
    `import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { writeSnapshot } from "./dataset/write-snapshot.js";
import { jsonlFormat } from "./sinks/jsonl-format.js";
const [out, input, killAt] = process.argv.slice(2);
async function* records() {
  for await (const line of createInterface({ input: createReadStream(input), crlfDelay: Infinity })) yield JSON.parse(line);
}
const onStep = (step) => {
  process.stdout.write("step " + step + "\\n");
  if (step === killAt) process.kill(process.pid, "SIGKILL");
};
await writeSnapshot(records(), {
  outDir: out, format: { name: ${JSON.stringify(sft.name)}, version: ${JSON.stringify(sft.version)} },
  columns: ${JSON.stringify(jsonlOptions("").columns)}, shardFormat: jsonlFormat({ compression: "none" }), buckets: 4, onStep,
});
process.stdout.write("done\\n");
`,
  );
  return lib;
}

/** Runs the child on `out`; kills it after `killAfterMs` unless it kills itself at `killAt` first. */
function runChild(lib: string, out: string, input: string, options: { killAt?: string; killAfterMs?: number }): Promise<{ output: string; signal: string | null; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [join(lib, "run.js"), out, input, options.killAt ?? ""], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = options.killAfterMs === undefined ? null : setTimeout(() => child.kill("SIGKILL"), options.killAfterMs);
  return new Promise((resolve) =>
    child.on("exit", (_code, signal) => {
      if (timer !== null) clearTimeout(timer);
      resolve({ output, signal, ms: Date.now() - started });
    }),
  );
}

describe("a process killed at any moment", () => {
  it("loses nothing: after recovery the dataset is the old or the new one whole, and the rerun is the fresh build", async () => {
    const lib = compileForChild();
    const [big1, big2] = snapshots(8_000, 300);
    const input = join(root, "s2.ndjson");
    writeFileSync(input, big2.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const base = freshOut();
    await writeSnapshot(big1, jsonlOptions(base));
    const t1 = tree(base);
    const t2 = await fresh(big2);
    /** An output directory holding the S1 dataset. */
    const withS1 = () => {
      const out = freshOut();
      cpSync(base, out, { recursive: true, verbatimSymlinks: true });
      return out;
    };

    // A whole run, to learn the steps and how long it takes; the child's output equals the in-process one.
    const full = withS1();
    const whole = await runChild(lib, full, input, {});
    expect(whole.output).toContain("done");
    expect(tree(full)).toEqual(t2);
    const steps = [...whole.output.matchAll(/^step (.*)$/gm)].map((m) => m[1]!);

    const kills: { killAt?: string; killAfterMs?: number }[] = [
      ...steps.map((killAt) => ({ killAt })),
      ...Array.from({ length: 6 }, () => ({ killAfterMs: Math.floor(Math.random() * whole.ms) })),
    ];
    const outcomes: string[] = [];
    for (const kill of kills) {
      const out = withS1();
      const run = await runChild(lib, out, input, kill);
      const label = JSON.stringify(kill);
      if (kill.killAt !== undefined) expect(run.signal, label).toBe("SIGKILL");
      expectOnlyWholeShards(out, [t1, t2]);
      // The next job takes over the dead one's lock and recovers.
      const release = await lockOutput(out);
      await recoverStaging(out);
      await release();
      const after = tree(out);
      expect([t1, t2], label).toContainEqual(after);
      outcomes.push(`${label}: ${run.signal ?? "exit"} -> ${JSON.stringify(after) === JSON.stringify(t2) ? "new" : "old"}`);
      await writeSnapshot(big2, jsonlOptions(out));
      expect(tree(out), label).toEqual(t2);
      expect(leftovers(out), label).toEqual([]);
    }
    console.log(outcomes.join("\n"));
  });
});
