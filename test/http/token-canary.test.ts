import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthError, createServiceClient, type ClientEvent, type ServiceClient } from "../../src/http/index.js";
import { startEmulator, type RunningEmulator } from "../../src/service/index.js";
import { drain, everythingShown, fakeClock, reply, serve, type TestServer } from "./support.js";

const CANARY = "esk_CANARY_9f8e7d6c5b4a3210_DO_NOT_LOG";

/** Fails when the text holds the secret or any 8-character piece of it (a truncated echo included). */
function expectNoPieceOf(secret: string, text: string, what: string): void {
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8);
    if (text.includes(piece)) throw new Error(`${what} shows ${JSON.stringify(piece)}, a piece of the token:\n${text.slice(0, 2_000)}`);
  }
}

/** A server that echoes the Authorization header wherever it can. */
async function hostileServer(): Promise<TestServer> {
  return serve((req, res) => {
    const auth = req.headers.authorization ?? "";
    const [, route = ""] = /^\/([^/?]+)/.exec(req.url ?? "") ?? [];
    const status = Number(route);
    if (Number.isInteger(status) && status >= 400) {
      const body = status % 2 === 0 ? { error: { code: `code_${auth}`, message: `rejected ${auth}` }, detail: `detail ${auth}` } : { detail: `${"x".repeat(290)}${auth}` };
      return reply(res, status, body, { "retry-after": "1", "x-echo": auth.replace(/[^\x21-\x7e]/g, "") });
    }
    if (route === "html") return reply(res, 502, `<html>upstream said ${auth}</html>`);
    if (route === "reset") return req.socket.destroy();
    if (route === "hang") return;
    if (route === "redirect") {
      res.writeHead(302, { location: `/landing?token=${encodeURIComponent(auth)}` });
      return res.end(auth);
    }
    if (!["stream-cut", "json-cut", "stream-reset"].includes(route)) return reply(res, 404, { error: { code: "not_found", message: `no ${req.url} for ${auth}` } });
    res.writeHead(200, { "content-type": route === "json-cut" ? "application/json" : "application/x-ndjson" });
    const text = `{"line":1}\n{"line":2}\n{"echo":"${auth}"}\n`;
    if (route === "stream-reset") return res.write(text.slice(0, -5), () => req.socket.destroy());
    res.end(text.slice(0, -5));
  });
}

describe("the token never shows: errors, events, the client itself", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await hostileServer();
  });
  afterAll(() => server.close());

  it("whatever a hostile server echoes, on every failure path", async () => {
    const events: ClientEvent[] = [];
    const c = createServiceClient({ baseUrl: server.url, auth: "agent", token: CANARY, clock: fakeClock(), timeoutMs: 30, retry: { maxAttempts: 2 }, onEvent: (e) => events.push(e) });
    const errors: unknown[] = [];
    const paths = ["/400", "/401", "/403", "/404", "/409", "/422", "/429", "/500", "/501", "/502", "/503", "/504", "/html", "/reset", "/hang", "/redirect", "/json-cut", `/echo/${CANARY}`];
    for (const path of paths) errors.push(await c.getJson(path, { api_key: CANARY, other: CANARY }).then(() => "no error", (e: unknown) => e));
    for (const path of ["/stream-cut", "/stream-reset", "/403"]) errors.push((await drain(c.getNdjson(path))).error);
    errors.push(await c.request("POST", "/502", { body: { token: "not it" } }).catch((e: unknown) => e));

    expect(errors.every((e) => e instanceof Error)).toBe(true);
    expect(errors.map((e) => (e as Error).name)).toContain("StreamCutError");
    for (const error of errors) expectNoPieceOf(CANARY, await everythingShown(error), (error as Error).name);
    expect(events.length).toBeGreaterThan(10);
    expectNoPieceOf(CANARY, JSON.stringify(events), "events");
    // The server did receive it, as a bearer header: the test is not vacuous.
    expect(server.seen.every((s) => s.authorization === `Bearer ${CANARY}`)).toBe(true);
  });

  it("not in the client's JSON, string or inspect output", () => {
    const c: ServiceClient = createServiceClient({ baseUrl: server.url, auth: "owner", token: CANARY });
    for (const shown of [JSON.stringify(c), String(c), `${c}`, inspect(c, { showHidden: true, depth: 9 }), JSON.stringify(Object.entries(c))]) {
      expectNoPieceOf(CANARY, shown, "client");
    }
    expect(JSON.stringify(c)).toBe(JSON.stringify({ baseUrl: server.url, auth: "owner", tokenSource: "EVAL_OWNER_TOKEN" }));
  });
});

describe("against the emulator", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ seed: 5, runs: 30, timing: { gatewayTimeoutMs: 1, slowDelayMs: 1 } });
  });
  afterAll(() => emu.close());

  it("an unknown key fails with AuthError and no trace of it", async () => {
    const error = await createServiceClient({ baseUrl: emu.url, auth: "agent", token: CANARY }).getJson("/api/agent/runs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expectNoPieceOf(CANARY, await everythingShown(error), "AuthError");
  });

  it("a real key through every injected fault: no trace in events or errors", async () => {
    const key = emu.apiKeys[0]?.api_key ?? "";
    const events: ClientEvent[] = [];
    const c = createServiceClient({ baseUrl: emu.url, auth: "agent", token: key, clock: fakeClock(), retry: { maxAttempts: 2 }, onEvent: (e) => events.push(e) });
    const errors: unknown[] = [];
    for (const kind of ["429", "502", "503", "504", "reset", "cut", "slow"] as const) {
      emu.aimFault({ kind, path: "/api/agent/finetuning", times: 2, at: 1 });
      errors.push((await drain(c.getNdjson("/api/agent/finetuning", { limit: 5 }))).error);
    }
    expect(errors.filter((e) => e !== undefined).length).toBeGreaterThanOrEqual(5);
    expect(events.length).toBeGreaterThanOrEqual(5);
    for (const error of errors) expectNoPieceOf(key, await everythingShown(error), "error");
    expectNoPieceOf(key, JSON.stringify(events), "events");
  });
});
