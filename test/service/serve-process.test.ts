import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServeInfo } from "../../src/service/index.js";

// `evalshard serve` as users run it: a real process from the build (`npm test` builds dist/ first).

const MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const SOURCES = [fileURLToPath(new URL("../../src/service/", import.meta.url)), fileURLToPath(new URL("../../src/cli/", import.meta.url))];

interface Served {
  readonly child: ChildProcess;
  readonly info: ServeInfo;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function launch(args: readonly string[]) {
  const child = spawn(process.execPath, [MAIN, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  return { child, exit, stdout: () => out, stderr: () => err };
}

/** Starts `serve` and resolves with its ready line, parsed. */
async function serve(args: readonly string[]): Promise<Served> {
  const p = launch(args);
  const info = await new Promise<ServeInfo>((resolve, reject) => {
    const ready = () => {
      const nl = p.stdout().indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(p.stdout().slice(0, nl)));
    };
    p.child.stdout?.on("data", ready);
    void p.exit.then((e) => reject(new Error(`serve exited (${e.code ?? e.signal}) before it was ready: ${p.stderr()}`)));
  });
  return { ...p, info };
}

async function get(url: string, token: string, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm test does; or npx tsc -p tsconfig.build.json)`);
  const built = statSync(MAIN).mtimeMs;
  const newer = SOURCES.flatMap((dir) => readdirSync(dir).map((f) => dir + f)).filter((f) => statSync(f).mtimeMs > built);
  if (newer.some((f) => f.includes("/service/") || f.endsWith("serve-command.ts"))) {
    throw new Error(`dist/ is older than ${newer.join(", ")}: rebuild (npx tsc -p tsconfig.build.json)`);
  }
});

describe("evalshard serve, as a process", () => {
  it("prints exactly one JSON line once ready, binds loopback, hands out the keys the issue names, and exits 0 on SIGINT", async () => {
    const s = await serve(["--port", "0", "--seed", "3"]);
    expect(s.stdout().endsWith("\n")).toBe(true);
    expect(s.stdout().split("\n")).toEqual([expect.any(String), ""]);
    expect(Object.keys(s.info)).toEqual(["url", "owner_token", "api_keys"]);
    expect(s.info.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    for (const key of s.info.api_keys) expect(Object.keys(key)).toEqual(["api_key", "api_key_id", "scopes", "entitlements"]);

    const [first] = s.info.api_keys;
    expect(first?.scopes).toEqual(["play", "read:scores", "manage:runs"]);
    expect(first?.entitlements).toContain("rl_dpo_export");
    expect(s.info.api_keys.some((k) => k.scopes.join() === "play")).toBe(true);
    const partner = s.info.api_keys.find((k) => k.scopes.includes("read:scores") && !k.entitlements.includes("rl_dpo_export"));
    expect(partner).toBeDefined();
    // "The first of them is seated in many runs": the agent list is full at its cap of 100.
    expect(JSON.parse((await get(`${s.info.url}/api/agent/runs`, first?.api_key ?? "")).text)).toHaveLength(100);
    // The read:scores key without rl_dpo_export: SFT yes, RL and DPO 403.
    expect((await get(`${s.info.url}/api/agent/finetuning`, partner?.api_key ?? "")).status).toBe(200);
    expect((await get(`${s.info.url}/api/agent/finetuning/rl`, partner?.api_key ?? "")).status).toBe(403);

    s.child.kill("SIGINT");
    expect(await s.exit).toEqual({ code: 0, signal: null });
    expect(s.stdout().split("\n").filter(Boolean)).toHaveLength(1);
    expect(s.stderr()).toBe("");
    await expect(fetch(`${s.info.url}/api/agent/runs`)).rejects.toThrow();
  });

  it("exits 0 on SIGTERM, at once even while injected 504s are still waiting, with nothing but fault lines on stderr", async () => {
    const s = await serve(["--faults", "504=1", "--runs", "50"]);
    const pending = Array.from({ length: 15 }, (_, i) =>
      fetch(`${s.info.url}/api/evals?n=${i}`, { headers: { authorization: `Bearer ${s.info.owner_token}` } }).then(
        (r) => r.status,
        () => "dropped",
      ),
    );
    // Each fault is logged when it is decided, before its delay: wait until all 15 are waiting.
    while (s.stderr().split("\n").filter(Boolean).length < 15) await new Promise((r) => setTimeout(r, 10));
    const signalled = performance.now();
    s.child.kill("SIGTERM");
    expect(await s.exit).toEqual({ code: 0, signal: null });
    // A 504 takes 1,000 ms to arrive: closing does not wait for them.
    expect(performance.now() - signalled).toBeLessThan(600);
    expect(new Set(await Promise.all(pending))).toEqual(new Set(["dropped"]));
    // Many delays in flight at once are normal: no warning (e.g. MaxListenersExceededWarning) on stderr.
    const lines = s.stderr().split("\n").filter(Boolean);
    expect(lines).toHaveLength(15);
    for (const line of lines) expect(JSON.parse(line).fault.kind).toBe("504");
  });

  it("rejects a bad flag with status 2, naming it, before anything is printed to stdout", async () => {
    const cases = [["--runs", "0"], ["--faults", "429=2"], ["--port", "x"]].map((args) => ({ args, p: launch(args) }));
    for (const { args, p } of cases) {
      expect((await p.exit).code, args.join(" ")).toBe(2);
      expect(p.stdout()).toBe("");
      expect(p.stderr()).toContain(args[0]?.replace("--", "") ?? "");
    }
  });

  it("--epoch N answers what N advances of POST /_emulator/advance lead to, byte for byte", async () => {
    const [later, moved] = await Promise.all([serve(["--seed", "5", "--runs", "400", "--epoch", "3"]), serve(["--seed", "5", "--runs", "400"])]);
    for (let i = 1; i <= 3; i++) {
      expect(JSON.parse((await get(`${moved.info.url}/_emulator/advance`, moved.info.owner_token, { method: "POST" })).text)).toEqual({ epoch: i });
    }
    const key = later.info.api_keys[0]?.api_key ?? "";
    expect(moved.info.api_keys[0]?.api_key).toBe(key);
    const owner = later.info.owner_token;
    const runs = JSON.parse((await get(`${later.info.url}/api/evals`, owner)).text).runs as { run_id: string }[];
    const batch = JSON.parse((await get(`${later.info.url}/api/agent/batches`, key)).text).batches[0].batch_id;
    const paths: [string, string][] = [
      ["/_emulator/state", owner],
      ["/api/evals", owner],
      ["/api/evals/finetuning?limit=500", owner],
      ["/api/evals/finetuning/rl?limit=200", owner],
      ["/api/agent/runs", key],
      ["/api/agent/finetuning?limit=200", key],
      ["/api/agent/finetuning/rl?limit=100", key],
      ["/api/agent/batches", key],
      [`/api/agent/batches/${batch}`, key],
      ...runs.slice(0, 25).flatMap((r): [string, string][] => [[`/api/evals/${r.run_id}/scorecard`, owner], [`/api/evals/${r.run_id}/coaching`, owner], [`/api/evals/${r.run_id}/transcript`, owner]]),
    ];
    for (const [path, token] of paths) {
      const [a, b] = await Promise.all([get(later.info.url + path, token), get(moved.info.url + path, token)]);
      expect(a.status, path).toBe(200);
      expect(b.text, path).toBe(a.text);
    }
    later.child.kill("SIGTERM");
    moved.child.kill("SIGTERM");
    expect([await later.exit, await moved.exit]).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);
  });
});

describe("--faults with the issue's example rates", () => {
  const SPEC = "429=0.08,502=0.05,503=0.02,504=0.02,reset=0.03,cut=0.03,partial=0.05,slow=0.01";

  interface FaultLine {
    fault: { seq: number; kind: string; method: string; path: string; aimed: boolean; at?: number; runIndex?: number };
  }

  it("injects every kind, logs each to stderr as one JSON line, and the client sees exactly what was logged", async () => {
    const s = await serve(["--seed", "1", "--runs", "400", "--faults", SPEC]);
    const key = s.info.api_keys[0]?.api_key ?? "";
    const owner = s.info.owner_token;
    const shapes: [string, string, boolean][] = [
      ["/api/agent/runs?x=", key, false],
      ["/api/agent/suites?x=", key, false],
      ["/api/agent/finetuning?limit=5&x=", key, true],
      ["/api/agent/finetuning/rl?limit=3&x=", key, true],
      ["/api/evals/finetuning?limit=8&x=", owner, true],
      ["/api/evals/finetuning/rl?limit=4&x=", owner, true],
      ["/api/api-keys?x=", owner, false],
    ];
    // A distinct (ignored) query per request, so each logged fault names exactly one request.
    const requests = Array.from({ length: 280 }, (_, i) => {
      const [path, token, ndjson] = shapes[i % shapes.length] as [string, string, boolean];
      return { path: `${path}${i}`, token, ndjson };
    });
    const outcomes = new Map<string, { status: number | "failed"; text: string; retryAfter: string | null; ms: number }>();
    await Promise.all(
      requests.map(async (r) => {
        const t0 = performance.now();
        try {
          const got = await get(s.info.url + r.path, r.token);
          outcomes.set(r.path, { status: got.status, text: got.text, retryAfter: got.headers.get("retry-after"), ms: performance.now() - t0 });
        } catch {
          outcomes.set(r.path, { status: "failed", text: "", retryAfter: null, ms: performance.now() - t0 });
        }
      }),
    );
    s.child.kill("SIGTERM");
    expect(await s.exit).toEqual({ code: 0, signal: null });

    // stderr: fault lines and nothing else, never a credential.
    const stderr = s.stderr();
    for (const secret of [owner, ...s.info.api_keys.map((k) => k.api_key), s.stdout().trim()]) expect(stderr).not.toContain(secret);
    const lines = stderr.split("\n").filter(Boolean);
    const events = lines.map((l) => JSON.parse(l) as FaultLine).map((l) => l.fault);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(new Set(events.map((e) => e.kind))).toEqual(new Set(["429", "502", "503", "504", "reset", "cut", "partial", "slow"]));

    for (const r of requests) {
      const got = outcomes.get(r.path);
      const mine = events.filter((e) => e.path === r.path);
      const kind = mine.find((e) => e.kind !== "partial")?.kind;
      const partials = mine.filter((e) => e.kind === "partial").map((e) => e.runIndex);
      const where = `${r.path}: ${JSON.stringify(mine)} -> ${got?.status}`;
      expect(mine.filter((e) => e.kind !== "partial").length, where).toBeLessThanOrEqual(1);
      switch (kind) {
        case "429":
          expect([got?.status, got?.retryAfter, JSON.parse(got?.text ?? "").error.code], where).toEqual([429, "1", "rate_limit_exceeded"]);
          break;
        case "502":
        case "503":
        case "504":
          expect(got?.status, where).toBe(Number(kind));
          if (kind === "504") expect(got?.ms, where).toBeGreaterThanOrEqual(900);
          break;
        case "reset":
          expect(got?.status, where).toBe("failed");
          break;
        case "cut":
          expect([r.ndjson, got?.status], where).toEqual([true, 200]);
          expect(got?.text.endsWith("\n"), where).toBe(false);
          expect(() => JSON.parse(got?.text.split("\n").at(-1) ?? ""), where).toThrow();
          break;
        default: {
          // slow, or no request fault: a whole answer.
          expect(got?.status, where).toBe(200);
          if (kind === "slow") expect(got?.ms, where).toBeGreaterThanOrEqual(140);
          const body = r.ndjson ? (got?.text ?? "").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [JSON.parse(got?.text ?? "")];
          if (r.ndjson) expect(got?.text.endsWith("\n"), where).toBe(true);
          const errorLines = body.filter((l) => l.error === "partial_stream").map((l) => l.run_index);
          expect(errorLines, where).toEqual(partials);
        }
      }
    }
  });
});
