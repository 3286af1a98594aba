import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetReadObjects } from "hyparquet";
import { zstdDecompressSync as zstdDecompress } from "node:zlib";
import { describe, expect, it } from "vitest";
import { convert } from "../../src/index.js";
import { FIXTURES } from "../helpers/flow.js";
import { tempDir } from "../helpers/temp-dir.js";

// rl-steps' `observation` column holds JSON.stringify of the observation. The parallel engine's workers write the
// input's bytes instead when they are already that text (src/views/is-stringify-form.ts): every spelling below
// must still give, on both executors, exactly JSON.stringify(JSON.parse(spelling)).
const SPELLINGS = [
  '{"turn":1,"in_combat":false}',
  '{ "turn": 1, "in_combat": false }',
  '{"turn":1.0,"x":1E3,"y":-0,"z":1e21,"w":0.1,"v":12345678901234567890}',
  '{"b":1,"a":2,"b":3}',
  '{"b":1,"10":2,"2":3}',
  '{"s":"\\/\\u0041\\u001F\\u000a\\ud83d\\ude00","t":"naïve \\" \\\\ \\b\\f\\n\\r\\t\\u0000"}',
  '{"\\u0061":1,"a\\nb":[1,{"c":null}]}',
  '[1,[],{},"x",true,null]',
  '"just a string"',
  "42",
  '{"__proto__":{"x":1},"list":[ 1 , 2 ]}',
];

const root = tempDir("evalshard-rl-obs-");

async function observations(engine: "threads" | "main", input: string): Promise<unknown[]> {
  const out = join(root, engine);
  await convert({ inputs: [input], out, view: "rl-steps", workers: engine === "threads" ? 2 : 0 });
  const rows: Record<string, unknown>[] = [];
  for (const f of readdirSync(join(out, "data")).filter((f) => f.endsWith(".parquet")).sort()) {
    const bytes = readFileSync(join(out, "data", f));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    rows.push(...((await parquetReadObjects({ file, compressors: { ZSTD: (input: Uint8Array) => new Uint8Array(zstdDecompress(input)) } })) as Record<string, unknown>[]));
  }
  return rows.map((r) => r.observation);
}

describe("rl-steps' observation column", () => {
  it("holds JSON.stringify of the observation however the input spells it, on both executors", async () => {
    const [line] = readFileSync(`${FIXTURES}records/views-rl.ndjson`, "utf8").split("\n");
    const record = JSON.parse(line as string) as { tuples: { index: number; state: { observation: unknown } }[] };
    const step = JSON.stringify(record.tuples[0]);
    // A record per spelling (a line the fast walk declines goes to the slow path whole), its first step's
    // observation a placeholder replaced by the spelling in the line's text.
    const lines = SPELLINGS.map((spelling, i) => {
      const copy = { ...record, run_id: `run-${i}`, tuples: [{ ...(JSON.parse(step) as (typeof record.tuples)[number]) }] };
      (copy.tuples[0] as (typeof record.tuples)[number]).state.observation = "@obs@";
      return JSON.stringify(copy).replace('"@obs@"', spelling);
    });
    const input = join(root, "rl.ndjson");
    writeFileSync(input, `${lines.join("\n")}\n`);
    const expected = SPELLINGS.map((s) => JSON.stringify(JSON.parse(s)));
    expect(await observations("threads", input)).toEqual(expected);
    expect(await observations("main", input)).toEqual(expected);
  });
});
