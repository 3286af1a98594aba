import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";
import { createServiceClient, type ClientEvent } from "../../src/http/index.js";
import { everythingShown, fakeClock, reply, serve, type TestServer } from "./support.js";

// A server that echoes the credential back encoded (base64 of the header at every offset, URL-encoded,
// hex) must not make the client leak it in that form: errors, causes and events are what reach stderr,
// the manifest and logs.

const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const CANARY = "esk_CANARY/9f8e+7d6c=5b4a3210~DO_NOT_LOG";

/** The ways a server may write the Authorization header back, each given an error route. */
const ENCODINGS: Record<string, (auth: string) => string> = {
  base64: (a) => Buffer.from(a).toString("base64"),
  "base64-shift1": (a) => Buffer.from(`x${a}`).toString("base64"),
  "base64-shift2": (a) => Buffer.from(`xy${a}!`).toString("base64"),
  base64url: (a) => Buffer.from(`<${a}>`).toString("base64url"),
  url: (a) => encodeURIComponent(a),
  "url-lower": (a) => encodeURIComponent(a).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  hex: (a) => Buffer.from(a).toString("hex"),
  "hex-upper": (a) => Buffer.from(a).toString("hex").toUpperCase(),
};

/** The text and every decoding of it an attacker reading the logs could try: URL, hex and base64 runs at every offset. */
function decodings(text: string): string[] {
  const out = [text];
  for (const run of text.match(/(?:%[0-9A-Fa-f]{2}|[\w.~!*'()-])+/g) ?? []) {
    try {
      out.push(decodeURIComponent(run));
    } catch {
      // not a URL encoding
    }
  }
  for (const run of text.match(/[0-9A-Fa-f]{16,}/g) ?? []) for (const at of [0, 1]) out.push(Buffer.from(run.slice(at), "hex").toString("latin1"));
  for (const run of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []) {
    for (let at = 0; at < 4; at++) out.push(Buffer.from(run.slice(at).replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1"));
  }
  return out;
}

function expectNoPieceOf(secret: string, text: string, what: string): void {
  for (const view of decodings(text)) {
    for (let i = 0; i + 8 <= secret.length; i++) {
      const piece = secret.slice(i, i + 8);
      if (view.includes(piece)) throw new Error(`${what} shows ${JSON.stringify(piece)}, a piece of the token, encoded:\n${text.slice(0, 1_500)}`);
    }
  }
}

describe("the token never shows encoded (base64, URL, hex) when a server echoes it", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve((req, res) => {
      const auth = req.headers.authorization ?? "";
      const [, status = "400", name = ""] = /^\/(\d+)\/([\w-]+)/.exec(req.url ?? "") ?? [];
      const encoded = (ENCODINGS[name] ?? ((a: string) => a))(auth);
      const body = Number(status) % 2 === 0 ? { error: { code: "invalid_api_key", message: `rejected credential ${encoded}` } } : { detail: `no such key: ${encoded}` };
      reply(res, Number(status), body, { "retry-after": "0" });
    });
  });
  afterAll(() => server.close());

  it("the oracle finds each encoding when nothing is redacted (the test can fail)", () => {
    for (const [name, encode] of Object.entries(ENCODINGS)) {
      expect(() => expectNoPieceOf(CANARY, `said ${encode(`Bearer ${CANARY}`)} then`, name)).toThrow(/a piece of the token/);
    }
  });

  it.each(Object.keys(ENCODINGS))("%s: not in the error, its causes or the events", async (name) => {
    const events: ClientEvent[] = [];
    const c = createServiceClient({ baseUrl: server.url, auth: "agent", token: CANARY, clock: fakeClock(), retry: { maxAttempts: 2 }, onEvent: (e) => events.push(e) });
    for (const status of [401, 403, 422, 429, 503]) {
      const error = await c.getJson(`/${status}/${name}`).then(() => new Error("no error"), (e: unknown) => e);
      expect((error as Error).name).not.toBe("Error");
      const shown = await everythingShown(error);
      expect(shown).toContain("[REDACTED]");
      expectNoPieceOf(CANARY, shown, `${status} ${name}`);
    }
    expectNoPieceOf(CANARY, JSON.stringify(events), "events");
  });

  it("through the CLI: not on stderr, stdout or in any file written", async () => {
    const out = tempDir("evalshard-token-encoded-");
    for (const name of Object.keys(ENCODINGS)) {
      for (const status of [401, 403]) {
        const r = await new Promise<{ status: number | null; text: string }>((resolve) => {
          const child = spawn(process.execPath, [BIN, "pull", "sft", "--base-url", `${server.url}/${status}/${name}`, "--out", join(out, name), "--auth", "agent"], {
            env: { PATH: process.env.PATH ?? "", EVAL_API_KEY: CANARY },
          });
          let text = "";
          child.stdout.on("data", (d: Buffer) => (text += d.toString()));
          child.stderr.on("data", (d: Buffer) => (text += d.toString()));
          child.on("close", (code) => resolve({ status: code, text }));
        });
        expect(r.status, r.text).toBe(4);
        expect(r.text).toContain("[REDACTED]");
        expectNoPieceOf(CANARY, r.text, `CLI ${status} ${name}`);
      }
    }
    const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
    for (const file of files(out)) expectNoPieceOf(CANARY, readFileSync(file, "latin1"), file);
  }, 60_000);
});
