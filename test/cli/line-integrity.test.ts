import { describe, expect, it } from "vitest";
import { convertBothCli } from "../helpers/convert-both-cli.js";
import { sftRecord } from "../helpers/records.js";

const line = (r: object) => JSON.stringify(r);

describe("invalid UTF-8 is quarantined as invalid_utf8, never decoded to U+FFFD silently", { timeout: 60_000 }, () => {
  it("in both executors, with the byte where the line stops being UTF-8", async () => {
    const valid = line(sftRecord({ run_id: "good" }));
    const text = line(sftRecord({ run_id: "bad-utf8", coaching: { weak_traits: [], guidance: "caf\u00e9 MARK" } }));
    const at = Buffer.byteLength(text.slice(0, text.indexOf("MARK")));
    // A lone continuation byte, a truncated 3-byte sequence, an overlong "/" and an encoded surrogate.
    const bads = [Buffer.from([0x80]), Buffer.from([0xe2, 0x82]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80])].map((bytes) =>
      Buffer.concat([Buffer.from(text.slice(0, text.indexOf("MARK"))), bytes, Buffer.from(text.slice(text.indexOf("MARK")))]),
    );
    const o = await convertBothCli([valid, ...bads, line(sftRecord({ run_id: "text-with-a-real-fffd", coaching: { weak_traits: [], guidance: "\uFFFD is a character" } }))]);
    expect(o.manifest.quarantined).toEqual({ invalid_utf8: 4 });
    expect(o.quarantine.map((q) => q.line)).toEqual([2, 3, 4, 5]);
    for (const q of o.quarantine) expect(q.detail).toMatch(new RegExp(`not UTF-8 from byte ${at} on`));
    // U+FFFD written as UTF-8 is text like any other.
    expect(o.rows.map((r) => r.run_id)).toEqual(["good", "text-with-a-real-fffd"]);
  });
});

describe("__proto__ and other special keys are data, kept like any key", { timeout: 60_000 }, () => {
  it("in scores.per_trait, in both executors, written as plain or escaped JSON", async () => {
    const traits = { mean: 0.5, variance: 0, evidence: ["e"] };
    const per_trait = { honesty: traits, __proto__: { ...traits, mean: 0.1 }, constructor: traits, toString: traits, "0": traits };
    const record = sftRecord({ run_id: "special", scores: { ...(sftRecord().scores as NonNullable<ReturnType<typeof sftRecord>["scores"]>), per_trait: {} } });
    // JSON.stringify writes an own __proto__ key; an object literal's __proto__ would set the prototype instead.
    const perTraitJson = `{${Object.entries({ honesty: traits, constructor: traits, toString: traits, "0": traits }).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")},"__proto__":${JSON.stringify(per_trait.__proto__)}}`;
    const plain = line(record).replace('"per_trait":{}', `"per_trait":${perTraitJson}`);
    const escaped = plain.replace('"run_id":"special"', '"run_id":"escaped"').replace('"__proto__"', '"\\u005f_proto__"');
    const o = await convertBothCli([plain, escaped]);
    expect(o.manifest.records_out).toBe(2);
    for (const row of o.rows) {
      // A map column, read back as [{key, value}] entries.
      const entries = (row.scores as { per_trait: { key: string }[] }).per_trait;
      const keys = entries.map((e) => e.key).sort();
      expect(keys).toEqual(["0", "__proto__", "constructor", "honesty", "toString"]);
    }
  });
});
