import type { Quarantined } from "../core/flow.js";
import { quarantineRaw } from "../stages/quarantine-raw.js";
import type { UntrustedPolicy } from "../stages/untrusted-policy.js";
import type { QuarantineSink } from "./engine.js";

/** A quarantine that keeps of each bad line only what the untrusted-text policy lets through (`quarantineRaw`): `strip` is the dataset's strip under it. */
export function policyQuarantine(sink: QuarantineSink, policy: UntrustedPolicy, strip: (record: Record<string, unknown>) => void): QuarantineSink {
  const filter = quarantineRaw(policy, strip);
  return {
    get path() {
      return sink.path;
    },
    get entries() {
      return sink.entries;
    },
    get written() {
      return sink.written ?? null;
    },
    write: (item: Quarantined) => sink.write(filter(item)),
    close: () => sink.close(),
  };
}
