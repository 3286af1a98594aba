import type { AuthMode } from "../http/index.js";

export type PullFormat = "sft" | "rl" | "dpo";

/** The routes a pull reads, per credential (spec 4.2, 4.3, 4.5, 4.7 to 4.10). */
export interface PullRoutes {
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
      bulk: `/api/evals/finetuning${rl}`,
      run: (runId) => `/api/evals/${id(runId)}/finetuning${rl}`,
      scorecard: (runId) => `/api/evals/${id(runId)}/scorecard`,
      dpo: "/api/evals/dpo",
    };
  }
  return {
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
