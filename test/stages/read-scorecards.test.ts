import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, IoError } from "../../src/core/errors.js";
import { readGatedRuns } from "../../src/stages/read-scorecards.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir();
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe("readGatedRuns", () => {
  it("reads NDJSON of scorecard responses and bare scorecards", async () => {
    const path = file(
      "a.ndjson",
      '{"scorecards":[{"run_id":"r1","participation_gated":true},{"run_id":"r2"}],"versions":[1]}\n\n{"run_id":"r3","participation_gated":1}\r\n{"run_id":"r4","participation_gated":false}\n',
    );
    expect([...(await readGatedRuns(path))].sort()).toEqual(["r1", "r3"]);
  });

  it("reads one JSON document: an array or a response", async () => {
    expect([...(await readGatedRuns(file("b.json", '[{"run_id":"r5","participation_gated":"yes"}]')))]).toEqual(["r5"]);
    expect([...(await readGatedRuns(file("c.json", '{"scorecards":[{"run_id":"r6","participation_gated":true}],"versions":[1,2]}')))]).toEqual(["r6"]);
  });

  it("names the file and line of a bad entry", async () => {
    await expect(readGatedRuns(file("d.ndjson", '{"run_id":"ok"}\n{oops\n'))).rejects.toThrow(/d\.ndjson" line 2/);
    await expect(readGatedRuns(file("e.ndjson", '{"run_id":7}\n{"run_id":"x"}\n'))).rejects.toThrow(ConfigError);
  });

  it("names a missing file", async () => {
    await expect(readGatedRuns(join(dir, "missing.json"))).rejects.toThrow(IoError);
  });
});
