import type { LineSource, ReadOptions, SourceLine } from "./line-source.js";

/** Reads every source in order as one stream of lines. */
export async function* concatLines(sources: readonly LineSource[], read: ReadOptions = {}): AsyncIterable<SourceLine> {
  for (const source of sources) yield* source.lines(read);
}
