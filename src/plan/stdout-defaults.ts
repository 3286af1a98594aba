/**
 * `--out -` writes for a pipe and a reader such as `head` or `jq`: without a named `compression`, its JSON
 * Lines are plain UTF-8 text. Named, the codec is kept: `--compression zstd` into `zstd -d` is a choice.
 */
export function withStdoutDefaults<O extends object>(options: O): O {
  const given = options as { readonly out?: unknown; readonly compression?: unknown };
  // "-" is standard output (output-location.ts); any other value is checked, with its message, by the table.
  if (given.out !== "-" || given.compression !== undefined) return options;
  return { ...options, compression: "none" };
}
