import { IoError } from "../core/errors.js";
import { writeChunks } from "./write-text.js";
import type { Files, WrittenFile } from "./storage.js";

/** Copies the file `path` from one storage's files to another's (e.g. a local spool into a staging), as `toPath`. */
export async function copyFile(from: Files, to: Files, path: string, toPath: string = path): Promise<WrittenFile> {
  const stream = await from.read(path);
  if (stream === null) throw new IoError(`Cannot copy ${from.location}/${path}: there is no such file`, `${from.location}/${path}`);
  return writeChunks(to, toPath, stream);
}
