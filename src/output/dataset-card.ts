import type { FormatBasics, FormatName } from "../formats/format.js";
import type { Field } from "../schema/column-type.js";
import { walkColumns } from "../schema/field-path.js";
import { hfFeatures } from "../schema/hf-features.js";
import { yamlOf } from "./yaml-of.js";
import type { ShardInfo } from "./shard-format.js";
import type { SplitManifest } from "../splits/split-assigner.js";

/** What {@link datasetCard} describes. */
export interface DatasetCardOptions {
  /** The export format the records follow. */
  readonly format: FormatBasics;
  /** The columns as written (after stripping). */
  readonly columns: readonly Field[];
  readonly shards: readonly ShardInfo[];
  /** Default "train". */
  readonly splitName?: string;
  /**
   * Where the shards are relative to the card, when not at their paths (the staging's `base`: a snapshot
   * folder on object storage). Then the card lists every shard by name, so no glob can pick up another
   * snapshot's files.
   */
  readonly base?: string;
  /** A training view's dataset: its name and the card's paragraph on it (`viewCard`). */
  readonly view?: { readonly name: string; readonly lines: readonly string[] };
  /**
   * A split dataset (`--split`): every shard names its split, and the card lists each split's files and the
   * realised fractions. `splitName` is then unused.
   */
  readonly split?: SplitManifest;
  /** Issue 35: the sentence saying which benchmark suites' scenarios the dataset excludes. */
  readonly decontamination?: string;
}

const TITLES: Readonly<Record<FormatName, string>> = {
  sft: "SFT fine-tuning records",
  rl: "RL trajectory records",
  dpo: "DPO preference-pair records",
};

/**
 * The output directory's README.md: YAML front matter that lets `datasets.load_dataset(dir)` load the
 * shards as they are (data files, features, split size), then a short description for people.
 */
export function datasetCard(options: DatasetCardOptions): string {
  const split = options.splitName ?? "train";
  // A split no row fell in is left out: `datasets` refuses to load an empty split (and a nightly one has no
  // file to match). The paragraph below still names it, with its 0 rows.
  const names = options.split === undefined ? [split] : nonEmpty(Object.keys(options.split.fractions), options.shards);
  const shardsOf = (name: string) => (options.split === undefined ? options.shards : options.shards.filter((s) => s.split === name));
  const parquet = options.shards.every((s) => s.path.endsWith(".parquet"));
  const rows = options.shards.reduce((n, s) => n + s.rows, 0);
  const bytes = options.shards.reduce((n, s) => n + s.bytes, 0);
  const meta = {
    configs: [{ config_name: "default", data_files: names.map((name) => ({ split: name, path: dataFiles(options, name, shardsOf(name)) })) }],
    dataset_info: {
      // The features describe the Parquet layout, which the JSONL rows share (src/sinks/tabular-row.ts): both
      // outputs of one input load with the same features.
      features: hfFeatures(options.columns),
      // num_examples is checked by `datasets` on load; num_bytes is the shards' size on disk.
      splits: names.map((name) => {
        const of = shardsOf(name);
        return { name, num_examples: of.reduce((n, s) => n + s.rows, 0), num_bytes: of.reduce((n, s) => n + s.bytes, 0) };
      }),
      download_size: bytes,
    },
  };
  const view = options.view;
  const title = view === undefined ? TITLES[options.format.name] : `${view.name} training rows from ${TITLES[options.format.name]}`;
  const kind = parquet ? "Parquet" : "JSON Lines";
  const jsonPaths = pathsOf(options.columns, "json");
  const mapPaths = pathsOf(options.columns, "map");
  const lines = [
    `# ${title} (evalshard)`,
    "",
    `${title}, \`${options.format.versionField}\` ${options.format.version}, converted by evalshard from evaluation-service exports:`,
    `validated, filtered and ${view === undefined ? "stripped" : "turned into training rows"}, ${rows} rows in ${options.shards.length} ${kind} shard${options.shards.length === 1 ? "" : "s"} under \`data/\`.`,
    "",
    ...(options.decontamination === undefined ? [] : [options.decontamination, ""]),
    ...(view === undefined ? [] : view.lines),
    ...(options.split === undefined ? [] : splitLines(options.split)),
    "```python",
    "from datasets import load_dataset",
    options.split === undefined ? `ds = load_dataset("path/to/this/directory", split="${split}")` : `ds = load_dataset("path/to/this/directory")  # a DatasetDict: ${names.map((n) => `ds["${n}"]`).join(", ")}`,
    "```",
    "",
  ];
  if (jsonPaths.length > 0) {
    lines.push(`Values whose shape the service does not specify are stored as JSON text in plain string columns (parse them with \`json.loads\`): ${codeList(jsonPaths)}.`, "");
  }
  if (mapPaths.length > 0) {
    lines.push(`Maps are stored as lists of \`{key, value}\` entries, which \`datasets\` can load: ${codeList(mapPaths)}.`, "");
  }
  lines.push(
    "`manifest.json` lists every shard with its row count, size and SHA-256, the inputs, and how many records were dropped or quarantined and why.",
    "Its `stats` section gives the rows' score distributions, rows per scenario and per split (and a tokenized view's token lengths), counted as the rows were written; `evalshard report` draws them.",
    "`_quarantine/` holds the input lines that failed validation, each with its source, line number and reason.",
    "",
  );
  return `---\n${yamlOf(meta)}---\n\n${lines.join("\n")}`;
}

function dataFiles(options: DatasetCardOptions, split: string, shards: readonly ShardInfo[]): string | string[] {
  const base = options.base ?? "";
  return base === "" ? `data/${split}-*` : shards.map((s) => `${base}${s.path}`);
}

/** The splits holding rows, in order; the first split when none does (an empty dataset still loads as one). */
function nonEmpty(names: readonly string[], shards: readonly ShardInfo[]): string[] {
  const kept = names.filter((name) => shards.some((s) => s.split === name && s.rows > 0));
  return kept.length > 0 ? kept : names.slice(0, 1);
}

/** The card's paragraph on a split: what keeps rows together, the seed, and asked against realised fractions. */
function splitLines(split: SplitManifest): string[] {
  const group = split.by === "scenario" ? "scenario (`scenario.campaign_id`)" : "run (`run_id`)";
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const empty = Object.entries(split.splits).filter(([, c]) => c.rows === 0).map(([name]) => name);
  return [
    `Split by ${group}: every row of a ${split.by} is in one split, chosen by a keyed hash of its id (HMAC-SHA256, seed \`${split.seed}\`), so a ${split.by} never moves between splits as the dataset grows.`,
    "",
    "| split | asked | rows | share of rows | groups | share of groups |",
    "|---|---|---|---|---|---|",
    ...Object.entries(split.splits).map(([name, c]) => `| ${name} | ${pct(split.fractions[name] ?? 0)} | ${c.rows} | ${pct(c.row_fraction)} | ${c.groups} | ${pct(c.group_fraction)} |`),
    "",
    ...(empty.length === 0 ? [] : [`No group fell in ${empty.map((n) => `\`${n}\``).join(", ")}: with few groups the realised fractions stray from the asked ones. An empty split is left out of \`configs\`, as \`datasets\` cannot load one.`, ""]),
  ];
}

function pathsOf(fields: readonly Field[], kind: "json" | "map"): string[] {
  const out: string[] = [];
  walkColumns(fields, (type, path) => type.kind === kind && out.push(path));
  return out;
}

function codeList(paths: readonly string[]): string {
  return paths.map((p) => `\`${p}\``).join(", ");
}
