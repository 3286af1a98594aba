import { REQUEST_FAULTS, type FaultKind, type FaultRates } from "./fault-spec.js";
import { hashOf, unitOf } from "./seeded-random.js";

/** A fault aimed at named requests, for tests: it hits the next `times` matching requests. */
export interface AimedFault {
  readonly kind: FaultKind;
  /** An exact pathname (`/api/evals/finetuning`), or a RegExp tested against pathname and query. */
  readonly path: string | RegExp;
  /** Only requests of this method; any method when absent. */
  readonly method?: string | undefined;
  /** How many matching requests it hits; 1 when absent. */
  readonly times?: number | undefined;
  /**
   * `reset`/`cut`/`end` on a stream: whole lines written before the cut (default 1; a shorter stream is
   * cut in its last line, or for `end` left whole). `partial`: the run_index that fails (default 0).
   */
  readonly at?: number | undefined;
}

/** One injected fault, as logged. */
export interface FaultEvent {
  readonly seq: number;
  readonly kind: FaultKind;
  readonly method: string;
  /** Pathname and query of the request. */
  readonly path: string;
  /** Aimed at this request, rather than drawn at random. */
  readonly aimed: boolean;
  /** `reset`/`cut`: whole lines written before the cut (streams). */
  readonly at?: number;
  /** `partial`: the run whose records were replaced by the error line. */
  readonly runIndex?: number;
}

export type RequestFaultKind = Exclude<FaultKind, "partial" | "seats">;

/** The faults decided for one request. */
export interface RequestFaults {
  readonly kind: RequestFaultKind | null;
  /** For `reset`/`cut` on streams: whole lines written before the cut. */
  readonly at: number;
  /** Whether run `runIndex` of an owner bulk stream fails (logged when true). */
  partialAt(runIndex: number): boolean;
  /** A per-run records answer leaves out its last seat. */
  readonly dropSeat?: boolean;
}

/** What kind of route a request hit: decides which faults can apply to it. */
export interface RouteTraits {
  /** Answers NDJSON: `cut`, `end` and `echo_line` faults apply. */
  readonly ndjson?: boolean;
  /** An owner bulk export: `partial` faults apply. */
  readonly ownerBulk?: boolean;
  /** A per-run `{records}` export: `seats` faults apply. */
  readonly perRun?: boolean;
}

export const NO_FAULTS: RequestFaults = { kind: null, at: 0, partialAt: () => false };

/**
 * Decides faults. A random decision hashes the seed, the request line and how many times that request
 * line was seen, so it does not depend on how concurrent requests to other URLs interleave.
 */
export class FaultInjector {
  readonly log: FaultEvent[] = [];
  private readonly aimed: { fault: AimedFault; left: number }[] = [];
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly seed: number,
    private readonly rates: FaultRates,
    aimed: readonly AimedFault[] = [],
    private readonly onFault?: (event: FaultEvent) => void,
  ) {
    for (const fault of aimed) this.aim(fault);
  }

  aim(fault: AimedFault): void {
    this.aimed.push({ fault, left: fault.times ?? 1 });
  }

  forRequest(method: string, url: URL, route: RouteTraits): RequestFaults {
    const path = url.pathname + url.search;
    const aimed = this.takeAimed(method, url, route);
    if (aimed !== null) return this.decided(aimed.kind, aimed.at ?? (aimed.kind === "partial" ? 0 : 1), { method, path, aimed: true }, () => false);

    const line = `${method} ${path}`;
    const count = (this.seen.get(line) ?? 0) + 1;
    this.seen.set(line, count);
    const drawn = { method, path, aimed: false };
    const partialRate = route.ownerBulk === true ? (this.rates.partial ?? 0) : 0;
    const partialAt = (i: number) =>
      partialRate > 0 && unitOf(this.seed, "partial", line, count, i) < partialRate && this.record({ kind: "partial", ...drawn, runIndex: i });

    // Drawn apart from the request faults, so a rate of 0 leaves every other draw as it was.
    const seatsRate = route.perRun === true ? (this.rates.seats ?? 0) : 0;
    if (seatsRate > 0 && unitOf(this.seed, "seats", line, count) < seatsRate) return this.decided("seats", 0, drawn, partialAt);
    let u = unitOf(this.seed, "fault", line, count);
    for (const kind of REQUEST_FAULTS) {
      const rate = this.rates[kind] ?? 0;
      if (u < rate) {
        if ((kind === "cut" || kind === "end" || kind === "echo_line") && route.ndjson !== true) break;
        return this.decided(kind, hashOf(this.seed, "fault-at", line, count) % 4, drawn, partialAt);
      }
      u -= rate;
    }
    return { kind: null, at: 0, partialAt };
  }

  /** The faults of a request whose fault is `kind`, logged; `partialAt` says which runs of an owner bulk stream fail (a `partial` fault says its own). */
  private decided(kind: FaultKind, at: number, request: Pick<FaultEvent, "method" | "path" | "aimed">, partialAt: (runIndex: number) => boolean): RequestFaults {
    if (kind === "seats") return { ...NO_FAULTS, dropSeat: this.record({ kind, ...request }) };
    if (kind === "partial") return { kind: null, at: 0, partialAt: (i) => i === at && this.record({ kind, ...request, runIndex: i }) };
    this.record(kind === "reset" || kind === "cut" || kind === "end" || kind === "echo_line" ? { kind, ...request, at } : { kind, ...request });
    return { kind, at, partialAt };
  }

  private takeAimed(method: string, url: URL, route: RouteTraits): AimedFault | null {
    const index = this.aimed.findIndex(({ fault }) => {
      if (fault.method !== undefined && fault.method.toUpperCase() !== method) return false;
      if (fault.kind === "partial" && route.ownerBulk !== true) return false;
      if (fault.kind === "seats" && route.perRun !== true) return false;
      return typeof fault.path === "string" ? fault.path === url.pathname : fault.path.test(url.pathname + url.search);
    });
    const entry = this.aimed[index];
    if (entry === undefined) return null;
    if (--entry.left <= 0) this.aimed.splice(index, 1);
    return entry.fault;
  }

  private record(event: Omit<FaultEvent, "seq">): true {
    const logged = { seq: this.log.length + 1, ...event };
    this.log.push(logged);
    this.onFault?.(logged);
    return true;
  }
}
