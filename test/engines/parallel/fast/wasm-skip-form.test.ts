import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scanRegion, WASM_SCAN } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { isStringifyForm } from "../../../../src/views/is-stringify-form.js";
import { formTexts } from "../../../helpers/form-texts.js";

// The wasm walk skips an rl-steps observation with the JSON.stringify-form check folded in
// (src/engines/parallel/wasm/skip.ts's skipForm): one pass where the walk's skipValue and then jsonForm took two.
// It must accept exactly what skipValue accepts, ending where it ends, and answer what jsonForm answers
// wherever jsonForm answers (and, where it tells what jsonForm leaves to JS, what isStringifyForm says).

const NOT_FORM = 0;
const FORM = 1;
const UNSURE = 2;

const region = scanRegion(1 << 20);
const AT = 5; // not word-aligned

/** Both passes over `text`, put in the module's memory as a line (a line end after it, then bytes that would continue a value). */
function both(text: string | Buffer, cut?: number): { skip: number; skipForm: number; jsonForm: number | null; answer: number } {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  region.set(bytes, AT);
  region[AT + bytes.length] = 0x0a;
  region.set(Buffer.from('1]}"e5'), AT + bytes.length + 1);
  const p = region.byteOffset + AT;
  const end = p + (cut ?? bytes.length);
  const { skipValue, skipForm, skipFormAnswer, jsonForm } = WASM_SCAN.exports;
  const skipped = skipValue(p, end);
  const formed = skipForm(p, end);
  const answer = skipFormAnswer();
  return { skip: skipped === 0 ? 0 : skipped - p, skipForm: formed === 0 ? 0 : formed - p, jsonForm: skipped === 0 ? null : jsonForm(p, skipped), answer };
}

/** Random damage to a JSON text: bytes inserted, dropped or replaced, favouring ones that matter to JSON or to the form. */
const damaged = fc.tuple(formTexts, fc.array(fc.tuple(fc.nat(), fc.constantFrom(..."\"\\{}[],:0-.eE+u\u0001 \rtfn"), fc.constantFrom("insert", "drop", "replace")), { maxLength: 3 })).map(([json, edits]) => {
  let text = json;
  for (const [at, c, kind] of edits) {
    const i = text.length === 0 ? 0 : at % text.length;
    text = kind === "insert" ? text.slice(0, i) + c + text.slice(i) : kind === "drop" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + c + text.slice(i + 1);
  }
  return text;
});

describe("skipForm skips what skipValue skips", () => {
  it("ends every valid, odd or damaged text where skipValue ends it, or declines it as skipValue does", () => {
    let accepted = 0;
    let declined = 0;
    fc.assert(
      fc.property(fc.oneof(formTexts, damaged), (text) => {
        const r = both(text);
        expect(r.skipForm, text).toBe(r.skip);
        if (r.skip === 0) declined++;
        else accepted++;
      }),
      { numRuns: 20_000, seed: 19 },
    );
    expect(accepted).toBeGreaterThan(5_000);
    expect(declined).toBeGreaterThan(2_000);
  });

  it("declines a value cut anywhere by `end`, as skipValue does", () => {
    const text = '{"turn":12,"inventory":["map","seal\\n"],"status":"a status text past sixteen bytes, naïve","deep":[[{"a":-1.5e3}]],"t":true,"n":null}';
    const length = Buffer.byteLength(text);
    for (let cut = 0; cut <= length; cut++) {
      const r = both(text, cut);
      expect(r.skipForm, `cut at ${cut}`).toBe(r.skip);
      expect(r.skipForm, `cut at ${cut}`).toBe(cut === length ? length : 0);
    }
  });

  it("nests up to 512 open containers, as skipValue", () => {
    const nested = (n: number, open = "[", close = "]", inner = "1"): string => `${open.repeat(n)}${inner}${close.repeat(n)}`;
    expect(both(nested(512)).skipForm).toBe(1025);
    expect(both(nested(513)).skipForm).toBe(0);
    expect(both(nested(512, '{"a":', "}")).skipForm).toBe(512 * 6 + 1);
    expect(both(nested(513, '{"a":', "}")).skipForm).toBe(0);
  });
});

describe("skipForm answers what jsonForm answers", () => {
  it("wherever jsonForm answers, and what isStringifyForm says where only it answers", () => {
    let answered = 0;
    fc.assert(
      fc.property(formTexts, (text) => {
        const r = both(text);
        if (r.skip === 0) return;
        expect([NOT_FORM, FORM, UNSURE]).toContain(r.answer);
        if (r.jsonForm !== UNSURE) {
          answered++;
          expect(r.answer, text).toBe(r.jsonForm);
        } else if (r.answer !== UNSURE) expect(r.answer === FORM, text).toBe(isStringifyForm(Buffer.from(text), 0, Buffer.byteLength(text), true));
      }),
      { numRuns: 20_000, seed: 20 },
    );
    expect(answered).toBeGreaterThan(8_000);
  });

  it.each([
    ['{"turn":12,"location":"gate","inventory":["map","seal"],"visible_seats":[0,2],"status":"a long status text, naïve and plain, past sixteen bytes"}', FORM],
    ['{"a": 1}', NOT_FORM],
    ['{"a":1 }', NOT_FORM],
    ['[ 1]', NOT_FORM],
    ['{"a":"\\/"}', NOT_FORM],
    ['{"a":"\\u0041"}', NOT_FORM],
    ['"\\u000A"', NOT_FORM],
    ['"\\u001f\\n\\"\\\\\\b\\f\\r\\t"', FORM],
    ['{"a\\n":1}', NOT_FORM],
    ['{"a":1,"a":2}', NOT_FORM],
    ['{"b":{"a":1,"a":2}}', NOT_FORM],
    ['{"a":{"a":1},"b":{"a":2}}', FORM],
    ['[{"a":1},{"a":1}]', FORM],
    ['{"1":1}', NOT_FORM],
    ["{}", FORM],
    ["[]", FORM],
    ["-12", FORM],
    ["123456789012345", FORM],
    ["1234567890123456", UNSURE],
    ["-0", UNSURE],
    ["1.5", UNSURE],
    ["1e3", UNSURE],
    // The first thing that decides, decides: a number JS must tell before a space, and after one.
    ["[1.5, 1]", UNSURE],
    ["[1, 1.5]", NOT_FORM],
  ])("%s: %s", (text, answer) => {
    const r = both(text);
    expect(r.skipForm).toBe(Buffer.byteLength(text));
    expect(r.answer).toBe(answer);
    expect(r.jsonForm).toBe(answer);
  });

  it("tells values nested deeper than jsonForm's areas, which jsonForm leaves to JS", () => {
    const deep = (inner: string): string => `${"[".repeat(300)}${inner}${"]".repeat(300)}`;
    for (const [text, answer] of [
      [deep("1"), FORM],
      [deep(" 1"), NOT_FORM],
      [deep('{"a":1,"a":2}'), NOT_FORM],
      [deep("1.5"), UNSURE],
    ] as const) {
      const r = both(text);
      expect(r.jsonForm).toBe(UNSURE);
      expect(r.answer).toBe(answer);
    }
  });

  it("leaves an object of more keys than it keeps to JS, as jsonForm does", () => {
    const keys = (n: number): string => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`;
    expect(both(keys(1024))).toMatchObject({ answer: FORM, jsonForm: FORM });
    expect(both(keys(1025))).toMatchObject({ answer: UNSURE, jsonForm: UNSURE });
  });
});
