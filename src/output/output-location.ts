import { ConfigError } from "../core/errors.js";
import { parseS3Location } from "./s3-location.js";

/** Where an output goes, checked without I/O (for option checks). */
export type OutputLocation = { readonly kind: "local"; readonly path: string } | { readonly kind: "s3"; readonly url: string } | { readonly kind: "stdout" };

/**
 * Checks an output location: `s3://BUCKET/PREFIX`, `-` (standard output) or a local path. Anything that looks like a URL with
 * another scheme (`gs://`, `hf://`, `file:`, a typo such as `s3:/bucket` or `S3://`) is a
 * {@link ConfigError} naming the scheme, never a local folder named `s3:`. A Windows drive path
 * (`C:\data`) is a path, and `./name` makes any name one.
 */
export function outputLocation(location: string): OutputLocation {
  if (location === "-") return { kind: "stdout" };
  if (location.startsWith("s3://")) {
    parseS3Location(location);
    return { kind: "s3", url: location };
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(location)?.[1];
  if (scheme !== undefined && !/^[A-Za-z]:[\\/]/.test(location)) {
    const hint = scheme.toLowerCase() === "s3" ? " (expected s3://BUCKET/PREFIX)" : "";
    throw new ConfigError(
      `Unsupported output location ${JSON.stringify(location)}: scheme "${scheme}:" is not supported${hint}; use s3://BUCKET/PREFIX or a local path (write ./${location} for a folder of that name)`,
    );
  }
  if (location === "") throw new ConfigError("Expected an output location: a local path or s3://BUCKET/PREFIX, got an empty string");
  return { kind: "local", path: location };
}
