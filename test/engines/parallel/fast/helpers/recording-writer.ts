import type { LeafType } from "../../../../../src/parquet/column-plan.js";
import type { LeafWriter } from "../../../../../src/parquet/leaf-writer.js";

/** One entry of a leaf column: a value or a missing one, with its levels. */
export type Entry = { readonly rep: number; readonly def: number } | { readonly rep: number; readonly value: string | number | boolean; readonly as: string };

// ignoreBOM: a value may start with U+FEFF, which must come through as written.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A leaf writer that records every entry, copying bytes at once (as the contract requires). */
export class RecordingWriter implements LeafWriter {
  readonly entries: Entry[] = [];
  bytes(src: Uint8Array, start: number, end: number, rep: number): void {
    this.entries.push({ rep, value: decoder.decode(src.slice(start, end)), as: "text" });
  }
  text(value: string, rep: number): void {
    this.entries.push({ rep, value, as: "text" });
  }
  int64(value: number, rep: number): void {
    this.entries.push({ rep, value, as: "int64" });
  }
  float64(value: number, rep: number): void {
    this.entries.push({ rep, value, as: "float64" });
  }
  bool(value: boolean, rep: number): void {
    this.entries.push({ rep, value, as: "bool" });
  }
  missing(def: number, rep: number): void {
    this.entries.push({ rep, def });
  }
}

export function recorders(count: number): RecordingWriter[] {
  return Array.from({ length: count }, () => new RecordingWriter());
}

/**
 * The entries of every leaf, JSON leaves normalised through JSON.parse (their text may differ: raw copy
 * versus JSON.stringify), so `toEqual` compares what a reader would see.
 */
export function columnsOf(writers: readonly RecordingWriter[], types: readonly LeafType[]): Entry[][] {
  return writers.map((w, i) =>
    types[i] !== "json" ? w.entries : w.entries.map((e) => ("value" in e ? { ...e, value: JSON.stringify(JSON.parse(String(e.value))) } : e)),
  );
}
