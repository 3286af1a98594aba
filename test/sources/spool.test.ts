import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { spool } from "../../src/sources/spool.js";

const tmp = mkdtempSync(join(tmpdir(), "evalshard-spool-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const pieces = Array.from({ length: 50 }, (_, i) => Buffer.from(`piece ${i}\n`));
const all = Buffer.concat(pieces);

describe("each chunk is in the spool file before it is handed on", () => {
  it("writes as it goes, so memory holds one chunk at a time", async () => {
    const dir = mkdtempSync(join(tmp, "dir-"));
    const spooled = spool(Readable.from(pieces), dir);
    let seen = 0;
    for await (const chunk of spooled.chunks) {
      seen += chunk.length;
      const [name] = readdirSync(dir);
      expect(readFileSync(join(dir, name as string))).toEqual(all.subarray(0, seen));
    }
    const file = await spooled.done;
    expect(file).toEqual({ path: join(dir, readdirSync(dir)[0] as string), bytes: all.length, sha256: expect.any(String) });
    expect(readFileSync(file.path)).toEqual(all);
  });
});

describe("the whole stream is spooled even when its reader stops early", () => {
  it("copies the rest in the background", async () => {
    const spooled = spool(Readable.from(pieces), tmp);
    for await (const _ of spooled.chunks) break;
    expect(readFileSync((await spooled.done).path)).toEqual(all);
  });

  it("copies the rest when the reader fails", async () => {
    const spooled = spool(Readable.from(pieces), tmp);
    await expect(
      (async () => {
        for await (const _ of spooled.chunks) throw new Error("reader failed");
      })(),
    ).rejects.toThrow("reader failed");
    expect(readFileSync((await spooled.done).path)).toEqual(all);
  });
});

describe("a failing stream rejects done", () => {
  it("rejects with the stream's error", async () => {
    const input = new PassThrough();
    const spooled = spool(input, tmp);
    input.write("a\n");
    setTimeout(() => input.destroy(new Error("gone")), 10);
    const readAll = async (): Promise<void> => {
      for await (const _ of spooled.chunks);
    };
    await expect(readAll()).rejects.toThrow("gone");
    await expect(spooled.done).rejects.toThrow("gone");
  });
});
