import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunningEmulator } from "../../src/service/index.js";
import { PYTHON, RUN_AND_EXIT } from "./python.js";
import { s3rverCliEnv } from "./s3rver.js";
import type { S3Server } from "./s3rver.js";

// What the README's scheduler recipes (Slurm, Kubernetes) run with in the tests that run them as written.
const REPO = new URL("../..", import.meta.url).pathname;
const run = promisify(execFile);

/** The README's one ```LANG block holding `marker`, as written. */
export function readmeBlock(lang: "sh" | "yaml", marker: string): string {
  const blocks = [...readFileSync(join(REPO, "README.md"), "utf8").matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1] as string);
  const found = blocks.filter((b) => b.includes(marker));
  if (found.length !== 1) throw new Error(`expected one README ${lang} block with ${marker}, found ${found.length}`);
  return found[0] as string;
}

/** The environment a job starts with: the service, S3 and `evalshard` (linked in `work/bin`) on PATH, one night. */
export function recipeEnv(at: { server: S3Server; emu: RunningEmulator; work: string; night: string }, out: string): Record<string, string> {
  return {
    ...s3rverCliEnv(at.server),
    PATH: `${join(at.work, "bin")}:${process.env.PATH ?? ""}`,
    HOME: at.work,
    EVAL_BASE_URL: at.emu.url,
    EVAL_OWNER_TOKEN: at.emu.ownerToken,
    EVALSHARD_OUT: out,
    EVALSHARD_NIGHT: at.night,
  };
}

/** Rows of a dataset as read_s3_rows.py reports them: how many, a digest of them in any order, its snapshot. */
export interface S3Rows {
  rows: number;
  rows_sha256: string;
  snapshot: number;
}

/** The rows of each dataset at s3://BUCKET/PREFIX, read with boto3 and pyarrow as a trainer would, in one Python start (read_s3_rows.py). */
export async function s3Rows(server: S3Server, bucket: string, prefixes: readonly string[], work: string): Promise<S3Rows[]> {
  const dir = join(work, "read");
  mkdirSync(dir, { recursive: true });
  const { stdout } = await run(PYTHON, [RUN_AND_EXIT, join(REPO, "test/slurm/read_s3_rows.py"), server.endpoint, bucket, dir, ...prefixes], { env: { ...process.env, ...s3rverCliEnv(server) } });
  return JSON.parse(stdout) as S3Rows[];
}
