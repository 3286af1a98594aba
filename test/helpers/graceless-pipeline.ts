import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/**
 * A copy of pipeline file `path` in `dir` with `output.snapshot_grace: 0`, for tests whose subject is not a
 * reader during a publish: each night that replaces a snapshot would otherwise wait its 5 s grace out.
 */
export function gracelessPipeline(path: string, dir: string): string {
  const copy = join(dir, basename(path));
  writeFileSync(copy, readFileSync(path, "utf8").replace(/^output:\n/m, "output:\n  snapshot_grace: 0\n"));
  return copy;
}
