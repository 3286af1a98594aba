import { addSecrets, addSecretsFromEnv } from "../core/secrets.js";
import { S3Client } from "@aws-sdk/client-s3";
import type { S3ClientConfig } from "@aws-sdk/client-s3";

/** How to reach the object store. Everything else (credentials, profile) comes from the AWS SDK's default chain. */
export interface S3ClientOptions {
  /** A custom S3-compatible endpoint. Default: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, else AWS itself. */
  readonly endpoint?: string;
  /** Default: the SDK's (`AWS_REGION`, the profile); "us-east-1" for a custom endpoint with none configured. */
  readonly region?: string;
  /**
   * Send plain bodies with checksums only where S3 requires them ("WHEN_REQUIRED"), instead of the SDK's
   * default `aws-chunked` bodies with checksum trailers ("WHEN_SUPPORTED"), which older S3-compatible stores
   * (s3rver, some appliances) store verbatim, framing and all. Default: plain for a custom endpoint,
   * the SDK's default for AWS.
   */
  readonly plainBodies?: boolean;
  /** Credentials for library callers that hold them; never from the command line. Default: the SDK's chain. */
  readonly credentials?: S3ClientConfig["credentials"];
  /** Attempts per request (the SDK retries throttling and network errors). Default 3. */
  readonly maxAttempts?: number;
  /** A request whose socket is idle this long fails (and is retried): a half-open connection never hangs a job. Default 2 minutes. */
  readonly idleTimeoutMs?: number;
}

/** The custom endpoint a client will use, or undefined for AWS. */
export function endpointOf(options: S3ClientOptions): string | undefined {
  const env = process.env;
  const endpoint = options.endpoint ?? env["AWS_ENDPOINT_URL_S3"] ?? env["AWS_ENDPOINT_URL"];
  return endpoint === "" ? undefined : endpoint;
}

/** An endpoint fit for a message: without any user:password@ in it. */
export function shownEndpoint(endpoint: string | undefined): string {
  return endpoint === undefined ? "AWS" : `endpoint ${endpoint.replace(/\/\/[^/@]*@/, "//")}`;
}

/** An S3 client on the SDK's default credential chain. */
export function s3Client(options: S3ClientOptions = {}): S3Client {
  const endpoint = endpointOf(options);
  const custom = endpoint !== undefined;
  const env = process.env;
  const region = options.region ?? (custom && env["AWS_REGION"] === undefined && env["AWS_DEFAULT_REGION"] === undefined && env["AWS_PROFILE"] === undefined ? "us-east-1" : undefined);
  const plain = options.plainBodies ?? custom;
  // The keys this client signs with are never to be written anywhere, in any encoding.
  addSecretsFromEnv(env);
  if (options.credentials !== undefined && typeof options.credentials === "object" && "secretAccessKey" in options.credentials) {
    addSecrets(options.credentials.secretAccessKey, options.credentials.sessionToken);
  }
  return new S3Client({
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(region === undefined ? {} : { region }),
    // Custom stores rarely resolve bucket.host names (s3rver, MinIO, Ceph on a bare IP).
    forcePathStyle: custom,
    ...(plain ? { requestChecksumCalculation: "WHEN_REQUIRED" as const, responseChecksumValidation: "WHEN_REQUIRED" as const } : {}),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    maxAttempts: options.maxAttempts ?? 3,
    // The SDK's Node handler has no timeout by default.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: options.idleTimeoutMs ?? 120_000 },
  });
}
