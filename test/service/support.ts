import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/service/index.js";

/** A response read whole. */
export interface Got {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  json<T = any>(): T;
}

/** GET (or another method) with a bearer token; reads the whole body. */
export async function call(emulator: RunningEmulator, path: string, token?: string, init: RequestInit = {}): Promise<Got> {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  const res = await fetch(emulator.url + path, { ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** Parsed NDJSON lines of a body (every line must be whole). */
export function ndjsonLines(text: string): any[] {
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** Asserts the spec's error envelope and returns its code. */
export function errorCode(got: Got): string {
  const body = got.json();
  if (typeof body?.error?.code !== "string" || typeof body.error.message !== "string") {
    throw new Error(`Expected an error envelope, got ${got.status} ${got.text.slice(0, 200)}`);
  }
  return body.error.code;
}

/** Every key name anywhere in a JSON value. */
export function keysDeep(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, into);
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysDeep(v, into);
    }
  }
  return into;
}

/** The four keys handed out at start, by role. */
export function keysOf(emulator: RunningEmulator) {
  const [primary, playOnly, partner, scoresOnly] = emulator.apiKeys.map((k) => k.api_key);
  if (primary === undefined || playOnly === undefined || partner === undefined || scoresOnly === undefined) throw new Error("missing keys");
  const [, second] = emulator.accounts;
  return { primary, playOnly, partner, scoresOnly, owner: emulator.ownerToken, partnerOwner: second?.owner_token ?? "" };
}

export interface OwnerRun {
  run_id: string;
  campaign_id: string;
  status: string;
  scored: boolean;
  created_at: string;
}

/** The owner's run list. */
export async function ownerRuns(emulator: RunningEmulator, token = emulator.ownerToken): Promise<OwnerRun[]> {
  return (await call(emulator, "/api/evals", token)).json().runs;
}

/** The agent seats of a run, from the owner scorecard manifest. */
export async function seatsOf(emulator: RunningEmulator, runId: string): Promise<{ seat_index: number; pilot: string; agent_key_id: string | null }[]> {
  return (await call(emulator, `/api/evals/${runId}/scorecard`, emulator.ownerToken)).json().manifest.seat_snapshots;
}

/** Starts an emulator for a test file. */
export function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ runs: 240, ...options });
}
