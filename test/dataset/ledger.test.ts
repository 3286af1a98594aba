import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LEDGER_FILE, readDataset, readDatasetState, readLedgerOf, STATE_FILE, writeLedger, writeState } from "../../src/dataset/ledger.js";
import type { DatasetState, LedgerEntry } from "../../src/dataset/ledger.js";
import { IoError } from "../../src/core/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const root = tempDir("evalshard-ledger-");
let counter = 0;
const freshDir = () => {
  const dir = join(root, `d-${counter++}`);
  mkdirSync(dir);
  return dir;
};

const ENTRIES: LedgerEntry[] = [
  { key: '["a"]', bucket: 1, version: 2, sha256: "aa" },
  { key: '["b"]', bucket: 0, version: null, sha256: "bb" },
];

async function writeBoth(dir: string): Promise<DatasetState> {
  const ledgerSha256 = await writeLedger(dir, ENTRIES);
  const state: DatasetState = {
    ledger_version: 1,
    format: { name: "sft", version: "1.1" },
    shard_format: { description: "jsonl/none", extension: ".jsonl" },
    columns_sha256: "cc",
    buckets: 2,
    rows: ENTRIES.length,
    ledger_sha256: ledgerSha256,
    shards: [],
  };
  await writeState(dir, state);
  return state;
}

describe("readDataset", () => {
  it("is null where no snapshot dataset was written", async () => {
    expect(await readDataset(freshDir())).toBeNull();
    expect(await readDataset(join(root, "missing"))).toBeNull();
  });

  it("reads back what was written: one ledger line per record, in the order given", async () => {
    const dir = freshDir();
    const state = await writeBoth(dir);
    expect(readFileSync(join(dir, LEDGER_FILE), "utf8").trim().split("\n")).toEqual(ENTRIES.map((e) => JSON.stringify(e)));
    const read = await readDataset(dir);
    expect(read?.state).toEqual(state);
    expect([...read!.ledger.values()]).toEqual(ENTRIES);
  });

  it("refuses a ledger that does not match the state", async () => {
    const dir = freshDir();
    await writeBoth(dir);
    writeFileSync(join(dir, LEDGER_FILE), `${JSON.stringify(ENTRIES[0])}\n`);
    await expect(readDataset(dir)).rejects.toThrow(/does not match/);
  });

  it("refuses a state it did not write, naming the file", async () => {
    const dir = freshDir();
    await writeBoth(dir);
    writeFileSync(join(dir, STATE_FILE), "{not json");
    await expect(readDataset(dir)).rejects.toThrow(IoError);
    writeFileSync(join(dir, STATE_FILE), JSON.stringify({ ledger_version: 9 }));
    await expect(readDataset(dir)).rejects.toThrow(/ledger_version 9/);
    writeFileSync(join(dir, STATE_FILE), JSON.stringify({ ledger_version: 1 }));
    await expect(readDataset(dir)).rejects.toThrow(/state\.json is missing fields/);
  });
});

describe("readDatasetState: the state, its ledger checked but not kept (a night reads it only to build)", () => {
  it("gives the state of a good dataset, and the ledger after it on request", async () => {
    const dir = freshDir();
    const state = await writeBoth(dir);
    expect(await readDatasetState(dir)).toEqual(state);
    expect([...(await readLedgerOf(dir, state)).values()]).toEqual(ENTRIES);
    expect(await readDatasetState(freshDir())).toBeNull();
  });

  it("refuses a ledger that does not match the state at once, as readDataset does", async () => {
    const dir = freshDir();
    const state = await writeBoth(dir);
    writeFileSync(join(dir, LEDGER_FILE), `${JSON.stringify(ENTRIES[0])}\n${JSON.stringify({ ...ENTRIES[1], sha256: "changed" })}\n`);
    await expect(readDatasetState(dir)).rejects.toThrow(/does not match/);
    await expect(readLedgerOf(dir, state)).rejects.toThrow(/does not match/);
  });
});
