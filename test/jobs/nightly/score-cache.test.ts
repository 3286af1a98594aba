import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatScoreCache, parseScoreCache } from "../../../src/jobs/nightly/score-cache-file.js";
import { tempDir } from "../../helpers/temp-dir.js";
import type { SeatGate } from "../../../src/formats/gate-book.js";
import type { CachedScore } from "../../../src/pull/index.js";
import { datasetOf, emulator, envFor, night } from "./support.js";

const root = tempDir("evalshard-score-cache-");
let n = 0;
const out = () => join(root, `o${n++}`);

interface Entry {
  run_id: string;
  version: number;
  gates: [string | null | false, string, string?][];
  composite: number | null;
}
const cachePath = (dataset: string) => join(dataset, "_cache/scorecards.ndjson");
const cacheOf = (dataset: string): Map<string, Entry> =>
  new Map(readFileSync(cachePath(dataset), "utf8").trim().split("\n").map((l) => { const e = JSON.parse(l) as Entry; return [e.run_id, e]; }));
const runsOfRows = (dataset: string) => readFileSync(join(dataset, "_state/ledger.ndjson"), "utf8").trim().split("\n").map((l) => (JSON.parse(JSON.parse(l).key) as [string, number])[0]);
/** Rows of a run in the dataset (gating is per seat: a run's ungated seats stay). */
const rowsOf = (dataset: string, runId: string) => runsOfRows(dataset).filter((id) => id === runId).length;

describe("a night fetches the scorecards only of runs new or rescored since the last published night", () => {
  it("a second night on an unchanged service fetches no scorecard; after advance only new and rescored runs'", async () => {
    const emu = await emulator({ seed: 21, runs: 150 });
    const dir = out();
    const dataset = join(dir, "nightly-sft");
    const first = await night("nightly-sft", envFor(emu, dir));
    const a = first.manifest.pull;
    expect(a?.scorecardsCached).toBe(0);
    expect(a?.scorecardsFetched).toBe(a?.runsScored);
    expect(cacheOf(dataset).size).toBe(a?.runsScored);
    // The emulator is strict: its scorecards carry only spec 2.7's fields, no per-card version to key on.
    const someRun = [...cacheOf(dataset).keys()][0] as string;
    const card = (await (await fetch(`${emu.url}/api/evals/${someRun}/scorecard`, { headers: { authorization: `Bearer ${emu.ownerToken}` } })).json()) as { scorecards: object[]; versions: number[] };
    expect(card.versions.length).toBeGreaterThan(0);
    for (const c of card.scorecards) expect(Object.keys(c).sort()).toEqual(expect.not.arrayContaining(["version", "seat_index", "role", "created_at"]));
    const before = datasetOf(dataset);
    const epoch = emu.epoch;

    const second = await night("nightly-sft", envFor(emu, dir));
    const b = second.manifest.pull;
    expect(emu.epoch).toBe(epoch);
    expect(second.changed).toBe(false);
    expect(b?.scorecardsFetched).toBe(0);
    expect(b?.scorecardsCached).toBe(a?.runsScored);
    expect(b?.requests).toBe((a?.requests ?? 0) - (a?.scorecardsFetched ?? 0));
    expect(datasetOf(dataset)).toEqual(before);

    const old = cacheOf(dataset);
    await emu.advance();
    const third = await night("nightly-sft", envFor(emu, dir));
    const now = cacheOf(dataset);
    const changed = [...now.values()].filter((e) => old.get(e.run_id)?.version !== e.version);
    const rescored = changed.filter((e) => old.has(e.run_id));
    expect(rescored.length).toBeGreaterThan(0);
    expect(changed.length).toBeGreaterThan(rescored.length);
    expect(third.manifest.pull?.scorecardsFetched).toBe(changed.length);
    expect(third.manifest.pull?.scorecardsCached).toBe(now.size - changed.length);

    // The same dataset, and the same cache, as a fresh pull that fetches every scorecard.
    const fresh = out();
    await night("nightly-sft", envFor(emu, fresh));
    expect(datasetOf(dataset)).toEqual(datasetOf(join(fresh, "nightly-sft")));
    expect(readFileSync(cachePath(dataset), "utf8")).toBe(readFileSync(cachePath(join(fresh, "nightly-sft")), "utf8"));
  });

  it("a run rescored into a gated version loses its gated seat", async () => {
    // The emulator's gating does not change with the version, so the night before the rescore is
    // given a cache that says the run's version then was not gated (as the service then said).
    const seed = 22;
    const probe = await emulator({ seed, runs: 150 });
    const probeDir = out();
    await night("nightly-sft", envFor(probe, probeDir));
    const atFirst = cacheOf(join(probeDir, "nightly-sft"));
    await probe.advance();
    await night("nightly-sft", envFor(probe, probeDir));
    const target = [...cacheOf(join(probeDir, "nightly-sft")).values()].find((e) => e.gates.some((g) => g[1] === "gated") && atFirst.has(e.run_id) && atFirst.get(e.run_id)?.version !== e.version);
    await probe.close();
    if (target === undefined) throw new Error(`seed ${seed} has no gated run rescored at epoch 1: pick another`);

    const emu = await emulator({ seed, runs: 150 });
    const dir = out();
    const dataset = join(dir, "nightly-sft");
    mkdirSync(join(dataset, "_cache"), { recursive: true });
    const was = atFirst.get(target.run_id) as Entry;
    writeFileSync(cachePath(dataset), `${JSON.stringify({ ...was, gates: [] })}\n`);
    // A cache planted by hand is no file evalshard wrote: forced (issue 40).
    await night("nightly-sft", envFor(emu, dir), true, undefined, { force: true });
    const before = rowsOf(dataset, target.run_id);
    expect(before).toBeGreaterThan(0);

    await emu.advance();
    const next = await night("nightly-sft", envFor(emu, dir));
    const gatedSeats = target.gates.filter((g) => g[1] === "gated").length;
    expect(gatedSeats).toBeGreaterThan(0);
    expect(rowsOf(dataset, target.run_id)).toBeLessThan(before);
    expect(next.manifest.night.removed).toBeGreaterThan(0);
    const fresh = out();
    await night("nightly-sft", envFor(emu, fresh));
    expect(datasetOf(dataset)).toEqual(datasetOf(join(fresh, "nightly-sft")));
  });

  it("a corrupt cache file is an empty cache: every scorecard is fetched", async () => {
    const emu = await emulator({ seed: 22, runs: 60 });
    const dir = out();
    const dataset = join(dir, "nightly-sft");
    mkdirSync(join(dataset, "_cache"), { recursive: true });
    writeFileSync(cachePath(dataset), "{not json\n");
    const r = await night("nightly-sft", envFor(emu, dir), true, undefined, { force: true });
    expect(r.manifest.pull?.scorecardsCached).toBe(0);
    expect(r.manifest.pull?.scorecardsFetched).toBe(r.manifest.pull?.runsScored);
  });
});

