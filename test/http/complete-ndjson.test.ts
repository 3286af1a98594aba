import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { completeNdjson, NotFoundError, StreamCutError, type ServiceClient } from "../../src/http/index.js";
import { drain } from "./support.js";

/** A client whose nth request answers `answers[n]`: lines, then optionally a StreamCutError. */
function scripted(answers: { lines: string[]; cut?: boolean; error?: Error }[]): Pick<ServiceClient, "getNdjson"> & { calls: number } {
  const fake = {
    calls: 0,
    getNdjson: (path: string) => {
      const answer = answers[fake.calls++] ?? { lines: [] };
      return (async function* () {
        if (answer.error !== undefined) throw answer.error;
        yield* answer.lines;
        if (answer.cut === true) throw new StreamCutError("GET", path, 1, "cut", answer.lines.length);
      })();
    },
  };
  return fake;
}

describe("completeNdjson", () => {
  it("re-requests after a cut and skips what it already handed out", async () => {
    const client = scripted([
      { lines: ["a", "b"], cut: true },
      { lines: ["a", "b", "c", "d"], cut: true },
      { lines: ["a", "b", "c", "d", "e"] },
    ]);
    expect(await drain(completeNdjson(client, "/s"))).toEqual({ items: ["a", "b", "c", "d", "e"], error: undefined });
    expect(client.calls).toBe(3);
  });

  it("copes with a stream that shifted between requests (newest first: new runs arrive at the head)", async () => {
    const client = scripted([{ lines: ["r9", "r8"], cut: true }, { lines: ["r10", "r9", "r8", "r7"] }]);
    expect((await drain(completeNdjson(client, "/s"))).items).toEqual(["r9", "r8", "r10", "r7"]);
  });

  it("counts identities, so a line occurring twice comes out twice", async () => {
    const client = scripted([{ lines: ["x", "x"], cut: true }, { lines: ["x", "x", "x", "y"] }]);
    expect((await drain(completeNdjson(client, "/s"))).items).toEqual(["x", "x", "x", "y"]);
  });

  it("skips by the caller's identity when given one", async () => {
    const v1 = JSON.stringify({ run_id: "r1", seat: 0, version: 1 });
    const v2 = JSON.stringify({ run_id: "r1", seat: 0, version: 2 });
    const other = JSON.stringify({ run_id: "r2", seat: 0, version: 1 });
    const keyOf = (line: string) => {
      const r = JSON.parse(line) as { run_id: string; seat: number };
      return `${r.run_id}/${r.seat}`;
    };
    const client = scripted([{ lines: [v1], cut: true }, { lines: [v2, other] }]);
    expect((await drain(completeNdjson(client, "/s", { keyOf }))).items).toEqual([v1, other]);
    const byBytes = scripted([{ lines: [v1], cut: true }, { lines: [v2, other] }]);
    expect((await drain(completeNdjson(byBytes, "/s"))).items).toEqual([v1, v2, other]);
  });

  it("throws the last StreamCutError after maxRestarts, and any other error at once", async () => {
    const cuts = scripted([{ lines: ["a"], cut: true }, { lines: ["a", "b"], cut: true }, { lines: ["a", "b", "c"], cut: true }]);
    const got = await drain(completeNdjson(cuts, "/s", { maxRestarts: 1 }));
    expect(got.items).toEqual(["a", "b"]);
    expect(got.error).toMatchObject({ name: "StreamCutError", linesDelivered: 2 });
    const notFound = new NotFoundError({ status: 404, code: "not_found", method: "GET", path: "/s", attempts: 1, serverMessage: "", detail: undefined });
    const other = scripted([{ lines: ["a"], cut: true }, { lines: [], error: notFound }]);
    expect((await drain(completeNdjson(other, "/s"))).error).toBe(notFound);
    await expect(completeNdjson(cuts, "/s", { maxRestarts: -1 }).next()).rejects.toThrow(ConfigError);
  });
});
