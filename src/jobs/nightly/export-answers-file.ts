import { EVALSHARD_VERSION } from "../../core/version.js";
import { STATE_DIR } from "../../dataset/ledger.js";
import type { PipelineSpec } from "../../pipeline-file/pipeline-spec.js";
import type { PullReport } from "../../pull/index.js";
import { sha256Hex } from "../../core/sha256-hex.js";
import { tryParseJson } from "../../core/try-parse-json.js";

/**
 * Published with the dataset's state by a night that pulled and converted: what each export request of
 * its pull answered (ExportAnswers), so the next night can tell it has nothing new by requesting the same
 * targets and comparing bodies, without parsing them (docs/decisions.md, "A no-op rerun compares answers").
 */
export const EXPORT_ANSWERS_NAME = "export-answers.txt";
export const EXPORT_ANSWERS_FILE = `${STATE_DIR}/${EXPORT_ANSWERS_NAME}`;

/** The file's first line. */
export interface ExportAnswersHeader {
  readonly format: "evalshard-export-answers/1";
  /** The night input these answers were pulled into (night-input.json's `input_sha256`). */
  readonly input_sha256: string;
  /** See {@link setupDigest}: a different evalshard or pipeline pulls and converts differently. */
  readonly setup_sha256: string;
  /** sha256 of the score cache published with it: a rerun must read exactly that cache. */
  readonly score_cache_sha256: string;
  readonly requests: number;
  /** What a pull of the same answers reports (tonight's retries and hedges are added). */
  readonly report: PullReport;
}

export interface ExportAnswersFile {
  readonly header: ExportAnswersHeader;
  /** `sha256<TAB>bytes<TAB>target` lines. */
  readonly entries: string;
}

/** sha256 over evalshard's version and the pipeline (which carries no secret), as the night input has them. */
export function setupDigest(spec: PipelineSpec, suitesSha: string | null = null): string {
  // The suites answer too (issue 35): a suite released since is a reason to pull and convert again.
  return sha256Hex(JSON.stringify({ evalshard: EVALSHARD_VERSION, spec, ...(suitesSha === null ? {} : { suites: suitesSha }) }));
}

export function formatExportAnswers(file: ExportAnswersFile): string {
  return `${JSON.stringify(file.header)}\n${file.entries}`;
}

/** The file, or null when it is missing or not one this code wrote (then the night pulls as usual). */
export function parseExportAnswers(text: string | null): ExportAnswersFile | null {
  if (text === null) return null;
  const nl = text.indexOf("\n");
  if (nl === -1) return null;
  const header = tryParseJson(text.slice(0, nl)) as Partial<ExportAnswersHeader> | null | undefined;
  const entries = text.slice(nl + 1);
  const lines = entries === "" ? 0 : entries.split("\n").length - 1;
  const ok =
    header?.format === "evalshard-export-answers/1" &&
    typeof header.input_sha256 === "string" &&
    typeof header.setup_sha256 === "string" &&
    typeof header.score_cache_sha256 === "string" &&
    typeof header.report === "object" &&
    header.report !== null &&
    Number.isSafeInteger(header.requests) &&
    (header.requests as number) > 0 &&
    lines === header.requests &&
    entries.endsWith("\n");
  return ok ? { header: header as ExportAnswersHeader, entries } : null;
}
