import { parseExact, stringifyExact } from "../core/exact-json.js";
import { lineDigest } from "../core/line-digest.js";
import { putExactSeed, takeExactSeed } from "./exact-seed.js";
import { FORMAT_REGISTRY } from "../formats/index.js";
import type { Format } from "../formats/format.js";
import type { FormatRegistry } from "../formats/format-registry.js";
import { streamErrorLine } from "../formats/stream-error.js";
import type { Flow } from "../core/flow.js";
import type { QuarantineReason } from "../core/reasons.js";
import type { SourceLine } from "../sources/line-source.js";
import type { ValidRecord } from "../formats/valid-record.js";
import { describeIssues } from "./describe-issues.js";
import { MAY_HOLD_PROTO, hideProtoKeys, restoreProtoKeys } from "./proto-keys.js";
import { quarantine, tooLongLine } from "./quarantine-item.js";

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

export interface ValidateOptions {
  /**
   * The dataset's format. Records of any other format are quarantined as `mixed_format`.
   * When not given, the first line that names a known format decides, and `onFormat` hears of it.
   */
  readonly format?: Format;
  /**
   * Judge every line by `format`'s version field alone (the user forced the format): a record of another
   * format is then `unsupported_format_version`. Otherwise each line's format is detected.
   */
  readonly forced?: boolean;
  /** Accept later minor versions of the same major (e.g. SFT "1.2"); off by default. */
  readonly acceptLaterMinor?: boolean;
  /** The format versions accepted, each record judged by its own version's schema; default: evalshard's. */
  readonly formats?: FormatRegistry;
  readonly onFormat?: (format: Format) => void;
}

/** Parses and validates lines into records; everything that does not fit is quarantined with its reason. */
export function validate(options: ValidateOptions = {}) {
  return async function* (lines: AsyncIterable<SourceLine>): AsyncIterable<Flow<ValidRecord>> {
    const validator = lineValidator(options);
    for await (const line of lines) yield validator(line);
  };
}

/**
 * The validate stage's rule for one line, synchronous: what worker threads run on the lines their fast
 * parser gave up on. Keeps the detected format and the ordinal of valid records between calls.
 */
export function lineValidator(options: ValidateOptions = {}): (line: SourceLine) => Flow<ValidRecord> {
  const formats = options.formats ?? FORMAT_REGISTRY;
  let format = options.format;
  let ordinal = 0;
  return (line) => {
    const { provenance } = line;
    if (line.kind === "too_long") return tooLongLine(provenance, line);
    const bad = (reason: QuarantineReason, detail: string) => quarantine(provenance, reason, detail, line.text, line.bytes);
    if (line.invalidUtf8At !== undefined) return bad("invalid_utf8", `the line is not UTF-8 from byte ${line.invalidUtf8At} on (quarantined as read, each bad byte shown as U+FFFD)`);
    let value: unknown;
    try {
      value = parseExact(line.text);
    } catch (error) {
      return bad("invalid_json", (error as Error).message);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return bad("schema", `expected a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`);
    }
    const object = value as Record<string, unknown>;
    if ("error" in object) {
      const streamError = streamErrorLine.safeParse(object);
      if (streamError.success) return { kind: "stream_error", provenance, runIndex: streamError.data.run_index ?? null };
      // Still a run the stream missed, whatever its run_index holds: it must count against --max-stream-errors.
      if (object.error === "partial_stream") return { kind: "stream_error", provenance, runIndex: null };
      if (formats.detect(object) === null) return bad("service_error_line", `the service wrote an error line, not a record: error ${JSON.stringify(object.error)?.slice(0, 200)}`);
    }
    const detected = options.forced === true && format !== undefined ? format : formats.detect(object);
    if (detected === null) return bad("unsupported_format_version", "no format_version, rl_format_version or dpo_format_version field");
    if (format === undefined) {
      format = detected;
      options.onFormat?.(format);
    }
    if (detected.name !== format.name) return bad("mixed_format", `a ${detected.name} record in a ${format.name} dataset; convert each format to its own output`);
    const version = object[format.versionField];
    const judge = formats.judgeOf(format, version, options.acceptLaterMinor === true);
    if (judge === null) {
      const expected = formats.accepted(format).map((f) => JSON.stringify(f.version)).join(" or ");
      return bad(
        "unsupported_format_version",
        version === undefined ? `missing ${format.versionField} (expected ${expected})` : `${format.versionField} ${JSON.stringify(version)} is not supported (expected ${expected})`,
      );
    }
    const seed = takeExactSeed(object);
    if (typeof seed === "string") return bad("schema", seed);
    // A later minor (acceptLaterMinor) is read by the schema of the version judging it.
    const protoKeys = MAY_HOLD_PROTO.test(line.text);
    const parsed = (version === judge.version ? judge.schema : judge.anyVersionSchema).safeParse(protoKeys ? hideProtoKeys(object) : object);
    if (!parsed.success) return bad("schema", describeIssues(parsed.error.issues));
    const record = (protoKeys ? restoreProtoKeys(parsed.data) : parsed.data) as Record<string, unknown>;
    if (seed !== null) putExactSeed(record, seed);
    // JSON.stringify escapes only unpaired surrogates, so a second look is needed only when the line had such an escape.
    if (SURROGATE_ESCAPE.test(line.text) && SURROGATE_ESCAPE.test(stringifyExact(record))) {
      return bad("schema", "a string holds an unpaired UTF-16 surrogate (\\ud800-\\udfff escape), which UTF-8 and Parquet cannot store");
    }
    const fault = judge.check(record);
    if (fault !== null) return bad(fault.reason, fault.detail);
    return { kind: "kept", provenance, value: { format: judge, record, facts: judge.facts(record), ordinal: ordinal++, bytes: line.bytes, digest: lineDigest(Buffer.from(line.text)) } };
  };
}
