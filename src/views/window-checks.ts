import type { Checked, TextCheck } from "./sanitize-text.js";
import type { Utf8Range } from "./utf8-range.js";

/**
 * `check` over the transcript windows of one trajectory, a step at a time: a window mostly repeats messages
 * of the step before (the emulator's holds the previous DM turn again), and a message equal to one of the
 * previous step's window is not checked again. `check` is pure, so this changes no text and no count.
 */
export class WindowChecks {
  readonly #check: TextCheck;
  #previous = new StepTexts();
  #current = new StepTexts();

  constructor(check: TextCheck) {
    this.#check = check;
  }

  /** The next step's window begins. */
  next(): void {
    const emptied = this.#previous.clear();
    this.#previous = this.#current;
    this.#current = emptied;
  }

  /**
   * Whether `clear` clears a message of the current step's window given as its UTF-8 bytes; a message the
   * previous step's window held, cleared, is not read again. A text it does not clear goes to {@link of}. A
   * text the walk checked as it read it (`checked`) is answered by `clear` at once: comparing costs more.
   */
  clears(bytes: Utf8Range, clear: (bytes: Utf8Range) => boolean): boolean {
    if (bytes.checked !== null) return clear(bytes);
    let cleared = false;
    for (const range of this.#previous.bytes) if ((cleared = sameBytes(range, bytes))) break;
    if (!cleared && !clear(bytes)) return false;
    this.#current.bytes.push(bytes);
    return true;
  }

  /** A message of the current step's window, checked. */
  readonly of = (text: string): Checked => {
    let checked: Checked | undefined;
    const previous = this.#previous;
    for (let i = 0; i < previous.texts.length && checked === undefined; i++) if (previous.texts[i] === text) checked = previous.checked[i];
    checked ??= this.#check(text);
    this.#current.texts.push(text);
    this.#current.checked.push(checked);
    return checked;
  };
}

/** One step's window messages: given as text with their checks, and given as bytes and cleared. */
class StepTexts {
  readonly texts: string[] = [];
  readonly checked: Checked[] = [];
  readonly bytes: Utf8Range[] = [];

  clear(): this {
    this.texts.length = 0;
    this.checked.length = 0;
    this.bytes.length = 0;
    return this;
  }
}

function sameBytes(a: Utf8Range, b: Utf8Range): boolean {
  const length = a.end - a.start;
  if (b.end - b.start !== length) return false;
  const x = a.bytes;
  const y = b.bytes;
  for (let i = 0; i < length; i++) if (x[a.start + i] !== y[b.start + i]) return false;
  return true;
}
