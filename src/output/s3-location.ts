import { ConfigError } from "../core/errors.js";

/** A dataset's place in object storage: `s3://BUCKET/PREFIX`. */
export interface S3Location {
  readonly bucket: string;
  /** The key prefix, "" or ending in "/". */
  readonly prefix: string;
}

/** Parses `s3://BUCKET[/PREFIX]`; a {@link ConfigError} names what is wrong with any other text. */
export function parseS3Location(location: string): S3Location {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(location);
  if (match === null) throw new ConfigError(`Expected an S3 location like s3://bucket/prefix, got ${JSON.stringify(location)}`);
  const bucket = match[1] as string;
  // The S3 rules for bucket names; checked here so a typo fails before any request.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(`Expected an S3 bucket name (3-63 lowercase letters, digits, "." and "-"), got ${JSON.stringify(bucket)} in ${location}`);
  }
  const prefix = (match[2] ?? "").replace(/\/+$/, "");
  if (prefix.split("/").some((part) => part === "" || part === "." || part === "..") && prefix !== "") {
    throw new ConfigError(`Expected an S3 prefix of "/"-separated names, got ${JSON.stringify(prefix)} in ${location}`);
  }
  return { bucket, prefix: prefix === "" ? "" : `${prefix}/` };
}

/** `s3://bucket/prefix/key`, for messages. */
export function s3Url(location: S3Location, key = ""): string {
  return `s3://${location.bucket}/${location.prefix}${key}`.replace(/\/$/, "");
}
