import { once, setMaxListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Scope } from "./accounts.js";
import { resolveOptions, type EmulatorOptions } from "./emulator-options.js";
import { FaultInjector, type AimedFault, type FaultEvent } from "./fault-injector.js";
import { handleRequest } from "./handle-request.js";
import { Router } from "./router.js";
import { agentRoutes } from "./routes-agent.js";
import { emulatorRoutes, notEmulatedRoutes } from "./routes-emulator.js";
import { keyRoutes } from "./routes-keys.js";
import { ownerRoutes } from "./routes-owner.js";
import { World } from "./world.js";

/** A key handed out at start, as printed by `evalshard serve`. */
export interface EmulatorApiKey {
  readonly api_key: string;
  readonly api_key_id: string;
  readonly scopes: readonly Scope[];
  readonly entitlements: readonly string[];
}

/** The one JSON line `evalshard serve` prints once it is ready. */
export interface ServeInfo {
  readonly url: string;
  readonly owner_token: string;
  readonly api_keys: readonly EmulatorApiKey[];
}

/** An account of the world; the first is the one `ownerToken` belongs to. */
export interface EmulatorAccount {
  readonly account_id: string;
  readonly name: string;
  readonly owner_token: string;
  readonly entitlements: readonly string[];
}

export interface RunningEmulator {
  readonly url: string;
  /** Portal token of the first account (the one with `rl_dpo_export`). */
  readonly ownerToken: string;
  /**
   * In order: all scopes with `rl_dpo_export` (seated in most runs); `play` only; `play` and
   * `read:scores` on the second account (no `rl_dpo_export`); `read:scores` only.
   */
  readonly apiKeys: readonly EmulatorApiKey[];
  readonly accounts: readonly EmulatorAccount[];
  /** Every injected fault so far, oldest first. */
  readonly faultLog: readonly FaultEvent[];
  /** The current epoch. */
  readonly epoch: number;
  /** What `evalshard serve` prints. */
  readonly info: ServeInfo;
  /** Aims a fault at the next matching request(s). */
  aimFault(fault: AimedFault): void;
  /** Moves the world one epoch, as `POST /_emulator/advance` does. */
  advance(): Promise<void>;
  /** Stops listening, drops open connections and ends fault delays; later calls return the same promise. */
  close(): Promise<void>;
}

/** Starts the emulator of the agent-evaluation service; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const world = new World({ seed: resolved.seed, runs: resolved.runs, epoch: resolved.epoch, platform: resolved.platform, benchmarkRuns: resolved.benchmarkRuns });
  const faults = new FaultInjector(resolved.seed, resolved.faults, resolved.aimedFaults, resolved.onFault);
  const router = new Router([...agentRoutes, ...ownerRoutes, ...keyRoutes, ...emulatorRoutes, ...notEmulatedRoutes]);
  const closing = new AbortController();
  // Every fault delay in flight listens to it: many at once are normal, not a leak (nor a stderr warning).
  setMaxListeners(0, closing.signal);
  const deps = { world, router, faults, timing: resolved.timing, extraFields: resolved.extraFields, gateStamp: resolved.gateStamp, closing: closing.signal };

  const server = createServer((req, res) => {
    // A handler fails only when its connection is gone (or the emulator closed under it): nothing is left to answer.
    handleRequest(deps, req, res).catch(() => res.destroy());
  });
  // `once` rejects with the server's error (a port in use) if that comes first.
  await once(server.listen(resolved.port, resolved.host), "listening");
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;
  const url = `http://${host}:${port}`;

  const apiKeys = world.exposedKeys.map((key) => ({
    api_key: key.apiKey,
    api_key_id: key.apiKeyId,
    scopes: [...key.scopes],
    entitlements: [...(world.accounts[key.account]?.entitlements ?? [])],
  }));
  const accounts = world.accounts.map((a) => ({ account_id: a.accountId, name: a.name, owner_token: a.ownerToken, entitlements: [...a.entitlements] }));
  const ownerToken = accounts[0]?.owner_token ?? "";
  let closed: Promise<void> | undefined;
  return {
    url,
    ownerToken,
    apiKeys,
    accounts,
    faultLog: faults.log,
    get epoch() {
      return world.epoch;
    },
    info: { url, owner_token: ownerToken, api_keys: apiKeys },
    aimFault: (fault) => faults.aim(fault),
    advance: async () => world.advance(),
    close: () => {
      if (closed === undefined) {
        closing.abort();
        closed = close(server);
      }
      return closed;
    },
  };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)));
    // Idle keep-alive sockets and open streams would otherwise hold the server open.
    server.closeAllConnections();
  });
}
