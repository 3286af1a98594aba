import { copyFile, link, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { IoError } from "../errors.js";
import type { Field } from "../schema/column-type.js";
import type { ShardFormat, ShardInfo, ShardWriter } from "../sinks/shard-writer.js";
import type { StagedEntry } from "./incoming.js";
import { syncAndHash } from "../sinks/sync-and-hash.js";

/**
 * Writes one bucket's shard at `dir/path` from its staged file, rows in the order given (sorted by
 * key). The shard is written under a hidden `.partial` name and renamed once complete and flushed.
 */
export async function writeBucketShard(options: {
  readonly dir: string;
  readonly path: string;
  readonly staged: string;
  readonly entries: readonly StagedEntry[];
  readonly format: ShardFormat;
  readonly columns: readonly Field[];
}): Promise<ShardInfo> {
  const target = join(options.dir, options.path);
  const partial = join(dirname(target), `.${options.path.slice(options.path.lastIndexOf("/") + 1)}.partial`);
  const source = await open(options.staged, "r");
  let writer: ShardWriter | null = null;
  try {
    writer = await options.format.open(partial, options.columns);
    for (const run of contiguousRuns(options.entries)) {
      const start = run[0]!.offset;
      const last = run.at(-1)!;
      const size = last.offset + last.length - start;
      const buffer = Buffer.allocUnsafe(size);
      const { bytesRead } = await source.read(buffer, 0, size, start);
      if (bytesRead !== size) throw new IoError(`The staged file ${options.staged} is shorter than expected`, options.staged);
      for (const { offset, length } of run) {
        const json = buffer.toString("utf8", offset - start, offset - start + length);
        await writer.write(JSON.parse(json) as Record<string, unknown>, json);
      }
    }
    await writer.close();
    writer = null;
    const { bytes, sha256 } = await syncAndHash(partial);
    await rename(partial, target);
    return { path: options.path, rows: options.entries.length, bytes, sha256 };
  } catch (error) {
    await writer?.abort().catch(() => undefined);
    await rm(partial, { force: true });
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

/** Puts the published shard `outDir/path` into `dir/path` without rewriting it: a hard link, or a copy where links fail. */
export async function reuseShard(outDir: string, dir: string, path: string): Promise<void> {
  const from = join(outDir, path);
  const to = join(dir, path);
  try {
    await link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "EXDEV" && code !== "ENOTSUP" && code !== "EMLINK") {
      throw new IoError(`Cannot link ${from} into the staging directory: ${(error as Error).message}`, from, { cause: error });
    }
    await copyFile(from, to);
  }
}

