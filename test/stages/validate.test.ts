import { describe, expect, it } from "vitest";
import { FORMATS } from "../../src/formats/index.js";
import type { Flow, Quarantined } from "../../src/core/flow.js";
import { validate } from "../../src/stages/validate.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { collect, fixtureLines, from, linesOf, outcomes } from "../helpers/flow.js";

const run = async (name: string, options = {}) => collect(validate(options)(from(fixtureLines(name))));

describe("validate", () => {
  it("keeps valid records, typed and numbered in read order", async () => {
    const out = await run("records/sft-valid.ndjson");
    expect(outcomes(out as Flow<ValidRecord>[])).toEqual(["kept:run-001", "kept:run-002", "kept:run-003"]);
    expect(out.map((f) => (f.kind === "kept" ? f.value.ordinal : -1))).toEqual([0, 1, 2]);
  });

  it("accepts unknown fields and removes them", async () => {
    const [item] = await run("records/sft-unknown-fields.ndjson");
    expect(item?.kind).toBe("kept");
    const record = (item as { value: ValidRecord }).value.record;
    expect(record).not.toHaveProperty("future_field");
    expect(record.scores).not.toHaveProperty("extra_score");
  });

  it("quarantines each bad line with its reason and keeps going", async () => {
    const out = await run("records/sft-bad-lines.ndjson");
    expect(outcomes(out as Flow<ValidRecord>[])).toEqual([
      "kept:run-020",
      "quarantined:invalid_json",
      "quarantined:invalid_json",
      "quarantined:schema",
      "quarantined:unsupported_format_version",
      "quarantined:unsupported_format_version",
      "quarantined:schema",
      "quarantined:schema",
      "quarantined:schema",
      "quarantined:mixed_format",
      "kept:run-027",
    ]);
  });

  it("names the failing path and keeps provenance and raw text", async () => {
    const out = await run("records/sft-bad-lines.ndjson");
    const wrongType = out[6] as Quarantined;
    expect(wrongType.detail).toMatch(/^seat\.seat_index: /);
    expect(wrongType.provenance).toMatchObject({ source: "records/sft-bad-lines.ndjson", line: 7 });
    expect(JSON.parse(wrongType.raw).run_id).toBe("run-023");
    expect(wrongType.rawLength).toBe(Buffer.byteLength(wrongType.raw));
    expect((out[4] as Quarantined).detail).toMatch(/format_version "1.0" is not supported/);
    expect((out[5] as Quarantined).detail).toMatch(/no format_version/);
  });

  it("quarantines a later minor by default and accepts it when asked", async () => {
    expect(outcomes((await run("records/sft-later-minor.ndjson")) as Flow<ValidRecord>[])).toEqual([
      "kept:run-030",
      "quarantined:unsupported_format_version",
      "quarantined:unsupported_format_version",
    ]);
    const lenient = await run("records/sft-later-minor.ndjson", { acceptLaterMinor: true });
    expect(outcomes(lenient as Flow<ValidRecord>[])).toEqual(["kept:run-030", "kept:run-031", "quarantined:unsupported_format_version"]);
    const kept = lenient[1] as { value: ValidRecord };
    expect(kept.value.record.format_version).toBe("1.2");
    expect(kept.value.record).not.toHaveProperty("new_in_1_2");
  });

  it("turns partial_stream lines into stream errors, not records", async () => {
    const out = await run("records/sft-stream-errors.ndjson");
    expect(out.map((f) => f.kind)).toEqual(["kept", "stream_error", "kept", "stream_error"]);
    expect(out[1]).toMatchObject({ runIndex: 1 });
  });

  it("quarantines semantic faults with their own reasons", async () => {
    expect(outcomes((await run("records/rl-invalid-trajectory.ndjson")) as Flow<ValidRecord>[])).toEqual([
      "kept:run-110",
      "quarantined:invalid_trajectory",
      "quarantined:invalid_trajectory",
      "quarantined:invalid_trajectory",
    ]);
    expect(outcomes((await run("records/dpo-invalid-pair.ndjson")) as Flow<ValidRecord>[])).toEqual(["kept:run-210", "quarantined:invalid_pair"]);
  });

  it("with a forced format, quarantines records of another format as unsupported", async () => {
    const out = await run("records/rl-valid.ndjson", { format: FORMATS.sft, forced: true });
    expect(out.every((f) => f.kind === "quarantined" && f.reason === "unsupported_format_version")).toBe(true);
  });

  it("settles the format on the first record that names one", async () => {
    let seen = "";
    await collect(validate({ onFormat: (f) => (seen = f.name) })(from(fixtureLines("records/dpo-valid.ndjson"))));
    expect(seen).toBe("dpo");
  });

  it("quarantines an oversized line from the source as line_too_long with its full length", async () => {
    const out = await collect(
      validate()(from([{ kind: "too_long" as const, provenance: { source: "s", line: 3, offset: 99 }, head: "{\"format", bytes: 1_000_000 }])),
    );
    expect(out[0]).toMatchObject({ kind: "quarantined", reason: "line_too_long", raw: "{\"format", rawLength: 1_000_000 });
  });

  it("quarantines an unpaired surrogate escape, which UTF-8 cannot hold, and keeps an escaped pair", async () => {
    const out = await run("records/sft-lone-surrogate.ndjson");
    expect(outcomes(out as Flow<ValidRecord>[])).toEqual(["kept:run-400", "quarantined:schema", "kept:run-402"]);
    expect((out[1] as Quarantined).detail).toMatch(/unpaired UTF-16 surrogate/);
  });

  it("caps the raw text kept for a huge bad line", async () => {
    const huge = `{"x": "${"y".repeat(200_000)}"`;
    const [item] = await collect(validate()(from(linesOf([huge]))));
    expect(item).toMatchObject({ kind: "quarantined", reason: "invalid_json", rawLength: huge.length });
    expect((item as Quarantined).raw.length).toBe(65_536);
  });
});
