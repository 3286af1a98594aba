import { describe, expect, it } from "vitest";
import { createServiceClient, type ClientEvent } from "../../src/http/index.js";
import { fakeClock, reply, serve } from "./support.js";

// A slow GET gets a second copy (a hedge), bounded so a slow service is not hammered: at most
// `concurrency` copies in flight beyond the `concurrency` requests, at most about one attempt in ten.

const TOKEN = "esk_hedges_test_token_0123456789";

/** A server whose first request to each `/slow/` path is held `holdMs` (or for ever) while every other request is answered at once; it counts requests in flight. */
async function slowServer(holdMs: number) {
  const counts = new Map<string, number>();
  const flight = { now: 0, max: 0 };
  const server = await serve((req, res) => {
    const url = req.url ?? "";
    const n = (counts.get(url) ?? 0) + 1;
    counts.set(url, n);
    flight.now++;
    flight.max = Math.max(flight.max, flight.now);
    let open = true;
    res.once("close", () => {
      if (open) flight.now--;
      open = false;
    });
    const answer = () => !res.destroyed && reply(res, 200, { url, copy: n });
    if (url.startsWith("/slow/") && n === 1) {
      if (Number.isFinite(holdMs)) setTimeout(answer, holdMs);
    } else answer();
  });
  return { server, flight, counts };
}

function client(url: string, hedge: boolean, events: ClientEvent[]) {
  return createServiceClient({ baseUrl: url, auth: "owner", token: TOKEN, clock: fakeClock(), concurrency: 2, hedge, onEvent: (e) => events.push(e) });
}

describe("hedged GETs", () => {
  it("answers that never come are hedged: the copies answer, the held requests are aborted, at most twice `concurrency` in flight", async () => {
    const { server, flight } = await slowServer(Infinity);
    const events: ClientEvent[] = [];
    const c = client(server.url, true, events);
    try {
      for (let i = 0; i < 40; i++) await c.getJson(`/fast/${i}`);
      // On a loaded machine a warm-up answer may come late enough to be hedged itself: count from here.
      const warmUp = events.length;
      // Both slots held by answers that never come, and more calls queued behind them.
      const calls = ["/slow/0", "/slow/1", "/fast/a", "/fast/b"].map((path) => c.getJson<{ url: string; copy: number }>(path));
      expect((await Promise.all(calls)).map((b) => `${b.url} ${b.copy}`)).toEqual(["/slow/0 2", "/slow/1 2", "/fast/a 1", "/fast/b 1"]);
      expect(events.slice(warmUp).map((e) => e.type)).toEqual(["hedge", "hedge"]);
      expect(flight.max).toBeLessThanOrEqual(4);
      // The held first copies were aborted once their hedges answered.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(flight.now).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("hedges are rationed: a run of slow answers gets no more than one copy per ten attempts", async () => {
    const { server, counts } = await slowServer(200);
    const events: ClientEvent[] = [];
    const c = client(server.url, true, events);
    try {
      for (let i = 0; i < 20; i++) await c.getJson(`/fast/${i}`);
      for (let i = 0; i < 20; i++) await c.getJson(`/slow/${i}`);
      const hedges = events.filter((e) => e.type === "hedge").length;
      const attempts = [...counts.values()].reduce((a, b) => a + b, 0);
      expect(hedges).toBeGreaterThan(0);
      expect(hedges).toBeLessThanOrEqual(attempts / 10);
      // Unhedged slow answers were waited for, not abandoned: every call answered from one copy or two.
      expect([...counts.entries()].filter(([url]) => url.startsWith("/slow/")).every(([, n]) => n === 1 || n === 2)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("an NDJSON answer whose headers never come is hedged too", async () => {
    const { server, flight } = await slowServer(Infinity);
    const events: ClientEvent[] = [];
    const c = client(server.url, true, events);
    const lines = async (path: string) => {
      const out: string[] = [];
      for await (const line of c.getNdjson(path)) out.push(line);
      return out;
    };
    try {
      for (let i = 0; i < 20; i++) await lines(`/fast/${i}`);
      expect(await lines("/slow/0")).toEqual(['{"url":"/slow/0","copy":2}']);
      expect(events.map((e) => e.type)).toEqual(["hedge"]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(flight.now).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("`hedge: false` sends no copy: a slow answer is waited for", async () => {
    const { server, counts } = await slowServer(200);
    const events: ClientEvent[] = [];
    const c = client(server.url, false, events);
    try {
      for (let i = 0; i < 20; i++) await c.getJson(`/fast/${i}`);
      expect(await c.getJson(`/slow/0`)).toEqual({ url: "/slow/0", copy: 1 });
      expect(events).toEqual([]);
      expect(counts.get("/slow/0")).toBe(1);
    } finally {
      await server.close();
    }
  });
});
