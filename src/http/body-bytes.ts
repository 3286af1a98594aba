import type { BodyHasher } from "./body-digest.js";

/** A body's bytes read to the end. */
export async function readBytes(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

export async function readText(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  return decodeText(await readBytes(chunks));
}

export function decodeText(bytes: Uint8Array): string {
  // TextDecoder drops a leading BOM, as Response.text() does.
  return new TextDecoder().decode(bytes);
}

/** The chunks passed on as they are, each also fed to `hasher`. */
export async function* hashed(chunks: AsyncIterable<Uint8Array>, hasher: BodyHasher): AsyncGenerator<Uint8Array, void, undefined> {
  for await (const chunk of chunks) {
    hasher.update(chunk);
    yield chunk;
  }
}

export async function* emptyChunks(): AsyncGenerator<Uint8Array, void, undefined> {}
