import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonFormOf } from "../../../../src/engines/parallel/fast/wasm-json-form.js";
import { scanRegion, spareLine, WASM_SCAN } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { isStringifyForm, stringifiesTo } from "../../../../src/views/is-stringify-form.js";
import { formTexts } from "../../../helpers/form-texts.js";

scanRegion(1 << 16);

/** The text in the module's memory (its spare line area), as a walk leaves a line. */
function inModule(text: string): Buffer {
  const view = spareLine(Buffer.from(text, "utf8"));
  if (view === null) throw new Error("the text does not fit the spare line area");
  return view;
}

describe("the wasm module's JSON.stringify-form check (rl-steps' observations)", () => {
  it("says yes only of what the definition says yes of, and answers alike in a worker's region and in the scratch instance", () => {
    let answered = 0;
    fc.assert(
      fc.property(formTexts, (text) => {
        const view = inModule(text);
        const stringified = stringifiesTo(view, 0, view.length);
        const answer = WASM_SCAN.exports.jsonForm(view.byteOffset, view.byteOffset + view.length);
        expect([0, 1, 2]).toContain(answer);
        if (answer !== 2) answered++;
        if (answer === 1) expect(stringified, text).toBe(true);
        const inRegion = jsonFormOf(view, 0, view.length);
        if (inRegion) expect(stringified, text).toBe(true);
        expect(isStringifyForm(Buffer.from(text), 0, view.length, true), text).toBe(inRegion);
      }),
      { numRuns: 20_000, seed: 15 },
    );
    // Most texts are the module's to tell: those whose numbers are all short integers.
    expect(answered).toBeGreaterThan(10_000);
  });

  it("says yes of an observation as the export writes it, no of other spellings, and leaves other numbers to JS", () => {
    const answer = (text: string) => {
      const view = inModule(text);
      return WASM_SCAN.exports.jsonForm(view.byteOffset, view.byteOffset + view.length);
    };
    expect(answer('{"turn":12,"location":"gate","inventory":["map","seal"],"visible_seats":[0,2],"status":"a long status text, naïve and plain, past sixteen bytes"}')).toBe(1);
    for (const text of ['{"a": 1}', '{"a":"\\/"}', '{"a":"\\u0041"}', '{"a":1,"a":2}', '{"b":{"a":1,"a":2}}', '{"1":1}', '{"a\\n":1}', '"\\u000A"', '"\\u000a"']) expect(answer(text), text).toBe(0);
    for (const text of ['{"a":{"a":1},"b":{"a":2}}', '[{"a":1},{"a":1}]', "{}", "[]", '"\\u001f\\n"', "0", "-12"]) expect(answer(text), text).toBe(1);
    for (const text of ["1.5", "-0", "1e3", '{"a":[1,2.5]}', "1234567890123456", "07"]) expect(answer(text), text).toBe(2);
  });

  it("is the scratch instance's check for bytes outside the region", () => {
    const text = '{"a": 1}';
    expect(jsonFormOf(Buffer.from(text), 0, text.length)).toBe(false);
    expect(jsonFormOf(Buffer.from('{"a":1.5}'), 0, 9)).toBe(true);
  });
});
