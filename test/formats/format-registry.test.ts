import { z } from "zod";
import { describe, expect, it } from "vitest";
import { int } from "../../src/formats/common.js";
import { defineFormat } from "../../src/formats/define-format.js";
import { FormatRegistry } from "../../src/formats/format-registry.js";
import { FORMAT_REGISTRY, FORMATS, formatByName } from "../../src/formats/index.js";
import { RECORD_RULES } from "../../src/formats/record-rules.js";
import { dpo } from "../../src/formats/dpo.js";
import { rl } from "../../src/formats/rl.js";
import { sft } from "../../src/formats/sft.js";
import type { Flow, Quarantined } from "../../src/core/flow.js";
import { validate } from "../../src/stages/validate.js";
import type { ValidateOptions } from "../../src/stages/validate.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { collect, from, linesOf } from "../helpers/flow.js";
import { sftRecord } from "../helpers/records.js";

// A test-only next major of SFT: every 1.1 field, and a required `tokens`. Registered beside 1.1 without
// touching the registry's code.
const { format_version: _, ...sftFields } = sft.schema.shape;
const sft20 = defineFormat({ name: "sft", version: "2.0", fields: { ...sftFields, tokens: int().min(0) }, untrustedPaths: sft.untrustedPaths, rules: RECORD_RULES.sft });
const withSft20 = FORMAT_REGISTRY.with(sft20);

const line = (runId: string, version: string, extra: Record<string, unknown> = {}) => JSON.stringify({ ...sftRecord({ run_id: runId }), format_version: version, ...extra });
const run = async (lines: string[], options: ValidateOptions) => collect(validate(options)(from(linesOf(lines))));
const kept = (flow: Flow<ValidRecord> | undefined) => (flow?.kind === "kept" ? flow.value : expect.unreachable(`kept, got ${JSON.stringify(flow)}`));
const reason = (flow: Flow<ValidRecord> | undefined) => (flow as Quarantined).reason;
const detail = (flow: Flow<ValidRecord> | undefined) => (flow as Quarantined).detail;

describe("defineFormat", () => {
  it("puts the version field first, as the literal version, and derives the columns from the schema", () => {
    for (const format of [sft, rl, dpo]) {
      expect(Object.keys((format.schema as unknown as z.ZodObject).shape)[0]).toBe(format.versionField);
      expect(format.columns[0]?.name).toBe(format.versionField);
      expect(format.schema.safeParse({ [format.versionField]: "9.9" }).success).toBe(false);
    }
    expect(sft20.columns.map((c) => c.name)).toEqual([...sft.columns.map((c) => c.name), "tokens"]);
  });

  it("the any-version schema reads a later minor with the same fields", () => {
    const record = JSON.parse(line("run-1", "1.7"));
    expect(sft.schema.safeParse(record).success).toBe(false);
    expect(sft.anyVersionSchema.parse(record)).toMatchObject({ run_id: "run-1", format_version: "1.7" });
  });

  it("refuses a definition that lists the version field, or a version that is not major.minor", () => {
    expect(() => defineFormat({ name: "sft", version: "3.0", fields: { format_version: z.string() }, untrustedPaths: [], rules: RECORD_RULES.sft })).toThrow(/lists its version field format_version/);
    expect(() => defineFormat({ name: "sft", version: "3", fields: {}, untrustedPaths: [], rules: RECORD_RULES.sft })).toThrow(/not major\.minor/);
  });

  it("refuses an untrusted path its schema does not declare", () => {
    expect(() => defineFormat({ name: "sft", version: "3.0", fields: sftFields, untrustedPaths: ["coaching.guidanse"], rules: RECORD_RULES.sft })).toThrow(/coaching\.guidanse, which its schema does not declare/);
  });
});

describe("FormatRegistry", () => {
  it("is keyed by (name, version), each name's versions oldest first", () => {
    expect(withSft20.versions("sft")).toEqual([sft, sft20]);
    expect(withSft20.get("sft", "1.1")).toBe(sft);
    expect(withSft20.get("sft", "2.0")).toBe(sft20);
    expect(withSft20.get("sft", "1.2")).toBeUndefined();
    expect([...withSft20].map((f) => `${f.name} ${f.version}`)).toEqual(["sft 1.1", "sft 2.0", "rl 1.0", "dpo 1.0"]);
  });

  it("`with` leaves the registry it extends as it was: evalshard's formats are one version each", () => {
    expect(FORMAT_REGISTRY.versions("sft")).toEqual([sft]);
    expect(FORMATS).toEqual({ sft, rl, dpo });
    expect(formatByName("sft")).toBe(sft);
  });

  it("the current version of a name is its latest", () => {
    expect(FORMAT_REGISTRY.current("sft")).toBe(sft);
    expect(withSft20.current("sft")).toBe(sft20);
    expect(() => new FormatRegistry([sft]).current("rl")).toThrow(/No version of format rl/);
  });

  it("refuses a (name, version) registered twice", () => {
    expect(() => FORMAT_REGISTRY.with(sft)).toThrow(/sft 1\.1 is registered twice/);
  });

  it("detects the format by its version field, at its current version whatever version the record names", () => {
    expect(withSft20.detect({ format_version: "2.0" })).toBe(sft20);
    expect(withSft20.detect({ format_version: "1.1" })).toBe(sft20);
    expect(FORMAT_REGISTRY.detect({ format_version: "2.0" })).toBe(sft);
    expect(withSft20.detect({ rl_format_version: "1.0" })).toBe(rl);
    expect(withSft20.detect({ run_id: "x" })).toBeNull();
  });

  it("judges a record by the version it names, or under acceptLaterMinor by the latest version it is a later minor of", () => {
    expect(withSft20.judgeOf(sft, "1.1", false)).toBe(sft);
    expect(withSft20.judgeOf(sft, "2.0", false)).toBe(sft20);
    expect(withSft20.judgeOf(sft20, "1.1", false)).toBe(sft);
    expect(withSft20.judgeOf(sft, "2.4", false)).toBeNull();
    expect(withSft20.judgeOf(sft, "2.4", true)).toBe(sft20);
    expect(withSft20.judgeOf(sft, "1.2", true)).toBe(sft);
    expect(withSft20.judgeOf(sft, "3.0", true)).toBeNull();
    expect(withSft20.judgeOf(sft, 2, true)).toBeNull();
  });
});

