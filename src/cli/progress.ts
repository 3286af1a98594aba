import type { NightPhase } from "../jobs/nightly/open-source.js";
import type { PullEvent } from "../pull/index.js";

/** Where a night's progress goes: a redrawn bar on a terminal, one JSON line per phase otherwise (cron, Kubernetes). */
export interface Progress {
  pullEvent(event: PullEvent): void;
  phase(event: NightPhase): void;
  /** Clears the bar before the final summary. */
  end(): void;
}

export function createProgress(pipeline: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  const log = (fields: Record<string, unknown>) => stream.write(`${JSON.stringify({ ts: new Date().toISOString(), pipeline, ...fields })}\n`);
  if (stream.isTTY !== true) {
    return {
      pullEvent(e) {
        // Phase-level only: per-run events would flood a cron log.
        if (e.type === "listed") log({ phase: "listed", runs: e.runs, in_partition: e.inPartition, scored: e.scored });
        else if (e.type === "scorecards") log({ phase: "scorecards", runs: e.runs, gated: e.gated });
        else if (e.type === "done") log({ phase: "pulled", records: e.report.records, requests: e.report.requests, retries: e.report.retries, hedges: e.report.hedges, deferred: e.report.deferred.length, stream_errors: e.report.streamErrors });
      },
      phase: (e) => log({ ...e }),
      end: () => undefined,
    };
  }
  let scored = 0;
  let runs = 0;
  let records = 0;
  let label = "listing runs";
  let last = 0;
  const draw = (force = false) => {
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    const seconds = Math.max((now - started) / 1000, 0.001);
    const rate = records / seconds;
    const eta = runs > 0 && scored > runs ? ` ETA ${Math.ceil(((scored - runs) * seconds) / runs)}s` : "";
    const width = 24;
    const done = scored === 0 ? 0 : Math.min(1, runs / scored);
    const bar = `${"#".repeat(Math.round(done * width))}${"-".repeat(width - Math.round(done * width))}`;
    stream.write(`\r\x1b[2K${pipeline} [${bar}] ${runs}/${scored} runs  ${records} records  ${Math.round(rate)} rec/s${eta}  ${label}`);
  };
  return {
    pullEvent(e) {
      if (e.type === "listed") scored = e.scored;
      else if (e.type === "bulk") {
        records += e.records;
        label = "bulk streams";
      } else if (e.type === "run_fetched") {
        runs += 1;
        records += e.records;
        label = "per-run fetches";
      } else if (e.type === "done") {
        runs = e.report.runsFetched;
        label = "pulled";
      }
      draw();
    },
    phase(e) {
      label = e.phase;
      draw(true);
    },
    end: () => stream.write("\r\x1b[2K"),
  };
}
