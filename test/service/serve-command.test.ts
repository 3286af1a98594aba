import { describe, expect, it } from "vitest";
import { serveCommand, type ServeIo } from "../../src/cli/serve-command.js";
import { ConfigError } from "../../src/core/errors.js";

/** Runs `serve` in-process; `stop()` plays the part of SIGTERM. */
function harness() {
  const out: string[] = [];
  const err: string[] = [];
  let stop: (signal: string) => void = () => {};
  let ready: (line: string) => void = () => {};
  const readyLine = new Promise<string>((resolve) => (ready = resolve));
  const io: ServeIo = {
    stdout: (text) => {
      out.push(text);
      ready(text);
    },
    stderr: (text) => err.push(text),
    stopped: () => new Promise((resolve) => (stop = resolve)),
  };
  return { io, out, err, readyLine, stop: (signal = "SIGTERM") => stop(signal) };
}

describe("evalshard serve", () => {
  it("prints exactly one JSON line once ready, serves, logs faults to stderr, and stops cleanly on a signal", async () => {
    const h = harness();
    const exitBefore = process.exitCode;
    const done = serveCommand(h.io).parseAsync(["--runs", "40", "--seed", "6", "--faults", "429=1"], { from: "user" });
    const line = await h.readyLine;
    expect(line.endsWith("\n")).toBe(true);
    const info = JSON.parse(line);
    expect(Object.keys(info)).toEqual(["url", "owner_token", "api_keys"]);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.api_keys.length).toBeGreaterThanOrEqual(3);
    for (const key of info.api_keys) expect(Object.keys(key)).toEqual(["api_key", "api_key_id", "scopes", "entitlements"]);
    expect(info.api_keys[0].scopes).toEqual(["play", "read:scores", "manage:runs"]);
    expect(info.api_keys[0].entitlements).toContain("rl_dpo_export");

    const res = await fetch(`${info.url}/api/agent/runs`, { headers: { authorization: `Bearer ${info.api_keys[0].api_key}` } });
    expect(res.status).toBe(429);
    await res.text();
    expect(h.err).toHaveLength(1);
    expect(JSON.parse(h.err[0] ?? "")).toMatchObject({ fault: { kind: "429", path: "/api/agent/runs" } });

    h.stop();
    await done;
    expect(process.exitCode ?? 0).toBe(0);
    process.exitCode = exitBefore;
    expect(h.out).toEqual([line]);
    await expect(fetch(`${info.url}/api/agent/runs`)).rejects.toThrow();
  });

  it("listens for the signal before it starts: a signal during start-up still closes cleanly with status 0", async () => {
    const h = harness();
    const order: string[] = [];
    const io: ServeIo = {
      ...h.io,
      stdout: (text) => {
        order.push("ready");
        h.io.stdout(text);
      },
      stopped: () => {
        order.push("listening for signals");
        return Promise.resolve("SIGINT");
      },
    };
    const exitBefore = process.exitCode;
    await serveCommand(io).parseAsync(["--runs", "10"], { from: "user" });
    expect(process.exitCode ?? 0).toBe(0);
    process.exitCode = exitBefore;
    expect(order).toEqual(["listening for signals", "ready"]);
    expect(h.out).toHaveLength(1);
    await expect(fetch(`${JSON.parse(h.out[0] ?? "").url}/api/evals`)).rejects.toThrow();
  });

  it("rejects bad flags with ConfigError before starting anything", async () => {
    for (const args of [["--port", "70000"], ["--runs", "0"], ["--seed", "-1"], ["--epoch", "x"], ["--faults", "429=3"]]) {
      const h = harness();
      await expect(serveCommand(h.io).exitOverride().parseAsync(args, { from: "user" }), args.join(" ")).rejects.toThrow(ConfigError);
      expect(h.out).toEqual([]);
    }
  });
});
