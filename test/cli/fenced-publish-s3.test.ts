import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convert } from "../../src/jobs/convert.js";
import { verify } from "../../src/jobs/verify.js";
import { LOCK_PATH } from "../../src/output/object-lease-lock.js";
import { S3Storage } from "../../src/output/s3-storage.js";
import { KILL_AT_STEP, STOP_AT_STEP } from "../../src/output/with-step-signals.js";
import { readText } from "../../src/output/write-text.js";
import { sftRecord } from "../helpers/records.js";
import { runCli } from "../helpers/run-cli.js";
import { s3rverCliEnv, startS3rver, useS3rverEnvironment } from "../helpers/s3rver.js";
import type { S3Server } from "../helpers/s3rver.js";
import { startCli } from "../helpers/stalled-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 40, items 1 and 10 on object storage: job A is stopped (SIGSTOP) at each step of its publish; its lease
// (--lease-seconds 1) runs out, job B takes the lock over and publishes; A resumes and is fenced out, and B's
// snapshot stays whole. And a job killed on this host no longer blocks the next for the lease's 5 minutes.
// s3rver runs in this process, so every CLI is an async child. Only the jobs meant to be stopped carry the short
// lease: the others keep the default, so a slow renewal on a loaded machine never costs them the lock. The
// dataset before and the checks after run in this process (the library). s3rver honours conditional PUTs here, as
// S3 does: a renewal a job had under way when it was stopped must not rewrite, when it resumes, the lease taken over.
const root = tempDir("evalshard-fence-s3-");
let server: S3Server;
beforeAll(async () => {
  server = await startS3rver("datasets", { conditionalPuts: true });
  useS3rverEnvironment(server);
});
afterAll(async () => server.stop());

const FENCED = /^evalshard: The lock of s3:\/\/\S+ was taken over by another job while this one held it.*: (this job stops here|another job may have written there meanwhile)/m;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function input(name: string, n: number): string {
  const path = join(root, `${name}.ndjson`);
  writeFileSync(path, `${Array.from({ length: n }, (_, i) => JSON.stringify(sftRecord({ run_id: `${name}_${i}` }))).join("\n")}\n`);
  return path;
}
const OLD = input("old", 65);
const A_ROWS = input("a", 40);
const B_ROWS = input("b", 30);
const C_ROWS = input("c", 20);

let counter = 0;
const SHORT_LEASE = ["--lease-seconds", "1"];
const convertArgs = (inputs: string, out: string, lease: string[] = []) => ["convert", inputs, "--out", out, "--shard-rows", "15", "--max-shrink", "1", ...lease];
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...s3rverCliEnv(server), ...env }, replaceEnv: true });
/** A job that stops itself after `step`, with the short lease unless `lease` says otherwise. */
const stoppedAt = (step: string, inputs: string, out: string, lease = SHORT_LEASE) => startCli(convertArgs(inputs, out, lease), { ...s3rverCliEnv(server), [STOP_AT_STEP]: step });
/** The same convert, in this process. */
const convertHere = (inputs: string, out: string) => convert({ inputs: [inputs], out, shardRows: 15, maxShrink: 1 });

/** `verify`: whether it passed (its findings) and the rows it checked. */
async function verified(out: string): Promise<{ findings: readonly unknown[]; rows: number }> {
  const report = await verify(out);
  return { findings: report.findings, rows: report.ok ? report.checked.rows : -1 };
}

/**
 * Waits until the lease of the lock on `out` ran out (its holder, stopped, renews it no more); at once if it released
 * it. A failed read is asked again: s3rver answers 500 when a GET meets a PUT of the same key writing its metadata
 * (a renewal the stopped job had sent lands after it stopped).
 */
async function leaseRanOut(out: string): Promise<void> {
  const lock = new S3Storage(out).root;
  for (const started = Date.now(); ; await sleep(50)) {
    const text = await readText(lock, LOCK_PATH).catch((error: unknown) => error as Error);
    if (text === null || (typeof text === "string" && Date.parse((JSON.parse(text) as { expires: string }).expires) + 100 < Date.now())) return;
    if (Date.now() - started > 30_000) throw new Error(`the lease of ${out} did not run out: ${String(text)}`);
  }
}

