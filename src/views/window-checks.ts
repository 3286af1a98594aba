import type { Checked, TextCheck } from "./sanitize-text.js";
import type { Utf8Range } from "./utf8-range.js";

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
  // Messages given as bytes that were cleared, this step's and the previous one's.
  #previousBytes: Utf8Range[] = [];
  #currentBytes: Utf8Range[] = [];

  constructor(check: TextCheck) {
    this.#check = check;
  }

  /** The next step's window begins. */
  next(): void {
    // Swapped by hand and emptied only when not empty: once per step, and a length store is a builtin call.
    const texts = this.#previous;
    this.#previous = this.#current;
    this.#current = texts;
    const checked = this.#previousChecked;
    this.#previousChecked = this.#currentChecked;
    this.#currentChecked = checked;
    const bytes = this.#previousBytes;
    this.#previousBytes = this.#currentBytes;
    this.#currentBytes = bytes;
    if (texts.length !== 0) texts.length = 0;
    if (checked.length !== 0) checked.length = 0;
    if (bytes.length !== 0) bytes.length = 0;
  }

  /**
   * Whether `clear` clears a message of the current step's window given as its UTF-8 bytes; a message the
   * previous step's window held, cleared, is not read again. A text it does not clear goes to {@link of}. A
   * text the walk checked as it read it (`checked`) is answered by `clear` at once: comparing costs more.
   */
  clears(bytes: Utf8Range, clear: (bytes: Utf8Range) => boolean): boolean {
    if (bytes.checked !== null) return clear(bytes);
    const previous = this.#previousBytes;
    let cleared = false;
    for (const range of previous) if ((cleared = sameBytes(range, bytes))) break;
    if (!cleared && !clear(bytes)) return false;
    this.#currentBytes.push(bytes);
    return true;
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

function sameBytes(a: Utf8Range, b: Utf8Range): boolean {
  const length = a.end - a.start;
  if (b.end - b.start !== length) return false;
  const x = a.bytes;
  const y = b.bytes;
  for (let i = 0; i < length; i++) if (x[a.start + i] !== y[b.start + i]) return false;
  return true;
}
