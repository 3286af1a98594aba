import { formatByName } from "../../../formats/index.js";
import type { Flow } from "../../../core/flow.js";
import type { SourceLine } from "../../../sources/line-source.js";
import { recordStripper } from "../../../stages/strip.js";
import { resolveUntrustedPolicy } from "../../../stages/untrusted-policy.js";
import { lineValidator } from "../../../stages/validate.js";
import type { ValidRecord } from "../../../formats/valid-record.js";
import type { WorkerConfig } from "./protocol.js";

/** The stages' own rules for the lines the fast parser declines: validate (zod) and strip. */
export interface SlowPath {
  validate(line: SourceLine): Flow<ValidRecord>;
  strip(record: Record<string, unknown>): void;
}

/** Loaded by a worker only when a line needs it: it brings zod, slow to load. */
export function slowPath(config: WorkerConfig): SlowPath {
  const format = formatByName(config.format);
  return {
    validate: lineValidator({ format, forced: config.forced, acceptLaterMinor: config.acceptLaterMinor }),
    strip: recordStripper(resolveUntrustedPolicy(format, config.untrusted)),
  };
}
