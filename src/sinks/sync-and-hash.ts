import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { IoError } from "../errors.js";

/** Flushes a written file to disk and hashes it, so a file renamed into place is complete even after a power loss. */
export async function syncAndHash(path: string): Promise<{ bytes: number; sha256: string }> {
  const file = await open(path, "r");
  try {
    await file.sync();
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(1 << 20);
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
    return { bytes, sha256: hash.digest("hex") };
  } catch (error) {
    throw new IoError(`Cannot read back ${path}: ${(error as Error).message}`, path, { cause: error });
  } finally {
    await file.close();
  }
}
