import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { gunzipSync, zstdDecompressSync as zstdDecompress } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FORMAT_NAMES } from "../../../../src/formats/format.js";
import type { FormatName } from "../../../../src/formats/format.js";
import { FIXTURES } from "../../../helpers/flow.js";
import { differential } from "./helpers/differential.js";
import type { Subject } from "./helpers/differential.js";
import { subjectsOf } from "./helpers/policies.js";
import { slowPath } from "./helpers/slow-path.js";

const SUBJECTS = Object.fromEntries(FORMAT_NAMES.map((name) => [name, subjectsOf(name)])) as Record<FormatName, Subject[]>;

/** Lines as the line sources cut them: no BOM, no CR before the line end, blank lines skipped. */
function linesOf(bytes: Buffer): string[] {
  return bytes
    .toString("utf8")
    .replace(/^\ufeff/, "")
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "");
}

/** Checks every line against every subject; a line the slow path keeps (or faults only by `check`) must be vouched for by its own format. */
async function checkLines(lines: readonly string[], subjects: readonly Subject[]): Promise<void> {
  for (const line of lines) {
    for (const s of subjects) {
      const vouched = await differential(s, line);
      const slow = await slowPath(s.format, s.policy, line);
      const valid = slow.kind === "kept" || (slow.kind === "quarantined" && /^invalid_(trajectory|pair)$/.test(slow.reason));
      if (valid) expect(vouched, `${s.label} declined a valid line: ${line.slice(0, 300)}`).toBe(true);
    }
  }
}

const allSubjects = FORMAT_NAMES.flatMap((n) => SUBJECTS[n]);

describe("fixtures/records: the fast path agrees with the slow path and vouches for every valid line", () => {
  for (const file of readdirSync(`${FIXTURES}records`).filter((f) => f.endsWith(".ndjson"))) {
    it(file, async () => {
      await checkLines(linesOf(readFileSync(`${FIXTURES}records/${file}`)), allSubjects);
    });
  }
});

describe("fixtures/sources: every (decompressed) line is a valid SFT record the fast path vouches for", () => {
  const decode: Record<string, (b: Buffer) => Buffer> = {
    ".gz": (b) => gunzipSync(b),
    ".zst": (b) => Buffer.from(zstdDecompress(b)),
    ".ndjson": (b) => b,
  };
  for (const file of readdirSync(`${FIXTURES}sources`).filter((f) => !f.endsWith(".mjs"))) {
    it(file, async () => {
      const ext = Object.keys(decode).find((e) => file.endsWith(e)) as string;
      const lines = linesOf((decode[ext] as (b: Buffer) => Buffer)(readFileSync(`${FIXTURES}sources/${file}`)));
      expect(lines.length).toBeGreaterThan(0);
      await checkLines(lines, SUBJECTS.sft);
    });
  }
});

/** The first `count` lines of a (large) file, reading only as much as they need. */
function headLines(path: string, count: number): string[] {
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.alloc(64 << 20);
    const read = readSync(fd, chunk, 0, chunk.length, 0);
    return chunk.subarray(0, read).toString("utf8").split("\n").slice(0, count);
  } finally {
    closeSync(fd);
  }
}

describe("the benchmark's generated exports are vouched for and agree with the slow path", () => {
  // The benchmark's own generator and seed (bench/data/ is not in git): the first lines of its 200 MiB files (it
  // writes the same records first whatever the size). A thousand records already hold each of its shapes several
  // times over (flagged, unscored, trace-less, injected text); the time goes to each line's deep comparisons.
  const GENERATE = fileURLToPath(new URL("../../../../bench/generate-exports.mjs", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "evalshard-fast-bench-"));
  for (const [name, file, count, mib] of [["sft", "sft.ndjson", 1000, "13"], ["rl", "rl.ndjson", 750, "17"]] as const) {
    it(`${name}: first ${count} generated lines, default policy; a third of them kept and redacted`, { timeout: 60_000 }, async () => {
      const path = join(dir, file);
      execFileSync(process.execPath, [GENERATE, "--format", name, "--mib", mib, "--seed", "1", "--out", path], { stdio: "ignore" });
      const lines = headLines(path, count);
      expect(lines).toHaveLength(count);
      const [defaults, keep, redact] = SUBJECTS[name];
      for (const [k, line] of lines.entries()) {
        expect(await differential(defaults as Subject, line), `line ${k + 1}`).toBe(true);
        if (k % 3 === 0) {
          expect(await differential(keep as Subject, line), `line ${k + 1} (keep)`).toBe(true);
          expect(await differential(redact as Subject, line), `line ${k + 1} (redact)`).toBe(true);
        }
      }
    });
  }
});
