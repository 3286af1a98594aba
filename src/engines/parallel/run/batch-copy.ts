import { Buffer } from "node:buffer";
import { scanRegion } from "../fast/wasm-scan.js";

/**
 * Where a worker copies a batch to walk it: a region of the wasm scan module's memory, which then walks its
 * lines (src/engines/parallel/fast/wasm-scan.ts). One per thread: `--top-k-per-scenario`'s ranking read hands its
 * copy to the conversion that follows, since a second region would only add to the peak.
 */
export class BatchCopy {
  #region: Buffer = Buffer.alloc(0);

  /**
   * `bytes` in the region: a shared slot's batch, or one that came in memory of its own (larger than a slot:
   * a line longer than one), which grows the region to fit.
   */
  local(bytes: Buffer): Buffer {
    // Sized once to the whole slot: a copy grown in steps would fault in fresh pages at each step. A 0 after the
    // batch stops the module's scans of its last line.
    if (this.#region.length <= bytes.length) this.#region = scanRegion(bytes.buffer instanceof SharedArrayBuffer ? bytes.buffer.byteLength : bytes.length);
    this.#region.set(bytes);
    this.#region[bytes.length] = 0;
    return this.#region.subarray(0, bytes.length);
  }
}
