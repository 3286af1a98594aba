import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minFragment } from "../../src/core/secret-forms.js";
import { startEmulator, type RunningEmulator } from "../../src/service/index.js";
import { tokenEcho } from "../../src/service/token-echo.js";
import { runCli } from "../helpers/run-cli.js";
import { leakedPiece } from "../helpers/secret-encodings.js";
import { tempDir } from "../helpers/temp-dir.js";

// The emulator's `echo` (a 401 quoting the token) and `echo_line` (an export's `{"error": …}` line quoting it)
// faults write the caller's token verbatim, base64 wrapped with \n and \r\n, base64url, percent-encoded, hex,
// doubly \u-escaped, as HTML entities and as a piece. Nothing the CLI writes may show any of it.

const root = tempDir("evalshard-token-echo-");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function expectNoLeak(secret: string, text: string, what: string): void {
  const piece = leakedPiece(secret, text, minFragment(secret.length));
  if (piece !== null) throw new Error(`${what} shows ${JSON.stringify(piece)}, a piece of the token:\n${text.slice(0, 3_000)}`);
}

describe("a token the service echoes is never written, in any encoding", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ seed: 7, runs: 12 });
  });
  afterAll(() => emu.close());

  it("the oracle finds every encoding of the echo (the test can fail)", () => {
    const token = emu.ownerToken;
    const echo = tokenEcho(`Bearer ${token}`);
    for (const line of echo.split(/\n(?=[a-z0-9]+ )/)) expect(leakedPiece(token, line, minFragment(token.length)), line).not.toBeNull();
    expect(leakedPiece(token, JSON.stringify({ error: echo }), minFragment(token.length))).not.toBeNull();
  });

  it("an error body that echoes the token: not on stderr, stdout or in any file (owner token and API key)", { timeout: 120_000 }, async () => {
    const cases = [
      { name: "owner", token: emu.ownerToken, path: "/api/evals/finetuning", env: "EVAL_OWNER_TOKEN", flags: [] as string[] },
      { name: "agent", token: emu.apiKeys[0]?.api_key ?? "", path: "/api/agent/finetuning", env: "EVAL_API_KEY", flags: ["--auth", "agent"] },
    ];
    for (const c of cases) {
      emu.aimFault({ kind: "echo", path: /\/api\//, times: 1 });
      const out = join(root, `error-body-${c.name}`);
      const r = await runCli(["pull", "sft", "--base-url", emu.url, "--out", out, "--json", ...c.flags], { env: { [c.env]: c.token }, replaceEnv: true });
      expect(r.code, r.stderr).toBe(4);
      // The echo reached the message (redacted), so the check below looks at text that held the token.
      expect(r.stderr).toContain("[REDACTED]");
      expectNoLeak(c.token, r.stderr, `${c.name} stderr`);
      expectNoLeak(c.token, r.stdout, `${c.name} stdout`);
      for (const file of filesUnder(root)) expectNoLeak(c.token, readFileSync(file, "latin1"), file);
    }
  });

  it("an export's {\"error\": …} line that echoes the token: quarantined, but redacted, and in no other file", { timeout: 120_000 }, async () => {
    const token = emu.ownerToken;
    emu.aimFault({ kind: "echo_line", path: "/api/evals/finetuning", times: 1, at: 2 });
    const out = join(root, "error-line");
    const r = await runCli(["pull", "sft", "--base-url", emu.url, "--out", out, "--json", "--to", "jsonl", "--compression", "none", "--publish-anyway"], {
      env: { EVAL_OWNER_TOKEN: token },
      replaceEnv: true,
    });
    expect([0, 3], r.stderr).toContain(r.code);
    const files = filesUnder(out);
    const quarantine = files.filter((f) => f.includes("_quarantine") && f.endsWith(".ndjson"));
    const entries = quarantine.flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { reason: string; raw: string; detail: string }));
    const echoed = entries.filter((e) => e.reason === "service_error_line");
    expect(echoed.length, JSON.stringify(entries)).toBeGreaterThan(0);
    for (const entry of echoed) expect(entry.raw).toContain("[REDACTED]");
    expect(files.some((f) => /\.jsonl$/.test(f))).toBe(true);
    for (const file of files) expectNoLeak(token, readFileSync(file, "latin1"), file);
    expectNoLeak(token, r.stderr, "stderr");
    expectNoLeak(token, r.stdout, "stdout");
  });

  it("convert of an export file whose error line echoes a key in the environment: the quarantine holds no trace", { timeout: 60_000 }, async () => {
    const key = "esk_live_9Qz7Xc2Vb8Nm4Lk6Jh1Gf5Ds3Aa0";
    const input = join(root, "echo.ndjson");
    const record = readFileSync(new URL("../../fixtures/records/sft-valid.ndjson", import.meta.url), "utf8").split("\n")[0] ?? "";
    writeFileSync(input, `${record}\n${JSON.stringify({ error: tokenEcho(`Bearer ${key}`) })}\n`);
    const out = join(root, "converted");
    const r = await runCli(["convert", input, "--out", out, "--to", "jsonl", "--compression", "none", "--publish-anyway"], { env: { EVAL_API_KEY: key }, replaceEnv: true });
    expect([0, 3], r.stderr).toContain(r.code);
    const quarantine = filesUnder(out).filter((f) => f.includes("_quarantine"));
    expect(quarantine.length).toBeGreaterThan(0);
    expect(quarantine.map((f) => readFileSync(f, "utf8")).join("")).toContain("[REDACTED]");
    for (const file of filesUnder(out)) expectNoLeak(key, readFileSync(file, "latin1"), file);
    expectNoLeak(key, r.stderr + r.stdout, "output");
  });
});
