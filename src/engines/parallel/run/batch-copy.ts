import { Buffer } from "node:buffer";
import { scanRegion } from "../fast/wasm-scan.js";

/**
 * Where a worker copies a shared batch to walk it: a region of the wasm scan module's memory, which then scans its
 * lines (src/engines/parallel/fast/wasm-scan.ts). One per thread: `--top-k-per-scenario`'s ranking read hands its
 * copy to the conversion that follows, since a second region would only add to the peak.
 */
export class BatchCopy {
  #region: Buffer = Buffer.alloc(0);

  /** `bytes` where the parser may walk them: a shared batch copied into the region, anything else as it is. */
  local(bytes: Buffer): Buffer {
    if (!(bytes.buffer instanceof SharedArrayBuffer)) return bytes;
    // Sized once to the whole slot: a copy grown in steps would fault in fresh pages at each step. A 0 after the
    // batch stops the module's scans of its last line.
    if (this.#region.length <= bytes.length) this.#region = scanRegion(bytes.buffer.byteLength);
    this.#region.set(bytes);
    this.#region[bytes.length] = 0;
    return this.#region.subarray(0, bytes.length);
  }
}
