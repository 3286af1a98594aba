import type { SecretForm } from "./secret-forms.js";

/** Length of the anchors looked up while scanning; every form's `min` is at least this. */
const GRAM = 4;
const BLOOM_BITS = 20;

interface Anchor {
  readonly form: number;
  /** Where the anchor sits in its form's text. */
  readonly at: number;
}

/**
 * Finds every stretch of a text that equals a stretch of a form at least the form's `min` long. Every
 * 4 characters of every form are anchors; the text is looked at only every `step` characters (`step` =
 * the smallest `min` - 3, so any stretch of `min` holds a position looked at with a whole anchor after
 * it), each look a hash of 4 characters against a bloom filter of the anchors. An anchor found is grown
 * to the longest common stretch by comparing characters.
 */
export class FormScanner {
  readonly #forms: SecretForm[] = [];
  readonly #anchors = new Map<string, Anchor[]>();
  readonly #bloom = new Int32Array(1 << (BLOOM_BITS - 5));
  #step = Number.MAX_SAFE_INTEGER;

  get size(): number {
    return this.#forms.length;
  }

  add(form: SecretForm): void {
    if (form.text.length < GRAM) return;
    const min = Math.max(GRAM, Math.min(form.min, form.text.length));
    const index = this.#forms.push({ ...form, min }) - 1;
    this.#step = Math.min(this.#step, min - GRAM + 1);
    for (let at = 0; at + GRAM <= form.text.length; at++) {
      const gram = form.text.slice(at, at + GRAM);
      const list = this.#anchors.get(gram);
      if (list === undefined) this.#anchors.set(gram, [{ form: index, at }]);
      else list.push({ form: index, at });
      const bit = bloomBit(hashAt(gram, 0));
      this.#bloom[bit >>> 5] = (this.#bloom[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }

  /** Pushes onto `found` each match in `text`, as [start, end). */
  scan(text: string, found: [number, number][]): void {
    if (this.#forms.length === 0) return;
    const bloom = this.#bloom;
    const step = this.#step;
    // Per form, where its last match ended: anchors inside it would find the same match again.
    let covered: Int32Array | null = null;
    for (let start = 0; start + GRAM <= text.length; start += step) {
      const bit = bloomBit(hashAt(text, start));
      if (((bloom[bit >>> 5] as number) & (1 << (bit & 31))) === 0) continue;
      for (const anchor of this.#anchors.get(text.slice(start, start + GRAM)) ?? []) {
        covered ??= new Int32Array(this.#forms.length);
        if (start < (covered[anchor.form] as number)) continue;
        const form = this.#forms[anchor.form] as SecretForm;
        const match = grow(text, start, form.text, anchor.at);
        if (match[1] - match[0] < form.min) continue;
        covered[anchor.form] = match[1];
        if (form.base64) widenBase64(text, match);
        found.push(match);
      }
    }
  }
}

/** The longest stretch around `text[start..start+GRAM)` that equals `form` around `form[at..]`. */
function grow(text: string, start: number, form: string, at: number): [number, number] {
  let left = start;
  let f = at;
  while (left > 0 && f > 0 && text.charCodeAt(left - 1) === form.charCodeAt(f - 1)) {
    left--;
    f--;
  }
  let right = start + GRAM;
  f = at + GRAM;
  while (right < text.length && f < form.length && text.charCodeAt(right) === form.charCodeAt(f)) {
    right++;
    f++;
  }
  return [left, right];
}

/** Takes in up to 3 base64 characters on each side: they hold some bits of the secret's edge bytes. */
function widenBase64(text: string, match: [number, number]): void {
  for (let k = 0; k < 3 && match[0] > 0 && isBase64(text.charCodeAt(match[0] - 1)); k++) match[0]--;
  for (let k = 0; k < 3 && match[1] < text.length && isBase64(text.charCodeAt(match[1])); k++) match[1]++;
}

function isBase64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 45 || c === 95;
}

function hashAt(text: string, at: number): number {
  return (Math.imul(Math.imul(Math.imul(text.charCodeAt(at), 31) + text.charCodeAt(at + 1), 31) + text.charCodeAt(at + 2), 31) + text.charCodeAt(at + 3)) | 0;
}

function bloomBit(hash: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> (32 - BLOOM_BITS);
}
