import { ConfigError } from "../core/errors.js";
import { publishedManifest } from "./published-manifest.js";
import { manifestRows } from "./published-rows.js";
import { refuseOutputInInput } from "./refuse-output-in-input.js";
import { storageFor } from "./storage-for.js";
import type { Files, Storage } from "./storage.js";

/** How a run opens its output: what it reads, its storage's settings, and whether foreign files may stay. */
export interface OutputOpening {
  readonly inputs: readonly string[];
  readonly storage: Parameters<typeof storageFor>[1];
  /** Write into an output that holds files evalshard did not write (issue 40); refused otherwise. */
  readonly force: boolean;
}

/**
 * The dataset at `out` opened for one run (convert, a night), through the sink `openSink` makes of its
 * storage (which locks it and recovers whatever a crashed run left). Issue 40: nothing is created (nor any
 * file of the user's replaced) where the output lies in an input or holds files evalshard did not write; and
 * the rows it publishes now, read holding the lock, are what the shrink guard compares a run with.
 */
export async function openOutput<S extends { readonly storage: Files; abort(): Promise<void> }>(out: string, opening: OutputOpening, openSink: (storage: Storage) => Promise<S>): Promise<{ readonly sink: S; readonly published: number | null }> {
  await refuseOutputInInput(out, opening.inputs);
  const storage = await storageFor(out, opening.storage);
  if (!opening.force) await refuseForeignOutput(storage);
  const sink = await openSink(storage);
  try {
    return { sink, published: manifestRows(await publishedManifest(sink.storage)) };
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/** A publish replaces what it finds at the dataset's names, and the user's own files must never go with it. */
async function refuseForeignOutput(storage: Storage): Promise<void> {
  const foreign = await storage.foreignFile();
  if (foreign === null) return;
  throw new ConfigError(
    `Output ${storage.location} holds ${JSON.stringify(foreign)}, which evalshard did not write: a publish replaces what it finds at a dataset's names (data, README.md, manifest.json, _quarantine, ...). ` +
      `Choose a new or empty folder (or a dataset evalshard wrote), or pass --force to write there anyway`,
  );
}
