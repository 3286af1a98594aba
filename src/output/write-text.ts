import { redactSecrets } from "../core/secrets.js";
import type { Files, WrittenFile } from "./storage.js";

/** Writes a small text file (a card, a manifest, a state) whole, with the process's secrets removed. */
export async function writeText(files: Pick<Files, "create">, path: string, text: string): Promise<WrittenFile> {
  return writeChunks(files, path, [Buffer.from(redactSecrets(text))]);
}

/** Writes the file `path` front to back from `chunks`; a failure on the way leaves no file. */
export async function writeChunks(files: Pick<Files, "create">, path: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<WrittenFile> {
  const file = await files.create(path);
  try {
    for await (const chunk of chunks) await file.write(chunk);
  } catch (error) {
    await file.abort();
    throw error;
  }
  return file.close();
}

/** Reads a small text file whole; null when there is none. */
export async function readText(files: Files, path: string): Promise<string | null> {
  const stream = await files.read(path);
  if (stream === null) return null;
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}
