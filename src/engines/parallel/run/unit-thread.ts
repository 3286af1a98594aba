import type { FromUnits, ToUnits } from "./unit-host.js";

/** Where the units' side runs: a worker thread, or main's own (`InProcessUnits`, `--workers 0`). */
export interface UnitThread {
  postMessage(message: ToUnits): void;
  on(event: "message", listener: (message: FromUnits) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "message", listener: (message: FromUnits) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  unref(): void;
  terminate(): Promise<number>;
}
