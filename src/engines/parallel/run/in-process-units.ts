import { EventEmitter } from "node:events";
import { UnitHost } from "./unit-host.js";
import type { ToUnits } from "./unit-host.js";

/**
 * The units' side on main's own thread (`--workers 0`): the same messages as a worker thread's, cloned as
 * `postMessage` clones them (shared slots stay shared) and delivered on a later turn of the event loop, so
 * main's side runs exactly as it does with worker threads.
 */
export class InProcessUnits extends EventEmitter {
  readonly #host = new UnitHost((message) => {
    const copy = structuredClone(message);
    setImmediate(() => this.emit("message", copy));
  });

  postMessage(message: ToUnits): void {
    const copy = structuredClone(message);
    setImmediate(() => this.#host.receive(copy));
  }

  ref(): void {}

  unref(): void {}

  terminate(): Promise<number> {
    return Promise.resolve(0);
  }
}
