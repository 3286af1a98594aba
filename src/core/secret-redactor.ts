import { decodedText, decodedViews, sourceSpans, type DecodedView } from "./decoded-view.js";
import { FormScanner } from "./form-scanner.js";
import { secretForms, SHORTEST_SECRET } from "./secret-forms.js";

/** What stands in for a secret wherever one would have been shown. */
export const REDACTED = "[REDACTED]";

/**
 * Removes secrets from text: verbatim, encoded (secret-forms.ts), escaped (decoded-view.ts), and any
 * fragment of `minFragment` characters or more. The text is scanned as it is and through each of its
 * decoded views (one per escape layer), against the forms both as they are and read through the same
 * decoding (so a secret that holds `\` or `%` still matches itself). A match in a view removes the
 * original stretch it came from.
 */
export class SecretRedactor {
  readonly #forms = new FormScanner();
  readonly #tiny: string[] = [];

  constructor(secrets: Iterable<string>) {
    const seen = new Set<string>();
    for (const secret of new Set(secrets)) {
      if (secret.length > 0 && secret.length < SHORTEST_SECRET) this.#tiny.push(secret);
      for (const form of secretForms(secret)) {
        const decoded = decodedText(form.text);
        // Characters the view folds away shorten every stretch of the form by as many at most.
        for (const text of [form.text, decoded]) {
          if (seen.has(text)) continue;
          seen.add(text);
          this.#forms.add({ ...form, text, min: form.min - (form.text.length - text.length) });
        }
      }
    }
  }

  /** Whether there is anything to look for. */
  get empty(): boolean {
    return this.#forms.size === 0 && this.#tiny.length === 0;
  }

  /** `text` with every stretch that shows a secret replaced by {@link REDACTED}. */
  redact(text: string): string {
    const spans = this.spans(text);
    if (spans.length === 0) return text;
    let out = "";
    let at = 0;
    for (const [start, end] of spans) {
      out += text.slice(at, start) + REDACTED;
      at = end;
    }
    return out + text.slice(at);
  }

  /** Whether `text` shows a secret anywhere. */
  mentions(text: string): boolean {
    return this.spans(text).length > 0;
  }

  /** The stretches of `text` that show a secret, sorted and merged, as [start, end). */
  spans(text: string): [number, number][] {
    if (this.empty) return [];
    const found: [number, number][] = [];
    for (const tiny of this.#tiny) for (let at = text.indexOf(tiny); at >= 0; at = text.indexOf(tiny, at + tiny.length)) found.push([at, at + tiny.length]);
    this.#forms.scan(text, found);
    if (this.#forms.size === 0) return merged(found);
    const views = decodedViews(text);
    for (let layer = 0; layer < views.length; layer++) {
      const inView: [number, number][] = [];
      this.#forms.scan((views[layer] as (typeof views)[number]).text, inView);
      if (inView.length > 0) found.push(...inView.map((span) => inText(span, views, layer)));
    }
    return merged(found);
  }
}

/** A match in layer `layer` of `views`, as the stretch of the original text it came from. */
function inText(span: [number, number], views: readonly DecodedView[], layer: number): [number, number] {
  let [start, end] = span;
  for (let k = layer; k >= 0; k--) {
    const { starts, ends } = sourceSpans(views[k] as DecodedView);
    [start, end] = [starts[start] as number, ends[end - 1] as number];
  }
  return [start, end];
}

function merged(spans: [number, number][]): [number, number][] {
  if (spans.length <= 1) return spans;
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last !== undefined && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([span[0], span[1]]);
  }
  return out;
}
