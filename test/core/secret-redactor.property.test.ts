import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minFragment } from "../../src/core/secret-forms.js";
import { REDACTED, SecretRedactor } from "../../src/core/secret-redactor.js";
import { ENCODINGS, leakedPiece } from "../helpers/secret-encodings.js";

/** Keys as services issue them: a prefix and random visible ASCII (base64 alphabets, punctuation). */
const key = fc
  .tuple(fc.constantFrom("", "esk_", "sk-live-", "AKIA/"), fc.stringMatching(/^[\x21-\x7e]{16,56}$/))
  .map(([prefix, body]) => prefix + body);
const noise = fc.string({ maxLength: 40, unit: fc.constantFrom(..."abc XYZ 019 +/=_-.\n\r\t\"\\%&;:{}[]é漢".split("")) });
const encoding = fc.constantFrom(...Object.keys(ENCODINGS));

describe("a secret never survives redaction, in any encoding we can undo", () => {
  it("whole, at any offset, inside any text, in every encoding", () => {
    fc.assert(
      fc.property(key, encoding, noise, noise, noise, (secret, name, before, after, outside) => {
        const encode = ENCODINGS[name] as (t: string) => string;
        const text = `${outside}${encode(`${before}${secret}${after}`)}${outside}`;
        const fragment = minFragment(secret.length);
        // The oracle sees the leak before redaction, so the property can fail (it cannot when a secret's own
        // `\` and an escaped character read alike: `\` + `\u0061` is also a doubly escaped `a`).
        fc.pre(leakedPiece(secret, text, fragment) !== null);
        const redacted = new SecretRedactor([secret]).redact(text);
        expect(leakedPiece(secret, redacted, fragment), `${name}: ${redacted}`).toBeNull();
        expect(redacted).toContain(REDACTED);
      }),
      { numRuns: 600 },
    );
  });

  it("a fragment of minFragment characters or more, in every encoding", () => {
    fc.assert(
      fc.property(key, encoding, noise, noise, fc.nat(), fc.nat(), (secret, name, before, after, a, b) => {
        const fragment = minFragment(secret.length);
        const length = fragment + (b % (secret.length - fragment + 1));
        const start = a % (secret.length - length + 1);
        const piece = secret.slice(start, start + length);
        const text = (ENCODINGS[name] as (t: string) => string)(`${before}${piece}${after}`);
        const redacted = new SecretRedactor([secret]).redact(text);
        expect(leakedPiece(secret, redacted, fragment), `${name}: ${redacted}`).toBeNull();
      }),
      // CI found this one: the piece's last character is the secret's `\`, which the string's closing quote
      // then escapes twice over (five backslashes and the quote).
      { numRuns: 600, examples: [["esk_!!!!!!!!\\!!!!!!!!!!!!!!!!", "json stringified twice", "", "", 1, 0]] },
    );
  });

  it("several secrets at once, each in its own encoding", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, encoding), { minLength: 1, maxLength: 4 }), noise, (pairs, glue) => {
        const text = pairs.map(([secret, name]) => (ENCODINGS[name] as (t: string) => string)(`x${secret}y`)).join(glue);
        const redacted = new SecretRedactor(pairs.map(([secret]) => secret)).redact(text);
        for (const [secret] of pairs) expect(leakedPiece(secret, redacted, minFragment(secret.length))).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it("leaves text without a secret as it is", () => {
    fc.assert(
      fc.property(key, fc.string({ maxLength: 200 }), (secret, text) => {
        fc.pre(leakedPiece(secret, text, minFragment(secret.length)) === null);
        expect(new SecretRedactor([secret]).redact(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