/** A dataset of 65 rows, as a good night left it. */
async function dataset(): Promise<string> {
  const out = `s3://datasets/fence-${counter++}`;
  expect((await convertHere(OLD, out)).decision.published).toBe(true);
  return out;
}

/** After the whole interleaving: `verify` passes on `rows`, and a later night publishes and verifies too. */
async function wholeAfter(out: string, rows: number): Promise<void> {
  expect(await verified(out)).toEqual({ findings: [], rows });
  expect((await convertHere(C_ROWS, out)).decision.published).toBe(true);
  expect(await verified(out)).toEqual({ findings: [], rows: 20 });
}

describe("on S3, a job stopped past its lease while another job takes the lock over", () => {
  for (const step of ["staged", "pointer", "root:manifest.json", "cleaned", "pruned", "done"]) {
    it(`stopped after ${step}: A resumes and is fenced out (exit 1), B's snapshot stays whole`, { timeout: 120_000 }, async () => {
      const out = await dataset();
      const a = stoppedAt(step, A_ROWS, out);
      await a.stopped();
      await leaseRanOut(out); // A renews no more
      const b = await cli(convertArgs(B_ROWS, out));
      expect(b.code, b.stderr).toBe(0);
      a.resume();
      const resumed = await a.done;
      expect(resumed.code, JSON.stringify({ a: resumed, b })).toBe(1);
      expect(resumed.stderr).toMatch(FENCED);
      await wholeAfter(out, 30);
    });
  }

  it("two stopped jobs, resumed in either order: the one holding the lock publishes, the other is fenced out", { timeout: 180_000 }, async () => {
    for (const aFirst of [true, false]) {
      const out = await dataset();
      const a = stoppedAt("staged", A_ROWS, out);
      await a.stopped();
      await leaseRanOut(out);
      const b = stoppedAt("staged", B_ROWS, out, []);
      await b.stopped();
      const [first, second] = aFirst ? [a, b] : [b, a];
      first.resume();
      await first.done;
      second.resume();
      const [aDone, bDone] = [await a.done, await b.done];
      expect(aDone.code, aDone.stderr).toBe(1);
      expect(aDone.stderr).toMatch(FENCED);
      expect(bDone.code, bDone.stderr).toBe(0);
      await wholeAfter(out, 30);
    }
  });

  it("a job stopped past its lease that nobody took over renews on resuming and publishes", { timeout: 60_000 }, async () => {
    const out = await dataset();
    const a = stoppedAt("staged", A_ROWS, out);
    await a.stopped();
    await leaseRanOut(out);
    a.resume();
    expect((await a.done).code).toBe(0);
    await wholeAfter(out, 40);
  });
});

describe("on S3, a job killed on this host", () => {
  it("does not block the next job for its lease: its pid is gone, so the lock is taken over at once", { timeout: 60_000 }, async () => {
    const out = await dataset();
    // The default lease (5 minutes): before, the next 24 reruns were refused.
    const killed = await cli(convertArgs(A_ROWS, out), { [KILL_AT_STEP]: "staged" });
    expect(killed.signal).toBe("SIGKILL");
    const next = await cli(convertArgs(B_ROWS, out));
    expect(next.code, next.stderr).toBe(0);
    await wholeAfter(out, 30);
  });

  it("a live holder's lease is still refused until it runs out", { timeout: 60_000 }, async () => {
    const out = await dataset();
    const a = stoppedAt("staged", A_ROWS, out, ["--lease-seconds", "600"]);
    await a.stopped();
    const refused = await cli(convertArgs(B_ROWS, out));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^evalshard: s3:\/\/\S+ is locked by another job \(process \d+ on host .*lease until/m);
    a.resume();
    expect((await a.done).code).toBe(0);
    await wholeAfter(out, 40);
  });
});
