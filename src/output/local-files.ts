import { createReadStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat as fsStat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ConfigError, IoError } from "../core/errors.js";
import { LocalFileWriter } from "./local-file-writer.js";
import type { PendingFlushes } from "./pending-flushes.js";
import type { FileWriter, Files, StoredFile } from "./storage.js";
import { ioStep, ioStepOr } from "../core/io-step.js";

/** {@link Files} under a local directory. */
export class LocalFiles implements Files {
  constructor(
    readonly location: string,
    /** Where a staging's files leave their sync to disk (`LocalFileWriter`); none: each syncs at its close. */
    private readonly flushes?: PendingFlushes,
  ) {}

  /** `target` itself, or the files of the local directory it names. */
  static of(target: string | Files): Files {
    return typeof target === "string" ? new LocalFiles(target) : target;
  }

  /** The local path of `path`. */
  at(path: string): string {
    if (path.split("/").some((part) => part === ".." || part === "") || /\\/.test(path)) {
      throw new ConfigError(`Expected a relative "/"-separated path inside ${this.location}, got ${JSON.stringify(path)}`);
    }
    return join(this.location, ...path.split("/"));
  }

  async create(path: string): Promise<FileWriter> {
    const local = this.at(path);
    await ioStep(dirname(local), "create", () => mkdir(dirname(local), { recursive: true }));
    return LocalFileWriter.create(local, this.flushes);
  }

  async read(path: string): Promise<AsyncIterable<Uint8Array> | null> {
    const local = this.at(path);
    // stat, not lstat: a published entry is a link into the current snapshot, and a dangling one is absent.
    return (await ioStepOr(local, "read", null, () => fsStat(local))) === null ? null : readStream(local);
  }

  async list(prefix: string): Promise<StoredFile[]> {
    const out: StoredFile[] = [];
    const cut = prefix.lastIndexOf("/") + 1;
    const walk = async (dir: string): Promise<void> => {
      const local = dir === "" ? this.location : this.at(dir);
      const entries = await ioStepOr(local, "list", [], () => readdir(local, { withFileTypes: true }));
      for (const entry of entries) {
        const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
        // A published top-level entry is a link into the current snapshot: followed (dangling: absent).
        const kind = entry.isSymbolicLink() ? await fsStat(this.at(path)).catch(() => null) : entry;
        if (kind === null) continue;
        if (kind.isDirectory()) {
          if (path.startsWith(prefix) || prefix.startsWith(`${path}/`)) await walk(path);
        } else if (kind.isFile() && path.startsWith(prefix)) {
          out.push({ path, bytes: (await fsStat(this.at(path))).size });
        }
      }
    };
    await walk(prefix.slice(0, Math.max(0, cut - 1)));
    return out;
  }

  async rename(from: string, to: string): Promise<void> {
    const target = this.at(to);
    await ioStep(target, "move into place", async () => {
      await mkdir(dirname(target), { recursive: true });
      await rename(this.at(from), target);
    });
  }

  async remove(path: string): Promise<void> {
    const local = this.at(path);
    await ioStep(local, "remove", () => rm(local, { recursive: true, force: true }));
  }
}

/** A read stream that reports a failure as an {@link IoError} naming the file. */
async function* readStream(path: string): AsyncIterable<Uint8Array> {
  try {
    yield* createReadStream(path) as AsyncIterable<Buffer>;
  } catch (error) {
    throw new IoError(`Cannot read ${path}: ${(error as Error).message}`, path, { cause: error });
  }
}
