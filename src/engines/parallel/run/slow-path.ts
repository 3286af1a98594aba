import { formatByName } from "../../../formats/index.js";
import type { Flow } from "../../../core/flow.js";
import type { Buffer } from "node:buffer";
import { NO_PROVENANCE } from "../../../core/provenance.js";
import { invalidUtf8At } from "../../../sources/first-invalid-utf8.js";
import { recordStripper } from "../fast/record-stripper.js";
import { lineValidator } from "../../../stages/validate.js";
import type { ValidRecord } from "../../../formats/valid-record.js";
import type { WorkerConfig } from "./protocol.js";

/** The rules for the lines the fast parser declines: validate (zod), and strip by the schema's policy marks. */
export interface SlowPath {
  /** The line of bytes `[start, end)` of a worker's batch, validated; its provenance is main's to give. */
  validate(bytes: Buffer, start: number, end: number): Flow<ValidRecord>;
  strip(record: Record<string, unknown>): void;
}

/** Loaded by a worker only when a line needs it: it brings zod, slow to load. */
export function slowPath(config: WorkerConfig): SlowPath {
  const format = formatByName(config.format);
  const validate = lineValidator({ format, forced: config.forced, acceptLaterMinor: config.acceptLaterMinor });
  return {
    validate(bytes, start, end) {
      const text = bytes.toString("utf8", start, end);
      const invalidAt = invalidUtf8At(bytes, start, end, text);
      const line = { kind: "line", provenance: NO_PROVENANCE, text, bytes: end - start } as const;
      return validate(invalidAt === undefined ? line : { ...line, invalidUtf8At: invalidAt });
    },
    strip: recordStripper(config.schema),
  };
}
