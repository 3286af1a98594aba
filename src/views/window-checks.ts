import type { Checked, TextCheck } from "./sanitize-text.js";

/**
 * `check` over the transcript windows of one trajectory, a step at a time: a window mostly repeats messages
 * of the step before (the emulator's holds the previous DM turn again), and a message equal to one of the
 * previous step's window is not checked again. `check` is pure, so this changes no text and no count.
 */
export class WindowChecks {
  readonly #check: TextCheck;
  #previous: string[] = [];
  #previousChecked: Checked[] = [];
  #current: string[] = [];
  #currentChecked: Checked[] = [];

  constructor(check: TextCheck) {
    this.#check = check;
  }

  /** The next step's window begins. */
  next(): void {
    [this.#previous, this.#current] = [this.#current, this.#previous];
    [this.#previousChecked, this.#currentChecked] = [this.#currentChecked, this.#previousChecked];
    this.#current.length = 0;
    this.#currentChecked.length = 0;
  }

  /** A message of the current step's window, checked. */
  readonly of = (text: string): Checked => {
    let checked: Checked | undefined;
    const previous = this.#previous;
    for (let i = 0; i < previous.length && checked === undefined; i++) if (previous[i] === text) checked = this.#previousChecked[i];
    checked ??= this.#check(text);
    this.#current.push(text);
    this.#currentChecked.push(checked);
    return checked;
  };
}
