import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Flow } from "../../src/core/flow.js";
import type { TextLine } from "../../src/sources/line-source.js";

export const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));

/** Lines of a fixture file as source lines (blank lines skipped, numbered from 1). */
export function fixtureLines(name: string): TextLine[] {
  const text = readFileSync(`${FIXTURES}${name}`, "utf8");
  return linesOf(text.split("\n"), name);
}

export function linesOf(texts: readonly string[], source = "test"): TextLine[] {
  const out: TextLine[] = [];
  let offset = 0;
  texts.forEach((text, i) => {
    if (text.trim() !== "") out.push({ kind: "line", provenance: { source, line: i + 1, offset }, text, bytes: Buffer.byteLength(text) });
    offset += Buffer.byteLength(text) + 1;
  });
  return out;
}

export async function* from<T>(items: Iterable<T>): AsyncIterable<T> {
  yield* items;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Outcome per item: the kept value's run id, or the drop/quarantine reason. */
export function outcomes(flows: readonly Flow<{ record: Record<string, unknown> }>[]): string[] {
  return flows.map((f) => {
    switch (f.kind) {
      case "kept":
        return `kept:${String(f.value.record.run_id ?? f.value.record.run_chosen)}`;
      case "dropped":
        return `dropped:${f.reason}`;
      case "quarantined":
        return `quarantined:${f.reason}`;
      case "stream_error":
        return "stream_error";
    }
  });
}
