import { sha256Hex } from "../core/sha256-hex.js";

/** The manifest's own digest, its last key: the sha256 of the manifest's text as written without it. */
export const MANIFEST_DIGEST = "manifest_sha256";

/**
 * The text of `manifest.json`: `manifest` as indented JSON with {@link MANIFEST_DIGEST} appended. The digest
 * lives in the file rather than beside it so that every copy (a local snapshot, an S3 root copy, a file
 * moved by hand) can be checked on its own, whatever the storage's layout (docs/decisions.md).
 */
export function sealedManifestText(manifest: object): string {
  return `${JSON.stringify(sealedManifest(manifest), null, 2)}\n`;
}

/** `manifest` with its {@link MANIFEST_DIGEST} (re)computed and last: what a job returns is what the file says. */
export function sealedManifest<M extends object>(manifest: M): M & { readonly [MANIFEST_DIGEST]: string } {
  const rest: Record<string, unknown> = { ...(manifest as Record<string, unknown>) };
  delete rest[MANIFEST_DIGEST];
  rest[MANIFEST_DIGEST] = sha256Hex(`${JSON.stringify(rest, null, 2)}\n`);
  return rest as M & { readonly [MANIFEST_DIGEST]: string };
}

/** What is wrong with a manifest's seal, or null when `text` is exactly what {@link sealedManifestText} writes for `parsed`. */
export function manifestSealProblem(text: string, parsed: object): { readonly kind: "manifest_digest_missing" | "manifest_digest_mismatch"; readonly message: string; readonly expected?: string; readonly actual?: string } | null {
  const recorded = (parsed as Readonly<Record<string, unknown>>)[MANIFEST_DIGEST];
  if (typeof recorded !== "string") {
    return { kind: "manifest_digest_missing", message: `manifest.json records no ${MANIFEST_DIGEST}: it was changed, or written by an evalshard that did not seal its manifests` };
  }
  const expected = sealedManifestText(parsed);
  if (expected === text) return null;
  const digest = JSON.parse(expected)[MANIFEST_DIGEST] as string;
  if (digest !== recorded) {
    return { kind: "manifest_digest_mismatch", message: `manifest.json's content has sha256 ${digest}, its ${MANIFEST_DIGEST} records ${recorded}`, expected: recorded, actual: digest };
  }
  // Same values, other bytes (spacing, escapes, key order): not the text evalshard wrote.
  return { kind: "manifest_digest_mismatch", message: `manifest.json holds the values its ${MANIFEST_DIGEST} seals, but not the bytes evalshard wrote (spacing, escapes or key order changed)` };
}
