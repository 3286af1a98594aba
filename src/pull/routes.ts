import type { AuthMode } from "../http/index.js";

export type PullFormat = "sft" | "rl" | "dpo";

/** The routes a pull reads, per credential (spec 4.2, 4.3, 4.5, 4.7 to 4.10). */
export interface PullRoutes {
  /** The route a source is named after: the bulk export, or the DPO pair route. */
  readonly main: string;
  /** Bulk NDJSON export of the format (SFT for DPO, whose pairing needs `flagged` and the scenario). */
  readonly bulk: string;
  /** Per-run `{records}` export of the format (SFT for DPO). */
  readonly run: (runId: string) => string;
  readonly scorecard: (runId: string) => string;
  readonly dpo: string;
}

export function pullRoutes(auth: AuthMode, format: PullFormat): PullRoutes {
  const rl = format === "rl" ? "/rl" : "";
  const id = encodeURIComponent;
  if (auth === "owner") {
    return {
      main: format === "dpo" ? "/api/evals/dpo" : `/api/evals/finetuning${rl}`,
      bulk: `/api/evals/finetuning${rl}`,
      run: (runId) => `/api/evals/${id(runId)}/finetuning${rl}`,
      scorecard: (runId) => `/api/evals/${id(runId)}/scorecard`,
      dpo: "/api/evals/dpo",
    };
  }
  return {
    main: format === "dpo" ? "/api/agent/finetuning/dpo" : `/api/agent/finetuning${rl}`,
    bulk: `/api/agent/finetuning${rl}`,
    run: (runId) => `/api/agent/runs/${id(runId)}/finetuning${rl}`,
    scorecard: (runId) => `/api/agent/runs/${id(runId)}/scorecard`,
    dpo: "/api/agent/finetuning/dpo",
  };
}

/**
 * Whether a request target (path and query) is a scorecard route of {@link pullRoutes}: both end their
 * path in `/scorecard`, and a run id in the path is percent-encoded, so it cannot end one so itself.
 */
export function isScorecardTarget(target: string): boolean {
  const q = target.indexOf("?");
  return (q === -1 ? target : target.slice(0, q)).endsWith("/scorecard");
}
