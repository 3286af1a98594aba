import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ConfigError } from "../core/errors.js";
import { outputLocation } from "./output-location.js";

/**
 * Refuses a local output inside one of the inputs (the next run would read its own shards back as input)
 * or an input inside the output (a publish may replace it, and it ends up in the dataset's tree), naming
 * both (issue 40). Paths are compared through symbolic links; `-` (stdin) is no path.
 */
export async function refuseOutputInInput(out: string, inputs: readonly string[]): Promise<void> {
  if (outputLocation(out).kind !== "local") return;
  const output = await realPath(out);
  for (const input of inputs) {
    if (input === "-") continue;
    const source = await realPath(input);
    if (within(source, output)) {
      throw new ConfigError(`--out ${JSON.stringify(out)} is inside the input ${JSON.stringify(input)}: the next run would read its own output as input. Write the dataset outside the inputs`);
    }
    if (within(output, source)) {
      throw new ConfigError(`The input ${JSON.stringify(input)} is inside --out ${JSON.stringify(out)}: a publish may replace it. Keep inputs outside the dataset's folder`);
    }
  }
}

/** Whether `path` is `folder` or below it. */
function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The path with every symbolic link of its existing part resolved (the rest may not exist yet). */
async function realPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const real = await realpath(absolute).catch(() => null);
  if (real !== null) return real;
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(await realPath(parent), basename(absolute));
}
