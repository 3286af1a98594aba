import type { Campaign } from "./campaigns.js";
import { hashOf, SeededRandom } from "./seeded-random.js";

/** A key that may be seated in an account's runs. */
export interface SeatCandidate {
  readonly keyId: string;
  /** Chance of taking its home slot in a run, when the slot is still free. */
  readonly weight: number;
  /** Its home slot is the campaign's first agent slot (the primary seat). */
  readonly primary: boolean;
}

/**
 * Decides which key sits in each agent slot of a run, by a cheap deterministic rule instead of a stored
 * index. A key always takes the same slot within a campaign (its "home"), so a key's seat index is
 * stable across runs of one scenario, as DPO pairing needs. Slots no candidate takes get a filler key:
 * another agent of the account that the emulator hands no secret for.
 */
export class SeatPool {
  private readonly keyIds: Set<string>;

  constructor(
    private readonly seed: number,
    private readonly candidates: readonly SeatCandidate[],
    private readonly fillers: readonly string[],
  ) {
    this.keyIds = new Set([...candidates.map((c) => c.keyId), ...fillers]);
  }

  /** Whether a key can be seated at all: keys created later never are, and need no scan. */
  has(keyId: string): boolean {
    return this.keyIds.has(keyId);
  }

  /** Key ids for the campaign's agent slots, in slot order, for run `n`. */
  assign(campaign: Campaign, n: number): string[] {
    const random = new SeededRandom(this.seed, "seating", n);
    return campaign.agentSlots.map((slot, position) => {
      for (const candidate of this.candidates) {
        if (this.home(candidate, campaign) === slot && random.chance(candidate.weight)) return candidate.keyId;
      }
      return this.fillers[position % this.fillers.length] ?? "";
    });
  }

  private home(candidate: SeatCandidate, campaign: Campaign): number {
    const slots = campaign.agentSlots;
    if (candidate.primary) return slots[0] ?? 0;
    return slots[hashOf(this.seed, "home", candidate.keyId, campaign.index) % slots.length] ?? 0;
  }
}
