import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../core/errors.js";
import { fileSource } from "./file-source.js";
import type { LineSource } from "./line-source.js";
import { readError } from "./read-error.js";
import { stdinSource, type StdinOptions } from "./stdin-source.js";

/** Names of the files a directory input contributes: exports, plain or compressed. */
const INPUT_FILE = /\.(?:ndjson|jsonl)(?:\.gz|\.zst)?$/;

/**
 * Turns the input arguments into sources, in order: `-` is stdin (at most once), a file is taken whatever
 * its name, and a directory contributes every `.ndjson` / `.jsonl` file below it (optionally `.gz` or
 * `.zst`), sorted by path so that runs are reproducible. Symbolic links to directories are not followed,
 * which keeps a link cycle from looping.
 *
 * @throws ConfigError for a path that does not exist, a second `-`, or a directory without input files
 */
export async function expandInputs(inputs: readonly string[], options: StdinOptions): Promise<LineSource[]> {
  const sources: LineSource[] = [];
  let sawStdin = false;
  for (const input of inputs) {
    if (input === "-") {
      if (sawStdin) throw new ConfigError('Input "-" (stdin) is given more than once; it can be read only once');
      sawStdin = true;
      sources.push(stdinSource(options));
      continue;
    }
    if (!(await isDirectory(input))) {
      sources.push(fileSource(input));
      continue;
    }
    const files = await inputFilesUnder(input);
    if (files.length === 0) {
      throw new ConfigError(`Input directory "${input}" contains no .ndjson or .jsonl files (optionally .gz or .zst)`);
    }
    sources.push(...files.map(fileSource));
  }
  return sources;
}

async function isDirectory(input: string): Promise<boolean> {
  try {
    return (await stat(input)).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new ConfigError(`Input "${input}" does not exist`);
    throw readError(input, err);
  }
}

/** Input files anywhere below `dir`, sorted by path (by code unit, not by locale). */
async function inputFilesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (err) {
      throw readError(current, err);
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (INPUT_FILE.test(entry.name) && (entry.isFile() || (await isLinkedFile(path)))) found.push(path);
    }
  };
  await walk(dir);
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function isLinkedFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false; // a dangling link is no input
  }
}
