import { afterAll } from "vitest";
import { createServiceClient, type ClientEvent, type ServiceClient } from "../../src/http/index.js";
import { httpSource, type HttpSource, type HttpSourceOptions } from "../../src/pull/index.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/service/index.js";
import { tempDir } from "../helpers/temp-dir.js";

/** An emulator closed after the test file, with fault timing fast enough for tests. */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0, timing: { gatewayTimeoutMs: 5, retryAfterSeconds: 0, slowDelayMs: 0 }, ...options });
  afterAll(() => emu.close());
  return emu;
}

/** A clock whose sleeps return at once (time still moves, so the retry budget is honoured). */
export function fastClock() {
  let now = 1_750_000_000_000;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

/** Owner client, or the agent client of key `key` (0: every scope and rl_dpo_export). */
export function clientFor(emu: RunningEmulator, auth: "owner" | "agent", key = 0, onEvent?: (e: ClientEvent) => void): ServiceClient {
  const token = auth === "owner" ? emu.ownerToken : (emu.apiKeys[key]?.api_key as string);
  return createServiceClient({
    baseUrl: emu.url,
    auth,
    token,
    concurrency: 4,
    clock: fastClock(),
    retry: { maxAttempts: 12, baseDelayMs: 1 },
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}

const spoolRoot = tempDir("evalshard-pull-");
let spools = 0;

/** An httpSource over a fresh client, its client events wired to the report. */
export function source(emu: RunningEmulator, options: Omit<HttpSourceOptions, "client" | "spoolDir"> & { key?: number }): HttpSource {
  let src: HttpSource | undefined;
  const client = clientFor(emu, options.auth, options.key ?? 0, (e) => src?.clientEvent(e));
  const { key: _key, ...rest } = options;
  src = httpSource({ ...rest, client, spoolDir: `${spoolRoot}/${spools++}` });
  return src;
}

/** Every line of one read, as text. */
export async function readAll(src: HttpSource): Promise<string[]> {
  const out: string[] = [];
  for await (const line of src.lines()) if (line.kind === "line") out.push(line.text);
  return out;
}

/** Record lines only (no `partial_stream` lines), keyed by run and seat, content canonicalised. */
export function byKey(lines: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines) {
    const r = JSON.parse(line) as { run_id?: string; seat?: { seat_index: number }; run_chosen?: string; run_rejected?: string; seat_index?: number };
    if (r.run_id !== undefined) out.set(`${r.run_id}#${r.seat?.seat_index}`, canonical(r));
    else if (r.run_chosen !== undefined) out.set(`${r.run_chosen}>${r.run_rejected}#${r.seat_index}`, canonical(r));
  }
  return out;
}

export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

export interface RunSummary {
  run_id: string;
  campaign_id?: string;
  status: string | null;
  scored: boolean;
}

/** The runs the credential lists (owner: /api/evals; agent: union of the plain and batch lists). */
export async function listed(client: ServiceClient): Promise<RunSummary[]> {
  if (client.auth === "owner") return (await client.getJson<{ runs: RunSummary[] }>("/api/evals")).runs;
  const seen = new Map<string, RunSummary>();
  for (const r of await client.getJson<RunSummary[]>("/api/agent/runs")) seen.set(r.run_id, r);
  const { batches } = await client.getJson<{ batches: { batch_id: string }[] }>("/api/agent/batches");
  for (const b of batches) for (const r of await client.getJson<RunSummary[]>("/api/agent/runs", { batch_id: b.batch_id })) if (!seen.has(r.run_id)) seen.set(r.run_id, r);
  return [...seen.values()];
}

/** What the per-run routes answer for these runs, keyed like `byKey`; 404s (no RL data) left out. */
export async function perRun(client: ServiceClient, runIds: readonly string[], rl: boolean): Promise<Map<string, string>> {
  const base = client.auth === "owner" ? "/api/evals" : "/api/agent/runs";
  const lines: string[] = [];
  for (const id of runIds) {
    try {
      const { records } = await client.getJson<{ records: unknown[] }>(`${base}/${id}/finetuning${rl ? "/rl" : ""}`);
      lines.push(...records.map((r) => JSON.stringify(r)));
    } catch (error) {
      if (!(rl && (error as { status?: number }).status === 404)) throw error;
    }
  }
  return byKey(lines);
}
