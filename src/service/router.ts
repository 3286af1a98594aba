import type { RequestFaults, RouteTraits } from "./fault-injector.js";
import type { Reply } from "./reply.js";
import type { World } from "./world.js";
import type { GateStamp } from "./emulator-options.js";

/** What a route handler gets. */
export interface RequestContext {
  readonly world: World;
  /** The world's epoch when the request arrived: a stream reads one consistent world even if it advances. */
  readonly epoch: number;
  readonly method: string;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  readonly authorization: string | undefined;
  /** The parsed JSON body (400 when it is not JSON). */
  readonly body: () => Promise<unknown>;
  readonly faults: RequestFaults;
  /** Serve the emulator's documented additions to the spec's fields (`EmulatorOptions.extraFields`). */
  readonly extraFields: boolean;
  /** How gated seats' cards are stamped (`EmulatorOptions.gateStamp`). */
  readonly gateStamp: GateStamp;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route extends RouteTraits {
  readonly method: "GET" | "POST" | "DELETE" | "PATCH";
  /** Path with `:name` parameters, e.g. `/api/agent/runs/:run_id/status`. */
  readonly path: string;
  readonly handler: Handler;
  /** Emulator control routes are never faulted. */
  readonly faultable?: boolean;
}

export type Match =
  | { readonly kind: "route"; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: "method_not_allowed"; readonly allowed: readonly string[] }
  | { readonly kind: "none" };

/** Matches a method and pathname to a route; literal segments win over parameters. */
export class Router {
  private readonly routes: { route: Route; segments: string[]; literals: number }[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => {
      const segments = route.path.split("/").filter(Boolean);
      return { route, segments, literals: segments.filter((s) => !s.startsWith(":")).length };
    });
  }

  match(method: string, pathname: string): Match {
    let parts: string[];
    try {
      parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      return { kind: "none" };
    }
    const candidates = this.routes
      .filter((r) => r.segments.length === parts.length && r.segments.every((s, i) => s.startsWith(":") || s === parts[i]))
      .sort((a, b) => b.literals - a.literals);
    const best = candidates[0]?.literals;
    const sameShape = candidates.filter((c) => c.literals === best);
    const hit = sameShape.find((c) => c.route.method === method);
    if (hit === undefined) {
      return sameShape.length === 0 ? { kind: "none" } : { kind: "method_not_allowed", allowed: sameShape.map((c) => c.route.method) };
    }
    const params: Record<string, string> = {};
    hit.segments.forEach((s, i) => {
      if (s.startsWith(":")) params[s.slice(1)] = parts[i] ?? "";
    });
    return { kind: "route", route: hit.route, params };
  }
}
