import { addSecretsFromEnv, redactSecrets } from "../core/secrets.js";

const PATCHED = Symbol.for("evalshard.redactedOutput");

/**
 * Takes the secrets of the environment in and removes them from everything the CLI writes on stderr
 * (messages, warnings, progress, a manifest), and from the text it writes on stdout. Rows on stdout
 * (`--out -`) are bytes and pass as they are: they were cleared where they entered (service-client.ts).
 * Once per stream, however often the CLI runs in one process.
 */
export function redactProcessOutput(): void {
  addSecretsFromEnv();
  redactWrites(process.stderr, true);
  redactWrites(process.stdout, false);
}

function redactWrites(stream: NodeJS.WriteStream, bytesToo: boolean): void {
  const marked = stream as NodeJS.WriteStream & { [PATCHED]?: true };
  if (marked[PATCHED]) return;
  marked[PATCHED] = true;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => write(redactedChunk(chunk, bytesToo), ...rest)) as typeof stream.write;
}

function redactedChunk(chunk: unknown, bytesToo: boolean): unknown {
  if (typeof chunk === "string") return redactSecrets(chunk);
  if (!bytesToo || !(chunk instanceof Uint8Array)) return chunk;
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8");
  const clean = redactSecrets(text);
  return clean === text ? chunk : Buffer.from(clean);
}
