import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeEscaped, encodeEscaped } from "../../src/sources/escaped-utf8.js";
import { rewritingProxy } from "../helpers/rewriting-proxy.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { emulator } from "./support.js";

// Issue 20: invalid UTF-8 was replaced by U+FFFD silently. Files have been quarantined as `invalid_utf8` since;
// on the pull path the HTTP client decoded lines to strings first, so the bytes were lost before any engine saw
// them. A raw proxy in front of the bundled emulator breaks one byte of one SFT record on the wire.
const root = tempDir("evalshard-pull-utf8-");

/** Forwards to `upstream`; in the owner SFT bulk stream, the first record of a scored run has its first `"role":"` its value's first byte replaced by 0xFF. */
async function breakingProxy(upstream: string): Promise<{ url: string; broken: () => number }> {
  let broken = 0;
  const url = await rewritingProxy(upstream, (path, body) => {
    // A record of a scored run (the pull leaves the others out before any engine reads them).
    const scored = body.indexOf('"scored":true');
    const lineStart = scored === -1 ? -1 : body.lastIndexOf(0x0a, scored) + 1;
    const at = lineStart === -1 ? -1 : body.indexOf('"role":"', lineStart);
    if (path.startsWith("/api/evals/finetuning?") && broken === 0 && at !== -1) {
      body[at + 8] = 0xff;
      broken++;
    }
    return body;
  });
  return { url, broken: () => broken };
}

describe("invalid UTF-8 on the pull path", () => {
  it("bytes that are not UTF-8 survive the pull's strings (decodeEscaped, encodeEscaped), whatever the bytes (round trip)", () => {
    for (let n = 0; n < 2000; n++) {
      const bytes = Buffer.from(Array.from({ length: 1 + (n % 23) }, (_, i) => (n * 131 + i * 71 + (i % 3) * 97) & 0xff));
      expect(encodeEscaped(decodeEscaped(bytes)).equals(bytes)).toBe(true);
    }
    const text = "ok \u{1F600} é \uFFFD";
    expect(decodeEscaped(Buffer.from(text))).toBe(text);
    expect(encodeEscaped(text).equals(Buffer.from(text))).toBe(true);
  });

  it("a record with a byte that is not UTF-8 is quarantined as invalid_utf8, the byte named; every other record published", { timeout: 180_000 }, async () => {
    const emu = await emulator({ seed: 41, runs: 12 });
    const proxy = await breakingProxy(emu.url);
    const out = join(root, "pulled");
    const r = await runCli(["pull", "sft", "--base-url", proxy.url, "--out", out, "--json", "--seats", "all"], { env: { EVAL_OWNER_TOKEN: emu.ownerToken } });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.broken()).toBe(1);
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { records_in: number; records_out: number; quarantined: Record<string, number>; quarantine: { path: string } };
    expect(manifest.quarantined).toEqual({ invalid_utf8: 1 });
    expect(manifest.records_out).toBeGreaterThan(0);
    const [entry, ...more] = readFileSync(join(out, manifest.quarantine.path), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { reason: string; detail: string; raw: string });
    expect(more).toEqual([]);
    expect(entry?.reason).toBe("invalid_utf8");
    expect(entry?.detail).toMatch(/not UTF-8 from byte \d+/);
  });
});
