import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { sftRecord } from "../../src/formats/sft.js";
import { streamErrorLine } from "../../src/formats/stream-error.js";
import { parseFaultSpec, startEmulator, type FaultEvent, type RunningEmulator } from "../../src/service/index.js";
import { PYTHON, RUN_AND_EXIT } from "../helpers/python.js";
import { call, emulator, errorCode, keysOf, ndjsonLines } from "./support.js";

describe("parseFaultSpec", () => {
  it("reads the rates of the issue's example", () => {
    expect(parseFaultSpec("429=0.08,502=0.05,503=0.02,504=0.02,reset=0.03,cut=0.03,partial=0.05,slow=0.01")).toEqual({
      "429": 0.08, "502": 0.05, "503": 0.02, "504": 0.02, reset: 0.03, cut: 0.03, partial: 0.05, slow: 0.01,
    });
    expect(parseFaultSpec("")).toEqual({});
    expect(parseFaultSpec(" 429 = 0.5 , partial=1")).toEqual({ "429": 0.5, partial: 1 });
  });

  it("throws ConfigError naming the bad part", () => {
    const cases: [string, string][] = [
      ["429", '"429"'],
      ["teapot=0.1", '"teapot"'],
      ["429=1.5", '"1.5"'],
      ["429=abc", '"abc"'],
      ["502=0.1,502=0.2", "502 is given twice"],
      ["429=0.6,reset=0.6", "add up to 1.2"],
      ["429=0.1,,502=0.1", '""'],
    ];
    for (const [spec, named] of cases) {
      expect(() => parseFaultSpec(spec), spec).toThrow(ConfigError);
      expect(() => parseFaultSpec(spec), spec).toThrow(named);
    }
  });

  it("startEmulator rejects bad rates and bad options with ConfigError", async () => {
    await expect(startEmulator({ faults: "nope=1" })).rejects.toThrow(ConfigError);
    await expect(startEmulator({ faults: { "429": 2 } })).rejects.toThrow(ConfigError);
    await expect(startEmulator({ runs: 0 })).rejects.toThrow("runs");
  });
});

