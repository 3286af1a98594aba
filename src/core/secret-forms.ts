/** One way a secret may be written out, and the shortest stretch of it that counts as a leak. */
export interface SecretForm {
  readonly text: string;
  /** A stretch of `text` at least this long is removed wherever it appears. */
  readonly min: number;
  /** Base64: the characters around a match carry bits of the secret too (removed with it). */
  readonly base64: boolean;
}

/** Secrets shorter than this are removed verbatim only; no key the service issues is this short. */
export const SHORTEST_SECRET = 4;

/**
 * The shortest fragment of a secret that is removed: half the secret, but at least 8 and at most 12
 * characters (docs/decisions.md). A shorter one leaves at least half of the secret, and over 12
 * characters, unknown; a still shorter floor would start removing innocent text such as a key's prefix.
 */
export function minFragment(length: number): number {
  return length <= 8 ? length : Math.min(12, Math.max(8, Math.ceil(length / 2)));
}

/**
 * The secret as text that holds it may show it, before any escaping (decoded-view.ts undoes that):
 * verbatim, hex (either case), and base64, standard and URL-safe. Base64 of a text that holds the secret
 * encodes it differently by the secret's offset modulo 3, so each alignment gives the stretch of
 * characters that depend on the secret's bytes only; a fragment of the secret shows as a stretch of one
 * of them. Each form's `min` is what a fragment of `minFragment` characters becomes in it.
 */
export function secretForms(secret: string): SecretForm[] {
  if (secret.length < SHORTEST_SECRET) return [];
  const fragment = minFragment(secret.length);
  const bytes = Buffer.from(secret, "utf8");
  const forms: SecretForm[] = [{ text: secret, min: fragment, base64: false }];
  const hex = bytes.toString("hex");
  forms.push({ text: hex, min: 2 * fragment, base64: false }, { text: hex.toUpperCase(), min: 2 * fragment, base64: false });
  // An n-byte fragment fully decides 4 characters for each whole 3-byte group it covers, at worst (n - 2) / 3 groups.
  const b64Min = Math.max(8, 4 * Math.floor((fragment - 2) / 3));
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
    // The first 4 characters mix in the filler bytes when shifted; the last 4 mix in whatever follows
    // when the secret does not end on a 3-byte boundary.
    const core = b64.slice(shift === 0 ? 0 : 4, (shift + bytes.length) % 3 === 0 ? b64.length : b64.length - 4);
    if (core.length < 8) continue;
    const urlSafe = core.replace(/\+/g, "-").replace(/\//g, "_");
    forms.push({ text: core, min: Math.min(b64Min, core.length), base64: true });
    if (urlSafe !== core) forms.push({ text: urlSafe, min: Math.min(b64Min, core.length), base64: true });
  }
  return forms;
}
