import type { RlStepsTuple } from "./rl-steps-record.js";
import type { RowText } from "./admit-texts.js";
import type { Checked, TextCheck } from "./sanitize-text.js";
import type { TextAudit } from "./text-audit.js";

export const ROLE_PATH = "transcript_window[].role";
export const ACTION_TYPE_PATH = "action_type";
export const SEAT_ROLE_PATH = "role";
export const CONDITIONS_PATH = "conditions_met[]";

/** A step's labels as its row writes them, sanitized: set when sanitizing changed any of them. */
export interface SanitizedLabels {
  /** One per window message. */
  readonly roles: readonly string[];
  readonly actionType: string | null;
  readonly conditions: readonly string[];
}

/**
 * The short texts an `rl-steps` row writes besides its window contents and action, which come from the record
 * as any text does: its window's roles, its action type, its seat's role, its conditions met. Each goes through
 * `env.label` (the `sanitize` policy, remembered per distinct label) and is audited at its own path. Most
 * steps' labels are all clean (unchanged and matching no pattern): they are then written as they are and
 * added to the audit as counts, without a text object each.
 */
export class StepLabels {
  readonly #label: TextCheck;
  #seat: Checked;
  /** After {@link step}: the step's labels sanitized, or null when sanitizing changed none. */
  values: SanitizedLabels | null = null;
  /** After {@link step}: whether sanitizing changed a window role (the window cannot be written as it is). */
  rolesChanged = false;
  /** After {@link step}: the labels that changed or may match a pattern, to count or admit as any text. */
  readonly texts: RowText[] = [];
  #cleanRoles = 0;
  #cleanActionTypes = 0;
  #cleanConditions = 0;
  #cleanSeat = 0;
  /** The kept rows' clean labels so far, per path (roles, action types, conditions, seat roles): added at {@link flush}. */
  readonly #kept = [0, 0, 0, 0];

  constructor(label: TextCheck) {
    this.#label = label;
    this.#seat = label("");
  }

  /** A record begins: its seat's role, written in each of its rows. */
  record(seatRole: string): void {
    this.#seat = this.#label(seatRole);
    this.#kept.fill(0);
  }

  /** Checks a step's labels. */
  step(tuple: RlStepsTuple): void {
    const label = this.#label;
    const texts = this.texts;
    if (texts.length !== 0) texts.length = 0;
    let changed = false;
    let rolesChanged = false;
    const window = tuple.state.transcript_window;
    let clean = 0;
    for (let m = 0; m < window.length; m++) {
      const c = label((window[m] as { role: string }).role);
      if (isClean(c)) clean++;
      else {
        texts.push(rowText(ROLE_PATH, c));
        rolesChanged ||= c.changed;
      }
    }
    this.#cleanRoles = clean;
    changed ||= rolesChanged;
    const actionType = tuple.action?.action_type ?? null;
    this.#cleanActionTypes = 0;
    if (actionType !== null) {
      const c = label(actionType);
      if (isClean(c)) this.#cleanActionTypes = 1;
      else {
        texts.push(rowText(ACTION_TYPE_PATH, c));
        changed ||= c.changed;
      }
    }
    const conditions = tuple.reward.conditions_met;
    clean = 0;
    for (let k = 0; k < conditions.length; k++) {
      const c = label(conditions[k] as string);
      if (isClean(c)) clean++;
      else {
        texts.push(rowText(CONDITIONS_PATH, c));
        changed ||= c.changed;
      }
    }
    this.#cleanConditions = clean;
    const seat = this.#seat;
    this.#cleanSeat = isClean(seat) ? 1 : 0;
    if (this.#cleanSeat === 0) texts.push(rowText(SEAT_ROLE_PATH, seat));
    this.rolesChanged = rolesChanged;
    this.values = changed
      ? {
          roles: window.map((m) => label(m.role).text),
          actionType: actionType === null ? null : label(actionType).text,
          conditions: conditions.map((c) => label(c).text),
        }
      : null;
  }

  /**
   * The step's row is kept: its clean labels are counted at {@link flush} (the others are in {@link texts},
   * counted as any text). Summed per record, as four paths a step would cost the audit four map lookups.
   */
  keep(): void {
    const kept = this.#kept;
    kept[0] = (kept[0] as number) + this.#cleanRoles;
    kept[1] = (kept[1] as number) + this.#cleanActionTypes;
    kept[2] = (kept[2] as number) + this.#cleanConditions;
    kept[3] = (kept[3] as number) + this.#cleanSeat;
  }

  /** Adds the kept rows' clean labels of the record to `audit`. */
  flush(audit: TextAudit): void {
    const kept = this.#kept;
    audit.addUnchanged(ROLE_PATH, kept[0] as number);
    audit.addUnchanged(ACTION_TYPE_PATH, kept[1] as number);
    audit.addUnchanged(CONDITIONS_PATH, kept[2] as number);
    audit.addUnchanged(SEAT_ROLE_PATH, kept[3] as number);
  }
}

function isClean(c: Checked): boolean {
  return !c.changed && !c.inject;
}

function rowText(path: string, c: Checked): RowText {
  return { path, text: c.text, changed: c.changed, inject: c.inject };
}
