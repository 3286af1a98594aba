// AssemblyScript (see scan.ts), not TypeScript.
//
// The line digest's hash (src/core/line-digest.ts: every digest is this one definition), over a line in
// this module's memory: xxHash32's round over eight 32-bit lanes (32 bytes a step), then its tail and
// avalanche steps. Eight lanes as two vectors of four, so each step is two independent chains: about twice
// the speed of zlib's CRC-32 it replaced (docs/decisions.md).

const P1: u32 = 0x9e3779b1;
const P2: u32 = 0x85ebca77;
const P3: u32 = 0xc2b2ae3d;
const P4: u32 = 0x27d4eb2f;
const P5: u32 = 0x165667b1;

/** P1 and P2 in every lane, loaded before the loop (scan.ts's SPLATS says why from memory). */
const PRIMES: usize = memory.data<u32>([P1, P1, P1, P1, P2, P2, P2, P2], 16);

@inline function round(lanes: v128, words: v128, p1: v128, p2: v128): v128 {
  const sum = i32x4.add(lanes, i32x4.mul(words, p2));
  return i32x4.mul(v128.or(i32x4.shl(sum, 13), i32x4.shr_u(sum, 19)), p1);
}

/** The 32-bit hash of bytes [p, end). */
export function lineHash(p: usize, end: usize): u32 {
  let a = i32x4(P1, P1 + P2, P1 + 2 * P2, P1 + 3 * P2);
  let b = i32x4(P1 + 4 * P2, P1 + 5 * P2, P1 + 6 * P2, P1 + 7 * P2);
  const length = <u32>(end - p);
  const p1 = v128.load(PRIMES);
  const p2 = v128.load(PRIMES + 16);
  for (; p + 32 <= end; p += 32) {
    a = round(a, v128.load(p), p1, p2);
    b = round(b, v128.load(p + 16), p1, p2);
  }
  let h: u32 =
    rotl<u32>(i32x4.extract_lane(a, 0), 1) + rotl<u32>(i32x4.extract_lane(a, 1), 7) + rotl<u32>(i32x4.extract_lane(a, 2), 12) + rotl<u32>(i32x4.extract_lane(a, 3), 18) +
    rotl<u32>(i32x4.extract_lane(b, 0), 3) + rotl<u32>(i32x4.extract_lane(b, 1), 9) + rotl<u32>(i32x4.extract_lane(b, 2), 14) + rotl<u32>(i32x4.extract_lane(b, 3), 20);
  h += length;
  for (; p + 4 <= end; p += 4) h = rotl<u32>(h + load<u32>(p) * P3, 17) * P4;
  for (; p < end; p++) h = rotl<u32>(h + <u32>load<u8>(p) * P5, 11) * P1;
  h ^= h >> 15;
  h *= P2;
  h ^= h >> 13;
  h *= P3;
  h ^= h >> 16;
  return h;
}