describe("two versions of a format side by side (validate)", () => {
  it("validates records of both versions, each by its own schema", async () => {
    const out = await run(
      [line("run-1", "1.1"), line("run-2", "2.0", { tokens: 7 }), line("run-3", "2.0"), line("run-4", "1.1", { tokens: 7 }), line("run-5", "3.0")],
      { formats: withSft20 },
    );
    // 1.1 by 1.1's schema.
    expect(kept(out[0]).format).toBe(sft);
    expect(kept(out[0]).record).not.toHaveProperty("tokens");
    // 2.0 by 2.0's schema: its extra field is kept, and required.
    expect(kept(out[1]).format).toBe(sft20);
    expect(kept(out[1]).record).toMatchObject({ run_id: "run-2", format_version: "2.0", tokens: 7 });
    expect(reason(out[2])).toBe("schema");
    expect(detail(out[2])).toMatch(/tokens/);
    // A 1.1 record does not declare tokens: removed, as any undeclared field.
    expect(kept(out[3]).record).not.toHaveProperty("tokens");
    expect(reason(out[4])).toBe("unsupported_format_version");
    expect(detail(out[4])).toBe('format_version "3.0" is not supported (expected "2.0" or "1.1")');
    expect(out.filter((f) => f.kind === "kept").map((f) => (f.kind === "kept" ? f.value.ordinal : -1))).toEqual([0, 1, 2]);
  });

  it("a detected dataset is of the format's current version (the parallel engine's too); other versions of it are read, other formats are mixed_format", async () => {
    let dataset = "";
    const out = await run([line("run-1", "1.1"), line("run-2", "2.0", { tokens: 1 }), JSON.stringify({ rl_format_version: "1.0" })], {
      formats: withSft20,
      onFormat: (f) => (dataset = `${f.name} ${f.version}`),
    });
    expect(dataset).toBe("sft 2.0");
    expect(out.map((f) => (f.kind === "kept" ? `kept:${f.value.format.version}` : `${f.kind}:${(f as Quarantined).reason}`))).toEqual(["kept:1.1", "kept:2.0", "quarantined:mixed_format"]);
  });

  it("a dataset forced to an older version still reads the newer one", async () => {
    const out = await run([line("run-1", "2.0", { tokens: 1 }), line("run-2", "1.1"), JSON.stringify({ rl_format_version: "1.0" })], { formats: withSft20, format: sft, forced: true });
    expect(out.map((f) => (f.kind === "kept" ? `kept:${f.value.format.version}` : `${f.kind}:${(f as Quarantined).reason}`))).toEqual(["kept:2.0", "kept:1.1", "quarantined:unsupported_format_version"]);
  });

  it("under acceptLaterMinor, 2.3 is read as 2.0 and 1.2 as 1.1", async () => {
    const out = await run([line("run-1", "2.3", { tokens: 1 }), line("run-2", "1.2", { tokens: 1 }), line("run-3", "2.3")], { formats: withSft20, acceptLaterMinor: true });
    expect(kept(out[0]).format).toBe(sft20);
    expect(kept(out[0]).record).toMatchObject({ format_version: "2.3", tokens: 1 });
    expect(kept(out[1]).format).toBe(sft);
    expect(kept(out[1]).record).toMatchObject({ format_version: "1.2" });
    expect(kept(out[1]).record).not.toHaveProperty("tokens");
    expect(reason(out[2])).toBe("schema");
  });

  it("without the registration, 2.0 is quarantined as it always was", async () => {
    const out = await run([line("run-1", "1.1"), line("run-2", "2.0", { tokens: 7 }), JSON.stringify({ run_id: "x" })], {});
    expect(kept(out[0]).format).toBe(sft);
    expect(reason(out[1])).toBe("unsupported_format_version");
    expect(detail(out[1])).toBe('format_version "2.0" is not supported (expected "1.1")');
    expect(detail(out[2])).toBe("no format_version, rl_format_version or dpo_format_version field");
  });
});
