import { readFile } from "node:fs/promises";
import { ConfigError, SuitesError } from "../core/errors.js";
import { ioStep } from "../core/io-step.js";
import { SuiteBook, type SuitePin } from "../formats/suite-book.js";
import { suitesAnswerOfBytes } from "../formats/suites-answer.js";
import { isRecord } from "../core/is-record.js";

/** convert's decontamination (issue 35): the suites of a saved answer, its sha256, and the rule over them. */
export interface SuitesInputs {
  readonly path: string;
  readonly sha256: string;
  readonly suites: readonly SuitePin[];
  readonly book: SuiteBook;
}

/**
 * Reads `--suites FILE` (a saved `GET /api/agent/suites` answer) and `--run-manifests FILE` (run id to
 * scenario hash, for RL and DPO records, which carry none). A suites file that fails spec 2.10's shape is a
 * SuitesError (exit 9), as the night's answer is; an unreadable run manifest line a ConfigError naming it.
 */
export async function readSuitesInputs(path: string, runManifests: string | undefined): Promise<SuitesInputs> {
  const answer = suitesAnswerOfBytes(await readBytes(path));
  if (!answer.ok) throw new SuitesError(`--suites ${JSON.stringify(path)} fails spec 2.10: ${answer.fault}`);
  const hashes = runManifests === undefined ? new Map<string, string>() : runHashes(await readBytes(runManifests), runManifests);
  return { path, sha256: answer.sha256, suites: answer.suites, book: SuiteBook.of({ suites: answer.suites, runHashes: [...hashes] }) };
}

/**
 * Run id to scenario hash, from NDJSON or a JSON list of `{run_id, manifest: {scenario_version_hash}}` (a
 * run document, or a scorecard answer whose first card names the run) or `{run_id, scenario_version_hash}`.
 */
function runHashes(bytes: Buffer, path: string): Map<string, string> {
  const text = bytes.toString("utf8").trim();
  let values: unknown[];
  try {
    values = text.startsWith("[") ? (JSON.parse(text) as unknown[]) : text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as unknown);
  } catch (error) {
    throw new ConfigError(`--run-manifests ${JSON.stringify(path)} is not NDJSON or a JSON list: ${(error as Error).message}`);
  }
  const hashes = new Map<string, string>();
  for (const [i, value] of values.entries()) {
    const v = isRecord(value) ? value : {};
    const card = Array.isArray(v.scorecards) && isRecord(v.scorecards[0]) ? v.scorecards[0] : {};
    const runId = typeof v.run_id === "string" ? v.run_id : card.run_id;
    const hash = isRecord(v.manifest) ? v.manifest.scenario_version_hash : v.scenario_version_hash;
    if (typeof runId !== "string" || runId === "" || typeof hash !== "string" || hash === "") {
      throw new ConfigError(`--run-manifests ${JSON.stringify(path)}, entry ${i + 1}: expected a run_id and a manifest.scenario_version_hash`);
    }
    hashes.set(runId, hash);
  }
  return hashes;
}

const readBytes = (path: string): Promise<Buffer> => ioStep(path, "read", () => readFile(path));
