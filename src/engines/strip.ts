import type { Stage } from "../core/flow.js";
import type { Format } from "../formats/format.js";
import type { ValidRecord } from "../formats/valid-record.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import { policyStripper } from "./parallel/index.js";
import type { RecordStripper } from "./parallel/index.js";

/**
 * Removes or redacts untrusted text before anything reaches a dataset, in place: each record walked along
 * the policy's marks on its format's compiled schema, as the engine's units strip theirs.
 */
export function strip(policy: UntrustedPolicy): Stage<ValidRecord, ValidRecord> {
  return async function* (input) {
    let format: Format | null = null;
    let stripRecord: RecordStripper = () => {};
    for await (const item of input) {
      if (item.kind === "kept") {
        if (item.value.format !== format) {
          format = item.value.format;
          stripRecord = await policyStripper(format, policy);
        }
        stripRecord(item.value.record);
      }
      yield item;
    }
  };
}