describe("aimed faults", () => {
  let emu: RunningEmulator;
  let keys: ReturnType<typeof keysOf>;
  const heard: FaultEvent[] = [];

  beforeAll(async () => {
    emu = await emulator({ seed: 3, timing: { gatewayTimeoutMs: 150, slowDelayMs: 20, retryAfterSeconds: 2 }, onFault: (e) => heard.push(e) });
    keys = keysOf(emu);
  });
  afterAll(() => emu.close());

  it("429 carries Retry-After and rate_limit_exceeded; only the aimed request is hit; it is logged", async () => {
    emu.aimFault({ kind: "429", path: "/api/agent/runs" });
    const hit = await call(emu, "/api/agent/runs", keys.primary);
    expect([hit.status, errorCode(hit)]).toEqual([429, "rate_limit_exceeded"]);
    expect(hit.headers.get("retry-after")).toBe("2");
    expect((await call(emu, "/api/agent/runs", keys.primary)).status).toBe(200);
    expect(emu.faultLog.at(-1)).toMatchObject({ kind: "429", method: "GET", path: "/api/agent/runs", aimed: true });
    expect(heard.at(-1)).toEqual(emu.faultLog.at(-1));
  });

  it("502, 503 and 504 (the last after the configured delay)", async () => {
    for (const [kind, code] of [["502", "bad_gateway"], ["503", "service_unavailable"], ["504", "gateway_timeout"]] as const) {
      emu.aimFault({ kind, path: /^\/api\/agent\/suites/ });
      const started = performance.now();
      const got = await call(emu, "/api/agent/suites", keys.primary);
      expect([got.status, errorCode(got)]).toEqual([Number(kind), code]);
      if (kind === "504") expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    }
  });

  it("reset breaks the connection in the middle of a JSON body and of a stream", async () => {
    emu.aimFault({ kind: "reset", path: "/api/evals" });
    await expect(fetch(`${emu.url}/api/evals`, { headers: { authorization: `Bearer ${keys.owner}` } }).then((r) => r.text())).rejects.toThrow();
    emu.aimFault({ kind: "reset", path: "/api/agent/finetuning", at: 3 });
    await expect(fetch(`${emu.url}/api/agent/finetuning`, { headers: { authorization: `Bearer ${keys.primary}` } }).then((r) => r.text())).rejects.toThrow();
    expect(emu.faultLog.at(-1)).toMatchObject({ kind: "reset", at: 3 });
    expect((await call(emu, "/api/evals", keys.owner)).status).toBe(200);
  });

  it("reset is a TCP reset (ECONNRESET) after the headers and part of the body, also on an empty stream", async () => {
    const fresh = (await call(emu, "/api/api-keys", keys.owner, { method: "POST", body: JSON.stringify({ name: "empty", scopes: ["read:scores"] }) })).json().api_key;
    const cases: [string, string, RegExp][] = [
      ["/api/agent/suites", keys.primary, /\r\n\r\n\{"suites":\[/],
      ["/api/agent/finetuning?limit=5", keys.primary, /\r\n\r\n[0-9a-f]+\r\n\{"format_version":"1\.1"/],
      ["/api/agent/finetuning", fresh, /^HTTP\/1\.1 200 OK\r\n/],
    ];
    for (const [path, token, seen] of cases) {
      emu.aimFault({ kind: "reset", path: path.split("?")[0] ?? path, at: 2 });
      const { received, error } = await rawGet(emu.url, path, token);
      expect(received, path).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(received, path).toMatch(seen);
      expect(error, path).toBe("ECONNRESET");
    }
  });

  it("cut ends an NDJSON stream cleanly in the middle of a line", async () => {
    const whole = (await call(emu, "/api/agent/finetuning?limit=10", keys.primary)).text;
    emu.aimFault({ kind: "cut", path: "/api/agent/finetuning", at: 4 });
    const got = await call(emu, "/api/agent/finetuning?limit=10", keys.primary);
    expect(got.status).toBe(200);
    expect(got.text.endsWith("\n")).toBe(false);
    const lines = got.text.split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines.slice(0, 4)) expect(sftRecord.safeParse(JSON.parse(line)).success).toBe(true);
    expect(() => JSON.parse(lines[4] ?? "")).toThrow();
    expect(whole.startsWith(got.text)).toBe(true);
  });

  it("partial replaces one run of an owner bulk stream with a partial_stream line and goes on", async () => {
    const whole = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=6", keys.owner)).text);
    emu.aimFault({ kind: "partial", path: "/api/evals/finetuning", at: 2 });
    const lines = ndjsonLines((await call(emu, "/api/evals/finetuning?limit=6", keys.owner)).text);
    const errors = lines.filter((l) => "error" in l);
    expect(errors).toEqual([{ error: "partial_stream", run_index: 2 }]);
    expect(streamErrorLine.parse(errors[0])).toEqual(errors[0]);
    const runIds = [...new Set(whole.map((r) => r.run_id))];
    expect(lines.filter((l) => !("error" in l))).toEqual(whole.filter((r) => r.run_id !== runIds[2]));
    expect(emu.faultLog.at(-1)).toMatchObject({ kind: "partial", runIndex: 2, aimed: true });
  });

  it("slow trickles a body out but keeps it whole", async () => {
    const whole = (await call(emu, "/api/agent/batches", keys.primary)).text;
    emu.aimFault({ kind: "slow", path: "/api/agent/batches" });
    const started = performance.now();
    const got = await call(emu, "/api/agent/batches", keys.primary);
    expect(performance.now() - started).toBeGreaterThanOrEqual(16 * 20 - 20);
    expect(got.text).toBe(whole);
    emu.aimFault({ kind: "slow", path: "/api/evals/finetuning" });
    const stream = await call(emu, "/api/evals/finetuning?limit=20", keys.owner);
    expect(stream.text).toBe((await call(emu, "/api/evals/finetuning?limit=20", keys.owner)).text);
  });

  it("a method filter and times are honoured", async () => {
    emu.aimFault({ kind: "503", path: "/api/api-keys", method: "POST", times: 2 });
    expect((await call(emu, "/api/api-keys", keys.owner)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await call(emu, "/api/api-keys", keys.owner, { method: "POST", body: '{"name":"x"}' })).status).toBe(503);
    expect((await call(emu, "/api/api-keys", keys.owner, { method: "POST", body: '{"name":"x"}' })).status).toBe(201);
  });
});

describe("seeded random faults", () => {
  it("hit every /api route at the given rates but never the emulator's control routes", async () => {
    const emu = await emulator({ faults: "429=1" });
    expect((await call(emu, "/api/agent/runs", keysOf(emu).primary)).status).toBe(429);
    expect((await call(emu, "/api/evals", emu.ownerToken)).status).toBe(429);
    expect((await call(emu, "/_emulator/state", emu.ownerToken)).status).toBe(200);
    await emu.close();
  });

  it("cut applies to NDJSON streams only", async () => {
    const emu = await emulator({ faults: "cut=1" });
    const list = await call(emu, "/api/agent/runs", keysOf(emu).primary);
    expect(list.status).toBe(200);
    expect(() => list.json()).not.toThrow();
    const stream = await call(emu, "/api/agent/finetuning", keysOf(emu).primary);
    expect(stream.text.endsWith("\n")).toBe(false);
    expect(emu.faultLog.map((e) => e.kind)).toEqual(["cut"]);
    await emu.close();
  });

  it("draws each kind in proportion, and logs exactly what it injected", async () => {
    const emu = await emulator({ seed: 9, faults: "429=0.2,502=0.15,503=0.15,504=0.1,partial=0.2", timing: { gatewayTimeoutMs: 1 } });
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await call(emu, "/api/agent/suites", keysOf(emu).primary)).status);
    const count = (s: number) => statuses.filter((x) => x === s).length;
    for (const s of [200, 429, 502, 503, 504]) expect(count(s), String(s)).toBeGreaterThan(5);
    for (const s of [429, 502, 503, 504]) expect(emu.faultLog.filter((e) => e.kind === String(s)).length).toBe(count(s));

    const before = emu.faultLog.length;
    let errorLines = 0;
    for (let i = 0; i < 5; i++) {
      const got = await call(emu, "/api/evals/finetuning?limit=20", emu.ownerToken);
      if (got.status === 200) errorLines += ndjsonLines(got.text).filter((l) => l.error === "partial_stream").length;
    }
    const partials = emu.faultLog.slice(before).filter((e) => e.kind === "partial").length;
    expect(errorLines).toBeGreaterThan(0);
    expect(partials).toBe(errorLines);
    await emu.close();
  });

  it("reset and slow are drawn too", async () => {
    const reset = await emulator({ faults: "reset=1" });
    await expect(fetch(`${reset.url}/api/agent/suites`, { headers: { authorization: `Bearer ${keysOf(reset).primary}` } }).then((r) => r.text())).rejects.toThrow();
    expect(reset.faultLog.map((e) => e.kind)).toEqual(["reset"]);
    await reset.close();
    const slow = await emulator({ faults: "slow=1", timing: { slowDelayMs: 1 } });
    const got = await call(slow, "/api/agent/suites", keysOf(slow).primary);
    expect(got.json().suites).toHaveLength(2);
    expect(slow.faultLog.map((e) => e.kind)).toEqual(["slow"]);
    await slow.close();
  });

  it("seats leaves a per-run answer one seat short, well formed, and touches no other route", async () => {
    const seats = await emulator({ faults: "seats=1" });
    const { runs } = (await call(seats, "/api/evals", seats.ownerToken)).json() as { runs: { run_id: string; status: string }[] };
    const done = runs.find((r) => r.status === "completed") as { run_id: string };
    const plan = (await call(seats, `/api/evals/${done.run_id}/scorecard`, seats.ownerToken)).json() as { manifest: { seat_snapshots: unknown[] } };
    const answer = (await call(seats, `/api/evals/${done.run_id}/finetuning`, seats.ownerToken)).json() as { records: unknown[] };
    expect(answer.records).toHaveLength(plan.manifest.seat_snapshots.length - 1);
    expect(seats.faultLog.map((e) => e.kind)).toEqual(["seats"]);
    expect(parseFaultSpec("seats=0.2,429=0.9")).toEqual({ seats: 0.2, "429": 0.9 });
    await seats.close();
  });

  it("injects nothing without a fault spec", async () => {
    const emu = await emulator();
    for (let i = 0; i < 20; i++) expect((await call(emu, "/api/evals/finetuning?limit=5", emu.ownerToken)).status).toBe(200);
    expect(emu.faultLog).toEqual([]);
    await emu.close();
  });
});

