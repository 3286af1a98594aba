import { ConfigError, IoError } from "../core/errors.js";
import type { ShardInfo } from "./shard-format.js";
import { partialShardName, shardName } from "./shard-name.js";
import type { FileWriter, Files, WrittenFile } from "./storage.js";

/** A shard file closed under its hidden name. */
export interface ClosedShard {
  readonly rows: number;
  readonly file: WrittenFile;
}

/**
 * The shard files of one split under `data/`: each is created under a hidden name
 * (`data/.train-00000.parquet.partial`), which no reader's `train-*` or `*.parquet` pattern matches, and
 * gets its published name in the Hugging Face layout (`data/train-00000-of-00003.parquet`) once the total
 * is known.
 */
export class ShardFiles {
  readonly #partials: string[] = [];
  readonly #named: string[] = [];
  #checked = false;

  constructor(
    private readonly files: Files,
    readonly split: string,
    private readonly extension: string,
  ) {
    if (!/^\w+(\.\w+)*$/.test(split)) {
      throw new ConfigError(`Expected the split name to be letters, digits and "_" (dot-separated), got ${JSON.stringify(split)}`);
    }
  }

  /** Shards created so far. */
  get count(): number {
    return this.#partials.length;
  }

  /** Creates the next shard under its hidden name. */
  async create(): Promise<FileWriter> {
    if (!this.#checked) {
      this.#checked = true;
      const split = this.split;
      const clash = (await this.files.list("data/")).map((f) => f.path.slice("data/".length)).find((n) => n.startsWith(`${split}-`) || n.startsWith(`.${split}-`));
      if (clash !== undefined) {
        const dir = `${this.files.location}/data`;
        throw new IoError(`${dir} already holds shards of split "${split}" (${clash}): write into an empty directory`, dir);
      }
    }
    const path = `data/${partialShardName(this.split, this.#partials.length, this.extension)}`;
    this.#partials.push(path);
    return this.files.create(path);
  }

  /** Gives the closed shards, all of them in order, their published names. */
  async name(closed: readonly ClosedShard[]): Promise<ShardInfo[]> {
    const infos: ShardInfo[] = [];
    for (const [i, shard] of closed.entries()) {
      const path = `data/${shardName(this.split, i, closed.length, this.extension)}`;
      await this.files.rename(this.#partials[i] as string, path);
      this.#named.push(path);
      infos.push({ path, rows: shard.rows, bytes: shard.file.bytes, sha256: shard.file.sha256 });
    }
    return infos;
  }

  /** Removes every shard file, named or not. */
  async remove(): Promise<void> {
    for (const path of [...this.#partials, ...this.#named]) await this.files.remove(path).catch(() => undefined);
    // data/ goes too when nothing else is in it (a directory on a local disk; nothing on object storage).
    if (this.#checked && (await this.files.list("data/").catch(() => [null])).length === 0) await this.files.remove("data").catch(() => undefined);
  }
}
