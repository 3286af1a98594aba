/**
 * Which records (run and seat) a pull has seen, held for the whole pull: per run a bit per seat index
 * 0-30 (every seat a service runs), not a key string per record; other indexes by key.
 */
export class SeenRecords {
  private readonly seats = new Map<string, number>();
  private readonly others = new Set<string>();

  /** True the first time a record of this run and seat comes. */
  first(runId: string, seat: number, key: string): boolean {
    if (Number.isInteger(seat) && seat >= 0 && seat <= 30) {
      const mask = this.seats.get(runId) ?? 0;
      const bit = 1 << seat;
      if ((mask & bit) !== 0) return false;
      this.seats.set(runId, mask | bit);
      return true;
    }
    if (this.others.has(key)) return false;
    this.others.add(key);
    return true;
  }
}
