/**
 * Strings stored once each and named by number: 1 + their place in `list`, 0 for null. What a typed column of
 * agent keys holds, so a night's seats keep a small number each instead of a string.
 */
export class InternedKeys {
  /** Each key once, in the order first seen: key number n is `list[n - 1]`. */
  readonly list: string[] = [];
  readonly #numbers = new Map<string, number>();

  /** The keys of `list` numbered as they stand (a book's, as a worker is sent it). */
  static of(list: readonly string[]): InternedKeys {
    const keys = new InternedKeys();
    for (const key of list) keys.number(key);
    return keys;
  }

  /** The key's number, given one when it is new; 0 for null. */
  number(key: string | null): number {
    if (key === null) return 0;
    let n = this.#numbers.get(key);
    if (n === undefined) {
      n = this.list.push(key);
      this.#numbers.set(key, n);
    }
    return n;
  }

  /** The key's number without adding it: 0 for null, undefined when it was never seen. */
  numberOf(key: string | null): number | undefined {
    return key === null ? 0 : this.#numbers.get(key);
  }

  /** The key of a number; null for 0. */
  key(n: number): string | null {
    return n === 0 ? null : (this.list[n - 1] as string);
  }
}
