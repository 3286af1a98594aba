import type { Format } from "../../../formats/format.js";
import type { UntrustedPolicy } from "../../../stages/untrusted-policy.js";
import { applyPolicy } from "./apply-policy.js";
import { recordStripper } from "./record-stripper.js";
import type { RecordStripper } from "./record-stripper.js";

/** The strip of the format's records under the policy: the policy's marks on the format's compiled schema, walked. */
export async function policyStripper(format: Format, policy: UntrustedPolicy): Promise<RecordStripper> {
  // Imported here: it brings zod, which the engine's main thread does without (it reads format-info.json).
  const { compileSchema } = await import("./compile-schema.js");
  const root = compileSchema(format.schema);
  applyPolicy(root, policy);
  return recordStripper(root);
}
