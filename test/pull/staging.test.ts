import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeEscaped } from "../../src/sources/escaped-utf8.js";
import { Staging } from "../../src/pull/staging.js";

const dir = mkdtempSync(join(tmpdir(), "evalshard-staging-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Staging: lines parked on disk by run, read back as spool bytes in the order added", () => {
  it("keeps every line's bytes through concurrent adds, chunk boundaries, lines longer than a chunk and escaped bytes", async () => {
    const staging = await Staging.open(dir);
    const runs = [0, 1, 2, 3];
    const expected = new Map<number, Buffer[]>(runs.map((r) => [r, []]));
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    // Four writers at once, as the bulk streams add: each awaits its adds, interleaving at every wait.
    await Promise.all(
      runs.map(async (run, w) => {
        for (let n = 0; n < 120; n++) {
          const size = n === 60 && w === 1 ? (1 << 20) + 4321 : Math.floor(random() * 40_000);
          // "\uDC80" is how decodeEscaped marks a byte that is not UTF-8 (0x80): it must come back as that byte.
          const line = `{"run":"r${run}","n":${n},"é":"${"x".repeat(size)}"${n % 17 === 0 ? ',"bad":"\uDC80"' : ""}}`;
          expected.get(run)?.push(encodeEscaped(line));
          await staging.add(run, line);
        }
      }),
    );
    for (const run of runs) {
      const got: Buffer[] = [];
      for await (const bytes of staging.bytes(run)) got.push(Buffer.from(bytes));
      const lines = (expected.get(run) ?? []).flatMap((line) => [line, Buffer.from("\n")]);
      expect(Buffer.concat(got).equals(Buffer.concat(lines)), `run ${run}`).toBe(true);
      expect(staging.count(run)).toBe(120);
    }
    expect(encodeEscaped('"\uDC80"')).toEqual(Buffer.from([0x22, 0x80, 0x22]));
    await staging.dispose();
  });
});
