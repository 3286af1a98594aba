import type { LineSource } from "./line-source.js";
import { decompress } from "./decompress.js";
import { Rereadable } from "./rereadable.js";

const NAME = "-";

/** Where stdin is spooled, and which stream stands for stdin. */
export interface StdinOptions {
  /** Where to spool the raw input so it can be read again; the caller owns it and removes it. */
  readonly spoolDir: string;
  /** The stream to read; defaults to `process.stdin`. */
  readonly stdin?: NodeJS.ReadableStream | undefined;
}

/**
 * Standard input as a source named "-". Stdin can be read only once, so the first read copies its raw
 * bytes to a spool file while yielding lines, and later reads (and `info()`) use that file. Gzip and
 * zstd are recognised by their first bytes.
 *
 * A read that starts while the first one is still under way waits until stdin is fully spooled.
 */
export function stdinSource(options: StdinOptions): LineSource {
  return new Rereadable(() => options.stdin ?? process.stdin, options.spoolDir).source(NAME, (raw) => decompress(raw, { name: NAME }));
}
