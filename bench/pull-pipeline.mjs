/**
 * The pipeline file the pull benches run: an owner pull of `format` from `url` into `out`, Parquet with zstd,
 * 16 buckets, `concurrency` requests at a time, hedges `hedge` (on or off; default the pipeline's own, on).
 * One text, so the fault bench and the scaling bench pull the same way.
 */
export function pullPipelineText({ name, url, format, concurrency, out, hedge }) {
  return [
    "version: 1",
    `name: ${name}`,
    "source:",
    "  kind: http",
    `  base_url: ${url}`,
    "  auth: owner",
    `  format: ${format}`,
    `  concurrency: ${concurrency}`,
    ...(hedge === undefined ? [] : [`  hedge: ${hedge}`]),
    "output:",
    `  dir: ${out}`,
    "  to: parquet",
    "  compression: zstd",
    "  buckets: 16",
  ].join("\n");
}
