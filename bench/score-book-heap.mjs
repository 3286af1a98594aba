// The score book's retained memory (heap + typed arrays' buffers) at N seats' scorecards, built by each given build's
// readScorecards: what a night or a convert holds for its whole run. Issue 36 added each card's per-trait means.
// Then an RL pull's scores (scoresOf with a client that answers the same responses): what a night holds after it
// took every run's scorecard, fetched (no cache) and from the cache a first night left (the rerun).
//   node --expose-gc bench/score-book-heap.mjs [--seats 100000] [--seats-per-run 2] --build main=/work/main/dist --build new=dist
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";

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

/** A client whose scorecard route answers each run's response, pinned to version 1. */
function clientOf(bodies) {
  return { auth: "agent", getJson: async (path) => bodies.get(decodeURIComponent(path.split("/").at(-2))) };
}

/**
 * The build's modules a pull's scores need. A build from before issue 33's session 28 keeps the book apart
 * (pull/pulled-book.js); a later one keeps the cache's cards in the book.
 */
async function pullModules(dir) {
  const load = (path) => import(pathToFileURL(resolve(dir, path)).href);
  const separate = existsSync(resolve(dir, "pull/pulled-book.js"));
  return {
    ...(await load("pull/scorecards.js")),
    ...(await load("pull/score-table.js")),
    ...(await load("pull/routes.js")),
    ...(await load("pull/pull-report.js")),
    ...(await load("jobs/nightly/score-cache-file.js")),
    Book: separate ? (await load("pull/pulled-book.js")).PulledBook : (await load("formats/score-book-writer.js")).ScoreBookWriter,
    separate,
  };
}

/** The scores a pull leaves (its cache for the next night and its score book), filled by the build's scoresOf. */
async function pullScores(m, bodies, cache) {
  const book = new m.Book();
  const out = m.separate ? new m.ScoreTable() : new m.ScoreTable(book);
  const runs = [...bodies.keys()];
  const tally = new m.PullTally({ source: "bench", auth: "agent", format: "rl", partition: null }, undefined);
  await m.scoresOf(clientOf(bodies), m.pullRoutes("agent", "rl"), runs, (run) => run, () => 1, { cache, out, book }, tally, () => {});
  // A pull holds its book's writer too, as long as its cache (the source's `found.book`).
  return { out, writer: book, book: book.book() };
}

/** Retained bytes while `fill()`'s result is held. */
async function held(fill) {
  const before = retained();
  const value = await fill();
  return [retained() - before, value];
}

const bodies = new Map([...responses()].map(([body]) => [body.scorecards[0].run_id, body]));
for (const spec of values.build) {
  const [name, dir] = spec.includes("=") ? spec.split("=") : [spec, spec];
  const m = await pullModules(dir);
  const mb = (b) => (b / 2 ** 20).toFixed(1);
  const [fetched, first] = await held(() => pullScores(m, bodies, undefined));
  // The next night: the cache as read from the file the first left, then a pull that takes every run from it.
  const text = m.formatScoreCache(first.out);
  const [cacheRead, cache] = await held(() => m.parseScoreCache(text));
  const [rerun, second] = await held(() => pullScores(m, bodies, cache));
  console.log(`${name}: a pull's scores of ${first.book.size} seats (cache out and book) retain ${mb(fetched)} MB; the next night's cache read ${mb(cacheRead)} MB, its pull's scores ${mb(rerun)} MB more (${second.book.size} seats)`);
}
