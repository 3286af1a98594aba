import { ConfigError, SuitesError } from "../../core/errors.js";
import { TOKEN_ENV } from "../../http/index.js";
import { REJECTED_DIR, rejectedName } from "../../output/publish-guard.js";
import type { Files } from "../../output/storage.js";
import { writeText } from "../../output/write-text.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import { suiteLabel, type SuitePin } from "../../formats/suite-book.js";
import { pickSuites, readSuitesAnswer } from "../../formats/suites-answer.js";
import { clientOf, type SourceEnvironment } from "./open-source.js";

/** The suites route (spec 4.6): public and unlisted released suites, read with an agent key. */
export const SUITES_ROUTE = "/api/agent/suites";

/** What a night decontaminates against. */
export interface NightSuites {
  /** `--suites` as asked: all, none, or KEY@VERSION,... */
  readonly asked: string;
  /** The suites applied; empty when off or undecidable. */
  readonly suites: readonly SuitePin[];
  /** sha256 (hex) of the suites answer's bytes; null when none was read. */
  readonly sha256: string | null;
  /** Why records cannot be decided (then kept, with this warning); null when they can. */
  readonly undecidable: string | null;
}

type HttpSource = Extract<PipelineSpec["source"], { kind: "http" }>;

/**
 * The night's suites: read once, before anything is pulled, with the agent key (`EVAL_API_KEY`; spec 4.6
 * is an agent route, so an owner pull needs the key too). Retried like the exports, under the night's
 * budget; a failure that outlasts them fails the night. An answer that fails spec 2.10's shape is kept
 * under `_rejected/` (`quarantine`) and fails the night with a SuitesError (exit 9): training on an answer
 * that cannot be read could keep a benchmark scenario.
 */
export async function nightSuites(source: HttpSource, environment: SourceEnvironment, quarantine: Files): Promise<NightSuites> {
  const asked = source.suites;
  const off = { asked, suites: [], sha256: null };
  if (asked === "none") return { ...off, undecidable: null };
  const cannot = (why: string): NightSuites => {
    if (source.require_suites) throw new ConfigError(`--require-suites: ${why}`);
    return { ...off, undecidable: `decontamination: ${why}; no record was checked against the benchmark suites (pass --suites none to say so, or --require-suites to make this an error)` };
  };
  // Agent routes carry no run document (spec 2.4: owner routes only), so no record's scenario hash: their
  // records are decided by scenario id alone, and a copy of a pinned scenario (another id) goes unseen.
  const agent = source.auth === "agent";
  if (agent && source.require_suites) throw new ConfigError("--require-suites: agent routes give no scenario_version_hash, so a copy of a benchmark scenario cannot be told");
  if (environment.env[TOKEN_ENV.agent] === undefined) return cannot(`${TOKEN_ENV.agent} is not set, and the suites route (${SUITES_ROUTE}) takes an agent key`);
  let digest: string | null = null;
  // One request with the agent key, hedged whatever the pull's own setting.
  const suitesClient = { ...source, auth: "agent" as const, concurrency: 1, hedge: "on" as const };
  const client = clientOf(suitesClient, environment, undefined, (d) => void (digest = Buffer.from(d.sha256, "base64url").toString("hex")));
  const body = await client.getJson<unknown>(SUITES_ROUTE);
  const sha256 = digest ?? "";
  const answer = readSuitesAnswer(body, sha256);
  if (!answer.ok) {
    const kept = `${REJECTED_DIR}/${rejectedName()}/suites-answer.json`;
    await writeText(quarantine, kept, `${JSON.stringify(body, null, 2)}\n`);
    throw new SuitesError(`The benchmark suites answer of ${SUITES_ROUTE} fails spec 2.10: ${answer.fault}; it is kept as ${kept} and the night published nothing (pass --suites none to pull without decontamination)`);
  }
  const picked = pickSuites(answer.suites, asked);
  if (picked.missing.length > 0) {
    throw new SuitesError(`--suites names ${picked.missing.join(", ")}, which ${SUITES_ROUTE} does not list as released (it lists ${answer.suites.map(suiteLabel).join(", ") || "none"})`);
  }
  const byIdOnly = agent && picked.suites.length > 0 ? "decontamination: agent routes give no scenario_version_hash; records were checked by scenario id only, so a copy of a benchmark scenario under another id is kept (pull with the owner token to check by hash)" : null;
  return { asked, suites: picked.suites, sha256, undecidable: byIdOnly };
}
