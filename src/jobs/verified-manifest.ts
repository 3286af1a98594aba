import type { ShardInfo } from "../output/shard-format.js";

/** The parts of a convert or nightly manifest that `verify` reads; every field is data to check, not to trust. */
export interface VerifiedManifest {
  readonly records_in?: unknown;
  readonly records_out?: unknown;
  readonly dropped?: unknown;
  readonly quarantined?: unknown;
  readonly quarantined_share?: unknown;
  readonly output?: { readonly layout?: string; readonly to?: unknown; readonly split?: unknown; readonly buckets?: unknown };
  readonly shards: readonly unknown[];
  readonly quarantine?: { readonly path?: unknown; readonly entries?: unknown; readonly bytes?: unknown; readonly sha256?: unknown } | null;
  readonly view?: { readonly records_in?: unknown; readonly rows_out?: unknown } | null;
  readonly split?: { readonly splits?: Readonly<Record<string, { readonly rows?: unknown } | null>> | null } | null;
  readonly decontamination?: { readonly suites?: readonly { readonly suite_key?: unknown; readonly version?: unknown; readonly scenario_version_hashes?: unknown; readonly scenario_ids?: unknown }[] } | null;
  readonly stats?: { readonly rows?: unknown; readonly splits?: Readonly<Record<string, unknown>> | null } | null;
  readonly night?: { readonly added?: unknown; readonly replaced?: unknown; readonly unchanged?: unknown; readonly buckets_rewritten?: unknown } | null;
}

/** A count as a manifest must record it: an integer from 0 up. */
export function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** A shard entry with the fields `verify` needs, each of its type; null for anything else. */
export function shardEntry(value: unknown): ShardInfo | null {
  if (typeof value !== "object" || value === null) return null;
  const s = value as Record<string, unknown>;
  if (typeof s.path !== "string" || !isCount(s.rows) || !isCount(s.bytes) || typeof s.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(s.sha256)) return null;
  if (s.split !== undefined && typeof s.split !== "string") return null;
  return value as ShardInfo;
}
