import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { redactSecrets } from "../core/secrets.js";
import { ioStep } from "../core/io-step.js";
import { LocalFiles } from "./local-files.js";
import { ObjectStorage } from "./object-storage.js";
import type { Files } from "./storage.js";

/**
 * Writes the small text file `path` only if no file is there, in one step the storage decides: O_EXCL on a
 * local disk, `If-None-Match: *` on object storage. Of writers racing on one path exactly one gets true, on a
 * store that honours conditional writes (S3, MemoryObjectStore; s3rver does not, and lets each win).
 */
export async function createIfAbsent(files: Files, path: string, text: string): Promise<boolean> {
  const body = Buffer.from(redactSecrets(text));
  if (files instanceof ObjectStorage) return (await files.root.putIf(path, body, null)) !== null;
  if (files instanceof LocalFiles) {
    const local = files.at(path);
    return ioStep(local, "create", async () => {
      await mkdir(dirname(local), { recursive: true });
      return writeFile(local, body, { flag: "wx" }).then(
        () => true,
        (error: NodeJS.ErrnoException) => (error.code === "EEXIST" ? false : Promise.reject(error)),
      );
    });
  }
  throw new Error(`Internal error: no conditional write on ${files.location}`);
}
