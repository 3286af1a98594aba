import { readFile } from "node:fs/promises";
import { ConfigError } from "./errors.js";

/** A file an option names, as UTF-8 text; a ConfigError naming the option and the path when it cannot be read. */
export async function readOptionFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read ${flag} ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
