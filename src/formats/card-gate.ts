/**
 * What participation gating reads of one scorecard (spec 2.7): whose card it is and its stamp, and
 * nothing else, so a card whose other fields are missing or malformed still gates its seat (issue 39).
 */

/** How `--gate-by` groups: a seat by its own card (the default), or a whole run by any of its cards. */
export const GATE_BY = ["seat", "run"] as const;
export type GateBy = (typeof GATE_BY)[number];

/**
 * A card's answer. `gated`: the stamp is `true` or an object (the service's detail, e.g.
 * `{player_messages, min_player_messages}`); `open`: absent, `null` or `false`; `unreadable`: anything
 * else (the string "false", a number, ...), or a card whose `agent_key_id` cannot be read. An unreadable
 * answer never keeps a seat: it is dropped as `unreadable_gating`.
 */
export type Gate = "open" | "gated" | "unreadable";

/** A card's seat: its agent key, null for an `aic` seat, false when the key cannot be read (any seat of the run). */
export type CardSeat = string | null | false;

/** One card as gating reads it. */
export interface CardGate {
  /** The card's `run_id`; null when it has none that can be read (then the card belongs to no run). */
  readonly runId: string | null;
  readonly seat: CardSeat;
  readonly gate: Gate;
  /** Why the card's gating is unreadable: the field and what it held; null when it is readable. */
  readonly unreadable: { readonly field: "agent_key_id" | "participation_gated"; readonly found: string } | null;
}

/** The stamp's answer alone. */
export function stampGate(card: Readonly<Record<string, unknown>>): Gate {
  if (!("participation_gated" in card)) return "open";
  const stamp = card.participation_gated;
  if (stamp === undefined || stamp === null || stamp === false) return "open";
  if (stamp === true || (typeof stamp === "object" && !Array.isArray(stamp))) return "gated";
  return "unreadable";
}

/**
 * A card's gating. `runId`: the run the card was fetched for (a pull asks a run's own route), which a
 * card without a readable `run_id` then belongs to.
 */
export function cardGate(card: unknown, runId?: string): CardGate {
  if (card === null || typeof card !== "object" || Array.isArray(card)) {
    return { runId: runId ?? null, seat: false, gate: "unreadable", unreadable: { field: "participation_gated", found: describe(card) } };
  }
  const c = card as Readonly<Record<string, unknown>>;
  const ownRun = typeof c.run_id === "string" && c.run_id !== "" ? c.run_id : null;
  const key = c.agent_key_id;
  const seat: CardSeat = key === null || (typeof key === "string" && key !== "") ? key : false;
  const stamp = stampGate(c);
  const unreadable =
    stamp === "unreadable" ? { field: "participation_gated" as const, found: describe(c.participation_gated) }
    : seat === false ? { field: "agent_key_id" as const, found: describe(key) }
    : null;
  // A stamp on a card of no known seat could be any seat's: every seat of the run is then unreadable.
  const gate: Gate = stamp === "unreadable" || seat === false ? "unreadable" : stamp;
  return { runId: runId ?? ownRun, seat, gate, unreadable };
}

/** The worst of some cards' answers: gated over unreadable over open. */
export function worstGate(gates: Iterable<Gate>): Gate {
  let worst: Gate = "open";
  for (const gate of gates) {
    if (gate === "gated") return gate;
    if (gate === "unreadable") worst = gate;
  }
  return worst;
}

/** The drop reason of a gate, or null for an open one. */
export function gateReason(gate: Gate): "participation_gated" | "unreadable_gating" | null {
  return gate === "gated" ? "participation_gated" : gate === "unreadable" ? "unreadable_gating" : null;
}

/** How an unreadable value is named in a warning or error (values only: a card holds no secret). */
function describe(value: unknown): string {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