describe("the cache file", () => {
  it("round-trips, sorted by run id, composite null when unknown, an RL or DPO run's cards with their trait means", () => {
    const gates: SeatGate[] = [["key-1", "gated"], [false, "unreadable", 'participation_gated is "false"']];
    const cards = [
      { agentKeyId: "key-1", composite: 2.5, objectiveRate: 0.25, traits: { names: ["creativity", "toxicity"], means: Float64Array.of(2.5, Number.NaN) } },
      { agentKeyId: null, composite: null, objectiveRate: 0, traits: { names: [], means: new Float64Array(0) } },
    ];
    const cache = new Map<string, CachedScore>([["b", { version: 2, gates }], ["a", { version: 1, gates: [], composite: 3.25 }], ["c", { version: 3, gates: [], composite: 2.5, cards }]]);
    const text = formatScoreCache(cache);
    expect(text).toBe(
      '{"v":2,"run_id":"a","version":1,"gates":[],"composite":3.25}\n{"v":2,"run_id":"b","version":2,"gates":[["key-1","gated"],[false,"unreadable","participation_gated is \\"false\\""]],"composite":null}\n' +
        '{"v":2,"run_id":"c","version":3,"gates":[],"composite":2.5,"cards":[["key-1",2.5,0.25,{"creativity":2.5,"toxicity":null}],[null,null,0,{}]]}\n',
    );
    expect(new Map(parseScoreCache(text))).toEqual(cache);
  });

  it("a missing file (read as no text) is empty; bad lines are skipped; a repeated run voids the file", () => {
    expect(parseScoreCache("").size).toBe(0);
    // A line written before issue 39 (`gated` alone), or before issue 36 kept the seats' cards (no `v`), is no
    // cache: that run's scorecards are fetched again.
    const lines = [
      '{"v":2,"run_id":"a","version":1,"gates":[]}',
      '{"v":2,"run_id":"b","version":"2","gates":[]}',
      '{"v":2,"run_id":"c","version":1,"gated":false}',
      '{"v":2,"run_id":"d","version":1,"gates":[["k","maybe"]]}',
      '{"run_id":"e","version":1,"gates":[]}',
      '{"v":2,"run_id":"f","version":1,"gates":[],"cards":[["k",1,"0.5",{}]]}',
      '{"v":2,"run_id":"g","version":1,"gates":[],"cards":[["k",1,0.5,{"creativity":"2"}]]}',
      "not json",
    ];
    expect([...parseScoreCache(`${lines.join("\n")}\n`).keys()]).toEqual(["a"]);
    expect(parseScoreCache('{"v":2,"run_id":"a","version":1,"gates":[]}\n{"v":2,"run_id":"a","version":2,"gates":[]}\n').size).toBe(0);
  });
});
