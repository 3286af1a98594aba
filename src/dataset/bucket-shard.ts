import { parseExact } from "../core/exact-json.js";
import { open } from "node:fs/promises";
import { IoError } from "../core/errors.js";
import { LocalFiles } from "../output/local-files.js";
import type { Files } from "../output/storage.js";
import { partialPath } from "../output/shard-name.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat, ShardInfo, ShardWriter } from "../output/shard-format.js";
import type { StagedEntry } from "./incoming.js";

/**
 * Writes one bucket's shard at `path` from its staged file (local scratch), rows in the order given
 * (sorted by key). The shard is written under a hidden `.partial` name and renamed once complete.
 */
export async function writeBucketShard(options: {
  /** The staging's files, or a local directory. */
  readonly dir: string | Files;
  readonly path: string;
  readonly staged: string;
  readonly entries: readonly StagedEntry[];
  readonly format: ShardFormat;
  readonly columns: readonly Field[];
}): Promise<ShardInfo> {
  const files = LocalFiles.of(options.dir);
  const partial = partialPath(options.path);
  const source = await open(options.staged, "r");
  let writer: ShardWriter | null = null;
  try {
    writer = await options.format.open(await files.create(partial), options.columns);
    for (const run of contiguousRuns(options.entries)) {
      const start = run[0]!.offset;
      const last = run.at(-1)!;
      const size = last.offset + last.length - start;
      const buffer = Buffer.allocUnsafe(size);
      const { bytesRead } = await source.read(buffer, 0, size, start);
      if (bytesRead !== size) throw new IoError(`The staged file ${options.staged} is shorter than expected`, options.staged);
      for (const { offset, length } of run) {
        const json = buffer.toString("utf8", offset - start, offset - start + length);
        await writer.write(parseExact(json) as Record<string, unknown>);
      }
    }
    const { bytes, sha256 } = await writer.close();
    writer = null;
    await files.rename(partial, options.path);
    return { path: options.path, rows: options.entries.length, bytes, sha256 };
  } catch (error) {
    await writer?.abort().catch(() => undefined);
    await files.remove(partial).catch(() => undefined);
    throw error;
  } finally {
    await source.close();
  }
}

/** Most bytes read at once: consecutive rows that follow each other in the staged file are read together. */
const RUN_BYTES = 1 << 20;

/** Groups entries, kept in order, into runs that lie back to back in the staged file. */
function* contiguousRuns(entries: readonly StagedEntry[]): Generator<StagedEntry[]> {
  let run: StagedEntry[] = [];
  let end = -1;
  for (const entry of entries) {
    const start = run[0]?.offset ?? entry.offset;
    if (run.length > 0 && (entry.offset !== end || entry.offset + entry.length - start > RUN_BYTES)) {
      yield run;
      run = [];
    }
    run.push(entry);
    end = entry.offset + entry.length + 1;
  }
  if (run.length > 0) yield run;
}
