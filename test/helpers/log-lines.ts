/**
 * A command's standard error without its JSON log lines (a convert's phases, a night's: what it writes off a
 * terminal), so a test can still require that nothing else, no warning and no error, was printed.
 */
export function withoutLogLines(stderr: string): string {
  return stderr
    .split(/(?<=\n)/)
    .filter((line) => !isLogLine(line))
    .join("");
}

/** The JSON log lines of a command's standard error, parsed. */
export function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split("\n")
    .filter(isLogLine)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function isLogLine(line: string): boolean {
  if (!line.startsWith("{")) return false;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    return typeof value.ts === "string" && typeof value.phase === "string";
  } catch {
    return false;
  }
}