/**
 * A GET over a bare blocking socket in Python (already a test prerequisite), an independent client that
 * reports a TCP reset as such: Node's own sockets may report a reset that arrives with the data as a
 * plain end. Resolves with everything received and how the connection ended: "ECONNRESET" or "end".
 */
function rawGet(base: string, path: string, token: string): Promise<{ received: string; error: string }> {
  const { hostname, port } = new URL(base);
  const script = [
    "import socket, sys",
    "s = socket.create_connection((sys.argv[1], int(sys.argv[2])))",
    "s.sendall(('GET %s HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer %s\\r\\nConnection: close\\r\\n\\r\\n' % (sys.argv[3], sys.argv[4])).encode())",
    "got = b''",
    "try:",
    "    while True:",
    "        d = s.recv(65536)",
    "        if not d: end = 'end'; break",
    "        got += d",
    "except ConnectionResetError: end = 'ECONNRESET'",
    "sys.stdout.write(end + '\\n' + got.decode('utf-8', 'replace'))",
  ].join("\n");
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [RUN_AND_EXIT, "-c", script, hostname, port, path, token], (error, stdout) => {
      if (error !== null) return reject(error);
      const nl = stdout.indexOf("\n");
      resolve({ error: stdout.slice(0, nl), received: stdout.slice(nl + 1) });
    });
  });
}
