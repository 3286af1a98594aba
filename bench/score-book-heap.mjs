// The score book's retained memory (heap + typed arrays' buffers) at N seats' scorecards, built by each given build's
// readScorecards: what a night or a convert holds for its whole run. Issue 36 added each card's per-trait means.
//   node --expose-gc bench/score-book-heap.mjs [--seats 100000] [--seats-per-run 2] --build main=/work/main/dist --build new=dist
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { seats: { type: "string", default: "100000" }, "seats-per-run": { type: "string", default: "2" }, build: { type: "string", multiple: true, default: ["new=dist"] } } });
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
const seats = Number(values.seats);
const perRun = Number(values["seats-per-run"]);
const TRAITS = ["honesty", "planning", "clarity", "cooperation", "adaptability", "persuasion", "tool_use"];

/** A seeded generator, so each build reads the same cards. */
function random32(seed) {
  let s = seed >>> 0;
  return () => ((s = (s + 0x6d2b79f5) >>> 0), (((s ^ (s >>> 15)) * (1 | s)) >>> 0) / 2 ** 32);
}

/** One `{scorecards, versions}` response per run, as the service answers, each card with ~6 of 7 traits. */
function* responses() {
  const random = random32(36);
  for (let run = 0; run * perRun < seats; run++) {
    const cards = [];
    for (let k = 0; k < perRun; k++) {
      const perTrait = {};
      for (const name of TRAITS) if (random() < 0.85) perTrait[name] = { mean: 1 + Math.round(random() * 400) / 100, variance: 0.1, evidence: [] };
      const total = 1 + Math.floor(random() * 20);
      cards.push({
        run_id: `run-${run.toString(36).padStart(8, "0")}-${Math.floor(random() * 1e9)}`.slice(0, 20),
        agent_key_id: k === perRun - 1 ? null : `key-${k}`,
        outcomes: { met_count: Math.floor(random() * total), total_checks: total, total_actions: 5, win_conditions: [], partial_credit: { per_condition: {}, total: 0, max_possible: 0 } },
        traits: { per_trait: perTrait },
      });
    }
    for (const c of cards) c.run_id = cards[0].run_id;
    yield [{ scorecards: cards, versions: [1] }, `line ${run + 1}`];
  }
}

const retained = () => {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * The book alone: read in a function of its own, as an await-free frame's temporaries (the whole `Scorecards`,
 * gates included) stay alive in the loop's frame until it next awaits, which counted them as the book's.
 */
function bookOf(readScorecards) {
  return readScorecards(responses()).book;
}

for (const spec of values.build) {
  const [name, dir] = spec.includes("=") ? spec.split("=") : [spec, spec];
  const { readScorecards } = await import(pathToFileURL(resolve(dir, "stages/read-scorecards.js")).href);
  const before = retained();
  let book = bookOf(readScorecards);
  const after = retained();
  const size = book.size;
  book = null;
  const mb = (b) => (b / 2 ** 20).toFixed(1);
  console.log(`${name}: ${size} seats' score book retains ${mb(after - before)} MB (${((after - before) / size).toFixed(0)} bytes a seat); ${mb(retained() - before)} MB once dropped`);
}
