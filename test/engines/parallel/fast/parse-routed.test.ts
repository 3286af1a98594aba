import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { compileParserSchema } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { lineParserOf } from "../../../../src/engines/parallel/fast/line-parser-of.js";
import type { LineParser } from "../../../../src/engines/parallel/fast/line-parser.js";
import { RECORD_RULES } from "../../../../src/formats/record-rules.js";
import type { RowRoute } from "../../../../src/engines/parallel/fast/row-route.js";
import { scanRegion } from "../../../../src/engines/parallel/fast/wasm-scan.js";
import { rl } from "../../../../src/formats/rl.js";
import { sft } from "../../../../src/formats/sft.js";
import type { Format } from "../../../../src/formats/format.js";
import { GROUP_KEY_PATH } from "../../../../src/splits/split-by.js";
import { outputColumns, resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";
import { rlRecord, sftRecord } from "../../../helpers/records.js";
import { columnsOf, recorders } from "./helpers/recording-writer.js";
import type { RecordingWriter } from "./helpers/recording-writer.js";

// A split run's worker writes each row straight into its split's row group: the parser hands the route the
// line's group key, read off the wasm walk's tape, before it writes anything (run/split-route.ts).

function parserOf(format: Format, routeBy: string): LineParser {
  const policy = resolveUntrustedPolicy(format, {});
  return lineParserOf(compileParserSchema(format, policy), outputColumns(format, policy), RECORD_RULES[format.name].reads, [], routeBy);
}

/** A route that records the keys it was given and what had been written into its writers at each pick. */
class RecordingRoute implements RowRoute {
  readonly keys: (string | null)[] = [];
  readonly writtenAtPick: number[] = [];
  readonly audit = null;
  constructor(readonly out: RecordingWriter[]) {}
  pick(key: string | null): void {
    this.keys.push(key);
    this.writtenAtPick.push(this.out.reduce((n, w) => n + w.entries.length, 0));
  }
}

let made: Buffer | null = null;
const region = (): Buffer => (made ??= scanRegion(1 << 20));

/** `line` parsed plainly and routed, in a buffer of its own (copied into the spare line) or in the scan region (as a batch's). */
function routedAndPlain(parser: LineParser, line: string, inRegion: boolean) {
  const types = parser.plan.leaves.map((l) => l.type);
  const bytes = Buffer.from(line);
  const buf = inRegion ? region() : bytes;
  if (inRegion) {
    region().set(bytes);
    region()[bytes.length] = 0x0a;
  }
  const plainOut = recorders(types.length);
  const plain = parser.parse(buf, 0, bytes.length, plainOut);
  const route = new RecordingRoute(recorders(types.length));
  const routed = parser.parseRouted(buf, 0, bytes.length, route);
  return { plain, routed, route, plainColumns: columnsOf(plainOut, types), routedColumns: columnsOf(route.out, types) };
}

describe("parseRouted", () => {
  it("gives a batch's line its group key before writing the row, and writes what parse writes", () => {
    const cases: [Format, string, Record<string, unknown>, string][] = [
      [sft, GROUP_KEY_PATH.scenario, sftRecord(), "camp_frostfall_pass"],
      [sft, GROUP_KEY_PATH.run, sftRecord(), "run_01J8ZQ4M7D3K"],
      [rl, GROUP_KEY_PATH.scenario, rlRecord(), (rlRecord()["scenario"] as { campaign_id: string }).campaign_id],
      [rl, GROUP_KEY_PATH.run, rlRecord(), rlRecord()["run_id"] as string],
    ];
    for (const [format, path, record, key] of cases) {
      const { plain, routed, route, plainColumns, routedColumns } = routedAndPlain(parserOf(format, path), JSON.stringify(record), true);
      expect(plain).not.toBeNull();
      expect(routed).toEqual(plain);
      expect(routedColumns).toEqual(plainColumns);
      expect(route.keys).toEqual([key]);
      expect(route.writtenAtPick).toEqual([0]);
    }
  });

  it("gives the key as the skeleton holds it, escapes decoded, long or not", () => {
    for (const id of ["camp_é_\u2603", "c".repeat(200)]) {
      // \u0041 for the first "A": the line spells the id with an escape.
      const line = JSON.stringify(sftRecord({ scenario: { campaign_id: `A${id}`, seed: 1 } })).replace(`"A${id}"`, `"\\u0041${id}"`);
      expect(line).toContain("\\u0041");
      const { plain, routed, route } = routedAndPlain(parserOf(sft, GROUP_KEY_PATH.scenario), line, true);
      expect((plain?.["scenario"] as { campaign_id: string }).campaign_id).toBe(`A${id}`);
      expect(routed).toEqual(plain);
      expect(route.keys).toEqual([`A${id}`]);
    }
  });

  it("gives a line from elsewhere its group key too (the walk takes it in the spare line), writing what parse writes", () => {
    const { plain, routed, route, plainColumns, routedColumns } = routedAndPlain(parserOf(sft, GROUP_KEY_PATH.scenario), JSON.stringify(sftRecord()), false);
    expect(plain).not.toBeNull();
    expect(routed).toEqual(plain);
    expect(routedColumns).toEqual(plainColumns);
    expect(route.keys).toEqual(["camp_frostfall_pass"]);
    expect(route.writtenAtPick).toEqual([0]);
  });

  it("picks once, with no key, for a line the walk declines", () => {
    const record = sftRecord();
    delete (record as Record<string, unknown>)["run_id"];
    const { plain, routed, route } = routedAndPlain(parserOf(sft, GROUP_KEY_PATH.scenario), JSON.stringify(record), true);
    expect(plain).toBeNull();
    expect(routed).toBeNull();
    expect(route.keys).toEqual([null]);
  });
});
