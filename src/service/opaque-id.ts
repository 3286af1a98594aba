import { hashOf, hex8, mix32 } from "./seeded-random.js";

const TWO_32 = 4294967296;
/** Numbers up to 2^53 fit: the high half stays under 2^21. */
const MAX_HIGH = 2 ** 21;
const ROUNDS = 4;
const ID_PATTERN = /^[0-9a-f]{24}$/;

/**
 * Turns the emulator's internal numbers (run 17, batch 3) into opaque 24-hex identifiers and back.
 *
 * A keyed Feistel permutation plus a keyed tag: identifiers look random, differ per seed and per kind,
 * carry nothing a client could parse, and still decode in O(1) so the world needs no id-to-run map
 * (which at 100,000 runs would be the largest thing in memory). A forged or foreign id fails the tag.
 */
export class IdCodec {
  private readonly keys: number[];
  private readonly tagKey: number;

  constructor(seed: number, kind: string) {
    this.keys = Array.from({ length: ROUNDS }, (_, r) => hashOf(seed, "id", kind, r));
    this.tagKey = hashOf(seed, "id-tag", kind);
  }

  /** The identifier of number `n` (a non-negative safe integer). */
  encode(n: number): string {
    let left = Math.floor(n / TWO_32) >>> 0;
    let right = n >>> 0;
    for (const key of this.keys) [left, right] = [right, (left ^ mix32(right ^ key)) >>> 0];
    return hex8(left) + hex8(right) + hex8(this.tag(left, right));
  }

  /** The number behind an identifier, or null when it is not one of this codec's identifiers. */
  decode(id: string): number | null {
    if (!ID_PATTERN.test(id)) return null;
    let left = Number.parseInt(id.slice(0, 8), 16);
    let right = Number.parseInt(id.slice(8, 16), 16);
    if (Number.parseInt(id.slice(16), 16) !== this.tag(left, right)) return null;
    for (let r = ROUNDS - 1; r >= 0; r--) [left, right] = [(right ^ mix32(left ^ (this.keys[r] ?? 0))) >>> 0, left];
    return left < MAX_HIGH ? left * TWO_32 + right : null;
  }

  private tag(left: number, right: number): number {
    return mix32(left ^ mix32(right ^ this.tagKey));
  }
}
