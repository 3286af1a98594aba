import { grown } from "../core/grown.js";

/**
 * Which records (run and seat) a pull has seen, held for the whole pull: per run (its number in the
 * RunTable) a bit per seat index 0-30 (every seat a service runs) in a typed array, not a key string per
 * record; other indexes by key.
 */
export class SeenRecords {
  private seats = new Int32Array(1024);
  private readonly others = new Set<string>();

  /** True the first time a record of this run and seat comes. */
  first(run: number, seat: number, key: string): boolean {
    if (Number.isInteger(seat) && seat >= 0 && seat <= 30) {
      if (run >= this.seats.length) this.seats = grown(this.seats, run + 1);
      const mask = this.seats[run] as number;
      const bit = 1 << seat;
      if ((mask & bit) !== 0) return false;
      this.seats[run] = mask | bit;
      return true;
    }
    if (this.others.has(key)) return false;
    this.others.add(key);
    return true;
  }
}
