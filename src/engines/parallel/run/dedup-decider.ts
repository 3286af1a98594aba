import type { DropReason } from "../../../core/reasons.js";
import { DROP_REASONS } from "../../../core/reasons.js";
import type { Tally } from "../../../core/tally.js";
import { ChunkedColumn } from "../../../core/chunked-column.js";
import { KeyIndex } from "../../../core/key-index.js";
import { beatsWinner, copyOutcome } from "../../../core/dedup-rule.js";
import { keyStart } from "./packed-keys.js";
import type { PackedKeys } from "./packed-keys.js";

/** A batch's valid records, in read order. */
export interface ValidRecords {
  /** Their dedup keys. */
  readonly keys: PackedKeys;
  /** Their scorecard versions (0 where the format has none). */
  readonly versions: ArrayLike<number>;
  /** Their lines' digests (`lineDigest`): a copy of the winner's version with another is a `conflicting_duplicate`. */
  readonly digests: ArrayLike<number>;
  /** The filter or selection rule that drops each one; null for a record shredded as a row. */
  readonly rules: readonly (DropReason | null)[];
}

/** How a winner was counted once its unit was decided: not yet, kept, or dropped by DROP_REASONS[code - 2]. */
const NOT_COUNTED = 0;
const KEPT = 1;

/**
 * The dedup stage for a stream decided a unit at a time, in read order: dedup's rule (core/dedup-rule.ts),
 * its winners learned as the input goes by.
 *
 * A later copy with a higher version can beat a winner whose unit is already decided. Counts are then
 * corrected; if that winner was already written, `rewriteNeeded` is set and the run must be repeated with
 * `final()` decisions, which know every winner from the first run.
 *
 * Winners live in columns (a key index and chunked typed arrays), not an object per key, and off the JS heap:
 * they are the one thing in the engine that grows with the input (one entry per distinct key, ~90 bytes with
 * its key; see KeyIndex and ChunkedColumn).
 */
export class DedupDecider {
  #index = new KeyIndex();
  /** Per key number: the winner's scorecard version, and its ordinal (place among valid records, in read order). */
  #version = new ChunkedColumn();
  #ordinal = new ChunkedColumn();
  /** Per key number: the winner's line digest. */
  #digest = new ChunkedColumn();
  /** Copies counted as `duplicate` (or `conflicting_duplicate`) of the winner: they turn `superseded` if a higher version comes. */
  #duplicates = new ChunkedColumn();
  #conflicts = new ChunkedColumn();
  #counted = new ChunkedColumn();
  #ordinals = 0;
  #final = false;
  rewriteNeeded = false;

  constructor(readonly tally: Tally) {}

  /** Distinct keys seen so far (every key, once the first read is done). */
  get keys(): number {
    return this.#index.size;
  }

  /**
   * Decides a unit's valid records, its batches in order (counting them); returns for each record whether it
   * stays (1), or won dedup and its rule drops it (2), or lost (0). `outcomes`, when given, gets each record's
   * outcome as counted: kept, or the reason it is dropped.
   */
  decide(unit: readonly ValidRecords[], outcomes?: ("kept" | DropReason)[]): Uint8Array {
    const first = this.#ordinals;
    const count = unit.reduce((n, b) => n + b.rules.length, 0);
    // Each record's key number: learned (one probe of the index) or, in a final pass, looked up.
    const numbers = this.#final ? this.#lookUp(unit, count) : this.#learn(unit, first, count);
    const stays = new Uint8Array(count);
    let ordinal = first;
    for (const { versions, digests, rules } of unit) {
      for (let i = 0; i < rules.length; i++, ordinal++) {
        const w = numbers[ordinal - first] as number;
        const rule = rules[i] ?? null;
        let outcome: "kept" | DropReason;
        if (this.#ordinal.get(w) === ordinal) {
          outcome = rule ?? "kept";
          this.#counted.set(w, rule === null ? KEPT : DROP_REASONS.indexOf(rule) + 2);
        } else {
          outcome = copyOutcome(versions[i] as number, digests[i] as number, this.#version.get(w), this.#digest.get(w));
          if (outcome === "duplicate") this.#duplicates.set(w, this.#duplicates.get(w) + 1);
          else if (outcome === "conflicting_duplicate") this.#conflicts.set(w, this.#conflicts.get(w) + 1);
        }
        this.tally.decided(outcome);
        outcomes?.push(outcome);
        if (outcome === "kept") stays[ordinal - first] = 1;
        else if (rule !== null && outcome === rule) stays[ordinal - first] = 2;
      }
    }
    this.#ordinals = ordinal;
    return stays;
  }

  /** Starts over with every winner known: decisions can no longer change after the fact. */
  final(tally: Tally): DedupDecider {
    const next = new DedupDecider(tally);
    // Same keys, same numbers; the winners as learned, none counted yet.
    next.#index = this.#index;
    next.#version = this.#version.copy();
    next.#ordinal = this.#ordinal.copy();
    next.#digest = this.#digest.copy();
    next.#final = true;
    return next;
  }

  /** The key numbers of a unit's records, all of them known already. */
  #lookUp(unit: readonly ValidRecords[], count: number): Int32Array {
    const numbers = new Int32Array(count);
    let r = 0;
    for (const { keys, rules } of unit) for (let i = 0; i < rules.length; i++) numbers[r++] = this.#index.get(keys.bytes, keyStart(keys, i), keys.ends[i] as number);
    return numbers;
  }

  /**
   * Learns a unit's keys and winners; returns each record's key number, so that deciding does not probe the
   * index again (and `decide` stays a small compile: docs/decisions.md "hot code shape", compile size).
   */
  #learn(unit: readonly ValidRecords[], first: number, count: number): Int32Array {
    const numbers = new Int32Array(count);
    let ordinal = first;
    for (const { keys, versions, digests, rules } of unit) {
      for (let i = 0; i < rules.length; i++, ordinal++) {
        const start = keyStart(keys, i);
        const end = keys.ends[i] as number;
        const version = versions[i] as number;
        const digest = digests[i] as number;
        // One probe for a key seen or new: `add` numbers it only when the index does not have it.
        const known = this.#index.size;
        const w = this.#index.add(keys.bytes, start, end);
        numbers[ordinal - first] = w;
        if (w === known) {
          this.#winner(w, version, ordinal, digest);
          continue;
        }
        if (!beatsWinner(version, this.#version.get(w))) continue;
        const counted = this.#counted.get(w);
        if (counted !== NOT_COUNTED) {
          this.tally.reclassify(counted === KEPT ? "kept" : (DROP_REASONS[counted - 2] as DropReason), "superseded");
          if (counted === KEPT) this.rewriteNeeded = true;
        }
        this.tally.reclassify("duplicate", "superseded", this.#duplicates.get(w));
        this.tally.reclassify("conflicting_duplicate", "superseded", this.#conflicts.get(w));
        this.#winner(w, version, ordinal, digest);
      }
    }
    return numbers;
  }

  /** Makes this copy key `w`'s winner, not yet counted. */
  #winner(w: number, version: number, ordinal: number, digest: number): void {
    this.#version.set(w, version);
    this.#ordinal.set(w, ordinal);
    this.#digest.set(w, digest);
    this.#conflicts.set(w, 0);
    this.#counted.set(w, NOT_COUNTED);
    this.#duplicates.set(w, 0);
  }
}
