import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { PYTHON } from "./python.js";

const BATCH = fileURLToPath(new URL("./python_batch.py", import.meta.url));

/** What a script run in the batch gave: as a process of its own would have. */
export interface PythonRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * One Python process a test file runs all its Python scripts in, one after another (python_batch.py): each
 * start importing pyarrow, datasets, transformers or TRL costs seconds, so a file pays them once. It starts
 * importing `warm` at once, while the test writes what it will read.
 */
export class PythonBatch {
  private readonly child: ChildProcess;
  private readonly waiting: ((line: string | Error) => void)[] = [];
  private readonly readyLine: Promise<string | Error>;
  private stderrTail = "";
  private exited: Error | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(env: Record<string, string | undefined>, warm: readonly string[] = []) {
    this.child = spawn(PYTHON, ["-u", BATCH, ...warm], { env: { ...process.env, ...env }, stdio: ["pipe", "ignore", "pipe", "pipe"] });
    this.child.stderr?.on("data", (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-4000)));
    this.readyLine = new Promise((resolve) => this.waiting.push(resolve));
    createInterface({ input: this.child.stdio[3] as Readable }).on("line", (line) => this.waiting.shift()?.(line));
    const fail = (error: Error) => {
      this.exited = error;
      for (const w of this.waiting.splice(0)) w(error);
    };
    this.child.on("error", fail);
    // A write to a Python that died fails with EPIPE: the exit below says why, with its stderr.
    this.child.stdin?.on("error", () => undefined);
    this.child.on("exit", (code, signal) => fail(new Error(`${PYTHON} ${BATCH} exited (${code ?? signal}): ${this.stderrTail}`)));
  }

  /** Whether the `warm` modules imported (the readers are installed); the import error otherwise. */
  async ready(): Promise<true | string> {
    const line = await this.readyLine;
    if (line instanceof Error) return line.message;
    const r = JSON.parse(line) as { ready: boolean; error?: string };
    return r.ready ? true : (r.error ?? "import failed");
  }

  /** `python SCRIPT ARGS...`, in this process; its exit status, stdout and stderr. */
  run(script: string, args: readonly string[]): Promise<PythonRun> {
    const next = this.queue.then(async () => {
      await this.readyLine;
      if (this.exited !== undefined) throw this.exited;
      const answered = new Promise<string | Error>((resolve) => this.waiting.push(resolve));
      (this.child.stdin as Writable).write(`${JSON.stringify({ script, args })}\n`);
      const line = await answered;
      if (line instanceof Error) throw line;
      return JSON.parse(line) as PythonRun;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** {@link run}, throwing (with the script's stderr) unless it exits 0: execFile's contract. */
  async stdout(script: string, args: readonly string[]): Promise<string> {
    const r = await this.run(script, args);
    if (r.status !== 0) throw new Error(`python ${script} ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-4000)}`);
    return r.stdout;
  }

  close(): void {
    this.child.stdin?.end();
  }
}
