import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { sha256Hex } from "../../core/sha256-hex.js";
import { tryParseJson } from "../../core/try-parse-json.js";
import { EVALSHARD_VERSION } from "../../core/version.js";
import { STATE_DIR } from "../../dataset/ledger.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import type { HttpSource } from "../../pull/index.js";
import { formatScoreCache } from "./score-cache-file.js";

/**
 * Published with the dataset's state: the digest of everything the night that published it converted,
 * so the next night can tell that it has nothing new without converting again (docs/decisions.md,
 * "A rerun with nothing new").
 */
export const NIGHT_INPUT_NAME = "night-input.json";
export const NIGHT_INPUT_FILE = `${STATE_DIR}/${NIGHT_INPUT_NAME}`;

/** `_state/night-input.json`. */
export interface NightInput {
  /** See {@link nightInputDigest}. */
  readonly input_sha256: string;
  /** The state's ledger this input produced: a file that does not match the state is ignored. */
  readonly ledger_sha256: string;
  /** Distinct record keys of the first read, for the progress line of a night that converts nothing. */
  readonly keys: number;
}

/**
 * sha256 over all a night's conversion depends on: evalshard's version, the pipeline (which carries
 * no secret: credentials come from the environment), the pulled lines' bytes, the gated runs, the
 * scores by run, a DPO view's context file, and the benchmark suites answer. Equal digests mean the engine would produce the same
 * records, counts and manifest, since the stages are deterministic functions of these.
 */
export async function nightInputDigest(spec: PipelineSpec, http: HttpSource, suitesSha: string | null = null): Promise<string> {
  const input = await http.info();
  const context = http.contextFile();
  const facts = {
    evalshard: EVALSHARD_VERSION,
    spec,
    input: { bytes: input.bytes, sha256: input.sha256 },
    gates: http.gates().entries.map((e) => JSON.stringify(e)).sort(),
    scores: sha256Hex(formatScoreCache(http.scoreCacheOut())),
    context: context === null ? null : await fileSha256(context),
    // Issue 35: the suites answer the night decontaminated against.
    ...(suitesSha === null ? {} : { suites: suitesSha }),
  };
  return sha256Hex(JSON.stringify(facts));
}

/** The file's text, or null when it is missing or not one this code wrote (then the night converts). */
export function parseNightInput(text: string | null): NightInput | null {
  if (text === null) return null;
  const value = tryParseJson(text) as Partial<NightInput> | null | undefined;
  const ok = typeof value?.input_sha256 === "string" && typeof value.ledger_sha256 === "string" && Number.isSafeInteger(value.keys);
  return ok ? (value as NightInput) : null;
}

export function formatNightInput(input: NightInput): string {
  return `${JSON.stringify(input, null, 2)}\n`;
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
