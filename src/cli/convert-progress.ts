import type { ConvertPhase } from "../jobs/convert-phase.js";

/**
 * Where a convert's progress goes, as a night's (progress.ts): a redrawn status line on a terminal, one JSON
 * line per phase otherwise (cron, CI logs). The engines report no per-record progress, so the line names the
 * phase under way and the time spent; the JSON lines carry each phase's counts.
 */
export function convertProgress(stream: NodeJS.WriteStream = process.stderr): { readonly onPhase: (phase: ConvertPhase) => void; end(): void } {
  const started = Date.now();
  if (stream.isTTY !== true) {
    return { onPhase: (e) => stream.write(`${JSON.stringify({ ts: new Date().toISOString(), command: "convert", ...e })}\n`), end: () => undefined };
  }
  let drawn = true;
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  stream.write(`\r\x1b[2Kconvert  opening inputs`);
  const clear = () => {
    if (drawn) stream.write("\r\x1b[2K");
    drawn = false;
  };
  return {
    onPhase(e) {
      if (e.phase === "published") return clear(); // the summary follows on stdout
      drawn = true;
      if (e.phase === "opened") stream.write(`\r\x1b[2Kconvert  ${seconds()}s  converting ${e.inputs} input(s)`);
      else stream.write(`\r\x1b[2Kconvert  ${seconds()}s  ${e.records_in} records in, ${e.records_out} out (${e.engine} engine); publishing`);
    },
    /** Clears the line (once) so an error message starts at the line's beginning. */
    end: clear,
  };
}
