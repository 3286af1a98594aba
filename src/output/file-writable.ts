import { Writable } from "node:stream";
import type { FileWriter } from "./storage.js";

/** A Node stream over a {@link FileWriter}, for stream producers (compressors); ending it does not close the file. */
export function fileWritable(file: FileWriter): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      file.write(chunk).then(() => callback(), callback);
    },
  });
}
