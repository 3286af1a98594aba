import { suiteLabel, type SuitePin } from "./suite-book.js";
import { isRecord } from "../core/is-record.js";
import { sha256Hex } from "../core/sha256-hex.js";
import { tryParseJson } from "../core/try-parse-json.js";

/** A `GET /api/agent/suites` answer (or a saved copy of one) read against spec 2.10. */
export type SuitesAnswer =
  | { readonly ok: true; readonly suites: readonly SuitePin[]; readonly sha256: string }
  | { readonly ok: false; readonly fault: string; readonly sha256: string };

const STRINGS = ["suite_key", "title", "description", "released_at"] as const;
const LISTS = ["scenario_ids", "scenario_version_hashes", "traits"] as const;

/**
 * The suites of an answer's bytes (hashed for the manifest), or the first way it fails spec 2.10's shape (`{suites: [...]}`, each
 * with every field 2.10 lists, `status` `released`, `visibility` `public` or `unlisted`, as many hashes as
 * scenario ids). A malformed answer is never half-used: training on it could keep a benchmark scenario.
 */
export function suitesAnswerOfBytes(bytes: string | Buffer): SuitesAnswer {
  const sha256 = sha256Hex(bytes);
  const body = tryParseJson(typeof bytes === "string" ? bytes : bytes.toString("utf8"));
  if (body === undefined) return { ok: false, fault: "the answer is not JSON", sha256 };
  return readSuitesAnswer(body, sha256);
}

/** {@link suitesAnswerOfBytes} of a body already parsed; `sha256`: of its bytes, hex. */
export function readSuitesAnswer(body: unknown, sha256: string): SuitesAnswer {
  const fail = (fault: string): SuitesAnswer => ({ ok: false, fault, sha256 });
  if (!isRecord(body) || !Array.isArray(body.suites)) return fail("the answer has no `suites` list");
  const suites: SuitePin[] = [];
  for (const [i, suite] of (body.suites as unknown[]).entries()) {
    const where = `suites[${i}]`;
    if (!isRecord(suite)) return fail(`${where} is not an object`);
    for (const field of STRINGS) if (typeof suite[field] !== "string") return fail(`${where}.${field} is not a string`);
    if (suite.suite_key === "") return fail(`${where}.suite_key is empty`);
    for (const field of LISTS) {
      const list = suite[field];
      if (!Array.isArray(list) || !list.every((x) => typeof x === "string" && x !== "")) return fail(`${where}.${field} is not a list of strings`);
    }
    for (const field of ["version", "reps_per_scenario"] as const) {
      if (typeof suite[field] !== "number" || !Number.isSafeInteger(suite[field])) return fail(`${where}.${field} is not an integer`);
    }
    if (suite.status !== "released") return fail(`${where}.status is ${JSON.stringify(suite.status)}, not "released"`);
    if (suite.visibility !== "public" && suite.visibility !== "unlisted") return fail(`${where}.visibility is ${JSON.stringify(suite.visibility)}, not "public" or "unlisted"`);
    const ids = suite.scenario_ids as string[];
    const hashes = suite.scenario_version_hashes as string[];
    if (ids.length !== hashes.length) return fail(`${where} pins ${ids.length} scenario ids and ${hashes.length} hashes`);
    suites.push({ key: suite.suite_key as string, version: suite.version as number, scenarioIds: ids, hashes });
  }
  const labels = suites.map(suiteLabel);
  const twice = labels.find((label, i) => labels.indexOf(label) !== i);
  if (twice !== undefined) return fail(`${twice} is listed twice`);
  return { ok: true, suites, sha256 };
}

/**
 * The suites asked for: all (`--suites` unset or `all`), none (`none`), or those named `KEY@VERSION,...`.
 * Returns the names the answer does not hold, for the caller to fail on.
 */
export function pickSuites(suites: readonly SuitePin[], asked: string): { readonly suites: readonly SuitePin[]; readonly missing: readonly string[] } {
  if (asked === "all") return { suites, missing: [] };
  if (asked === "none") return { suites: [], missing: [] };
  const names = asked.split(",").map((s) => s.trim());
  const picked = suites.filter((s) => names.includes(suiteLabel(s)));
  return { suites: picked, missing: names.filter((n) => !picked.some((s) => suiteLabel(s) === n)) };
}
