const PATCHED = Symbol.for("evalshard.quietBrokenPipe");

/**
 * A reader that closes early (`evalshard pull --help | head -1`) is its choice, not a fault of the CLI: an
 * EPIPE on stdout ends the writing to it quietly, where Node would crash on the unhandled 'error' event with
 * a stack trace. The exit code stays the command's own; rows streamed with `--out -` still fail their run
 * (their write is refused, so the dataset is not said to be delivered). Any other stdout error still throws.
 */
export function quietBrokenPipe(stream: NodeJS.WriteStream = process.stdout): void {
  const marked = stream as NodeJS.WriteStream & { [PATCHED]?: true };
  if (marked[PATCHED]) return;
  marked[PATCHED] = true;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") {
      stream.destroy();
      return;
    }
    throw error;
  });
}
