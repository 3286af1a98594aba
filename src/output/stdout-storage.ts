import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { ConfigError } from "../core/errors.js";
import { filesOf } from "./files-of.js";
import { LocalFileWriter } from "./local-file-writer.js";
import type { FileWriter, Lock, Staging, Storage, StoredFile, WrittenFile } from "./storage.js";

/** Where `--out -` sends what it writes. */
export interface StdoutTargets {
  /** The shards' bytes, one after another. Default process.stdout. */
  readonly data?: Writable;
  /** The manifest, when no file is given. Default process.stderr. */
  readonly log?: Writable;
  /** A file for the manifest instead of `log`. */
  readonly manifestFile?: string;
}

/**
 * `--out -`: a dataset for a pipe. Shards (`data/…`) stream to stdout as they are written, so JSON Lines
 * shards concatenate into one JSONL stream; `manifest.json` goes to stderr or a file; the card and the
 * quarantine are not written (the manifest still counts every quarantined line). A pipe cannot be published
 * atomically nor locked, so publish only cleans up; nothing here is ever read back.
 */
export class StdoutStorage implements Storage {
  readonly location = "-";

  constructor(private readonly targets: StdoutTargets = {}) {}

  create(path: string): Promise<FileWriter> {
    if (path.startsWith("data/")) return Promise.resolve(new StreamWriter(path, this.targets.data ?? process.stdout));
    if (path !== "manifest.json") return Promise.resolve(new StreamWriter(path, null));
    if (this.targets.manifestFile !== undefined) return LocalFileWriter.create(this.targets.manifestFile);
    return Promise.resolve(new StreamWriter(path, this.targets.log ?? process.stderr));
  }

  read(): Promise<null> {
    return Promise.resolve(null);
  }

  /** A pipe holds nothing to replace. */
  foreignFile(): Promise<null> {
    return Promise.resolve(null);
  }

  list(): Promise<StoredFile[]> {
    return Promise.resolve([]);
  }

  rename(): Promise<void> {
    return Promise.resolve();
  }

  remove(): Promise<void> {
    return Promise.resolve();
  }

  lock(): Promise<Lock> {
    return Promise.resolve({ release: () => Promise.resolve() });
  }

  async stage(): Promise<Staging> {
    const scratch = await mkdtemp(join(tmpdir(), "evalshard-stdout-"));
    const done = () => rm(scratch, { recursive: true, force: true });
    return {
      ...filesOf(this),
      scratch,
      reuse: (path) => Promise.reject(new ConfigError(`Cannot reuse ${path} on standard output: it keeps nothing`)),
      publish: done,
      // The rows already went down the pipe: a refused run can only say so (exit code, manifest), not take them back.
      reject: async () => {
        await done();
        return this.location;
      },
      abort: done,
    };
  }
}

/** Bytes to a stream, or counted and dropped (`to` null), hashed on the way; waits for the stream to take each chunk. */
class StreamWriter implements FileWriter {
  bytes = 0;
  readonly #hash = createHash("sha256");

  constructor(
    readonly name: string,
    private readonly to: Writable | null,
  ) {}

  async write(bytes: Uint8Array): Promise<void> {
    this.#hash.update(bytes);
    this.bytes += bytes.byteLength;
    const to = this.to;
    if (to === null) return;
    // Resolved once the stream has flushed the chunk: the caller may reuse its buffer then, and a slow
    // reader holds the writer back instead of the stream buffering the dataset.
    await new Promise<void>((resolve, reject) => to.write(bytes, (error) => (error == null ? resolve() : reject(error))));
  }

  close(): Promise<WrittenFile> {
    return Promise.resolve({ bytes: this.bytes, sha256: this.#hash.digest("hex") });
  }

  abort(): Promise<void> {
    return Promise.resolve();
  }
}
