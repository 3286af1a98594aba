import { ConfigError, IoError } from "../core/errors.js";
import { describeError } from "../core/describe-error.js";
import { addSecretsFromEnv, redactSecrets } from "../core/secrets.js";
import { shownEndpoint } from "./s3-client.js";

/** Where a failed request went, for its message. */
export interface S3Target {
  /** `s3://bucket/key`. */
  readonly url: string;
  readonly bucket: string;
  /** The custom endpoint, or undefined for AWS. */
  readonly endpoint: string | undefined;
}

/** Error names of S3 that mean the configuration is wrong, not the network or the store. */
const CONFIG_ERRORS = new Set(["NoSuchBucket", "InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidBucketName", "PermanentRedirect", "AuthorizationHeaderMalformed", "CredentialsProviderError", "ExpiredToken", "InvalidToken"]);

/**
 * The error evalshard throws for a failed S3 call: a {@link ConfigError} (exit 2) for a missing bucket,
 * denied or missing credentials; an {@link IoError} otherwise. The message names the object and the
 * endpoint; the SDK's error is kept only as text, with every configured secret removed in any of the
 * encodings a server might echo it in, so no secret reaches a log through the cause either.
 */
export function s3Error(error: unknown, what: string, target: S3Target): Error {
  // A HEAD has no body to name its error: its 403 is just "Forbidden".
  const name = httpStatus(error) === 403 && !CONFIG_ERRORS.has(errorName(error)) ? "AccessDenied" : errorName(error);
  const where = `${target.url} (${shownEndpoint(target.endpoint)})`;
  // Read now: a test or a library user may set the AWS keys after the client was made.
  addSecretsFromEnv();
  const status = httpStatus(error);
  const detail = redactSecrets(`${describeError(error, true)}${status === undefined ? "" : ` (HTTP ${status})`}`);
  const hint =
    name === "NoSuchBucket"
      ? `: the bucket ${target.bucket} does not exist`
      : name === "CredentialsProviderError"
        ? ": no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)"
        : CONFIG_ERRORS.has(name)
          ? `: the credentials were refused for bucket ${target.bucket}`
          : "";
  const message = `Cannot ${what} ${where}${hint}: ${detail}`;
  const cause = new Error(detail);
  return CONFIG_ERRORS.has(name) ? new ConfigError(message, { cause }) : new IoError(message, target.url, { cause });
}

/** The S3 error code (`NoSuchBucket`), or the Node error code (`ECONNREFUSED`), or the class name. */
export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return "Error";
  const code = (error as { Code?: unknown; code?: unknown }).Code ?? (error as { code?: unknown }).code;
  if (error.name === "NotFound" || error.name === "NoSuchKey") return error.name;
  if (error.name !== "Error" && error.name !== "") return error.name;
  return typeof code === "string" ? code : error.name;
}

/** The HTTP status of a failed S3 call, when it got one. */
export function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}
