import { availableParallelism } from "node:os";
import type { Readable } from "node:stream";
import { FORMAT_NAMES } from "../formats/format.js";
import type { FormatName } from "../formats/format.js";
import { FILTER_RULES } from "../core/reasons.js";
import { GATE_BY } from "../formats/card-gate.js";
import { UNTRUSTED_ACTIONS } from "../stages/untrusted-policy.js";
import { bytes, choice, finiteNumber, flag, fractions, inputs, opaque, partition, pathList, pathPolicies, ratio, seconds, switches, text, textList, url, wholeNumber } from "./option-kind.js";
import { defineOptions } from "./option-spec.js";
import { VIEW_NAMES } from "../views/view.js";
import { DEFAULT_SPLIT_SEED, SPLIT_BY } from "../splits/split-by.js";
import { DEFAULT_MAX_LINE_BYTES } from "../sources/split-batch.js";
import { KEPT_SNAPSHOTS } from "../output/kept-snapshots.js";
import type { OptionsOf } from "./option-spec.js";

export const OUTPUT_KINDS = ["parquet", "jsonl"] as const;
export const COMPRESSIONS = ["zstd", "gzip", "snappy", "none"] as const;
const FORMATS = FORMAT_NAMES as readonly [FormatName, ...FormatName[]];

/**
 * Every run option, once: its type and constraint, default, CLI flag and help, pipeline-file key, and the
 * commands that take it. The CLI's flags, the library's option types and checks, the pipeline file's
 * schema and the RunPlan are all derived from this table; adding an option is adding an entry here (and,
 * if the plan should carry it somewhere new, a line in `resolve-plan.ts`).
 */
export const OPTIONS = defineOptions({
  inputs: {
    kind: inputs(),
    help: "NDJSON/JSONL files (.gz, .zst), directories, or - for stdin",
    takenBy: ["convert", "validate"],
    required: true,
    argument: { spelling: "<inputs...>", in: ["convert", "validate"] },
    yaml: { key: "source.inputs", sources: ["files"] },
  },
  out: {
    kind: { ...text("a non-empty path"), message: (_: string, v: unknown) => `Output directory must be a non-empty path, got ${JSON.stringify(v)}` },
    help: "output directory (published atomically)",
    helpIn: { pull: "output directory; its _state/ ledger makes reruns incremental" },
    takenBy: ["convert", "pull"],
    required: true,
    flag: "--out <dir>",
    yaml: { key: "output.dir" },
  },
  format: {
    kind: choice(FORMATS),
    help: "force the record format instead of detecting it",
    helpIn: { validate: "force the record format", pull: "the record format to pull" },
    takenBy: ["convert", "validate", "pull"],
    required: ["pull"],
    flag: "--format <name>",
    argument: { spelling: "<format>", in: ["pull"] },
    yaml: { key: "source.format", sources: ["files", "http"], requiredIn: ["http"] },
  },
  to: { kind: choice(OUTPUT_KINDS), default: "parquet", help: "output format", helpIn: { pull: "shard format" }, takenBy: ["convert", "pull"], flag: "--to <kind>", yaml: { key: "output.to" } },
  scorecards: {
    kind: text("a path"),
    help: "scorecards (NDJSON or JSON, spec 2.7): drop participation-gated seats; RL and DPO scores for thresholds",
    helpIn: { validate: "scorecards (NDJSON or JSON, spec 2.7) used to recognise participation-gated seats" },
    takenBy: ["convert", "validate"],
    flag: "--scorecards <file>",
    yaml: { key: "source.scorecards", sources: ["files"] },
  },
  untrusted: {
    kind: pathPolicies(UNTRUSTED_ACTIONS),
    default: {},
    help: "policy for an untrusted path: drop, redact or keep (repeatable)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--untrusted <path=policy>",
    yaml: { key: "untrusted" },
  },
  filters: { kind: switches(FILTER_RULES, "filter"), default: {}, help: "keep {rule} records", takenBy: ["convert", "validate", "pull"], yaml: { key: "filters" } },
  // Issue 39: one gating rule (src/formats/gate-book.ts) for every command; a run as a whole only when asked.
  gateBy: {
    kind: choice(GATE_BY),
    default: "seat",
    help: "participation gating: seat (a seat by its own scorecard) or run (every seat of a run any of whose cards is gated)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--gate-by <unit>",
    yaml: { key: "gate_by" },
  },
  // Selection (issue 19, docs/selection.md): which seats to train on; each rule's drops are counted by reason.
  seats: {
    kind: choice(["agent", "all"]),
    // No table default: a pipeline file's select group is optional (as view_options); the plan resolves it.
    help: "agent: drop adversary (aic) seats, those without an agent_key_id (adversary_seat); all: keep them (default: agent)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--seats <which>",
    yaml: { key: "select.seats" },
  },
  agentKeys: { kind: textList("a non-empty list of agent key ids"), help: "keep only seats of this agent key (repeatable; others: not_selected)", takenBy: ["convert", "validate", "pull"], flag: "--agent-key <id>", yaml: { key: "select.agent_keys" } },
  roles: { kind: textList("a non-empty list of role names"), help: "keep only seats of this role (repeatable; others: not_selected)", takenBy: ["convert", "validate", "pull"], flag: "--role <name>", yaml: { key: "select.roles" } },
  campaigns: { kind: textList("a non-empty list of campaign ids"), help: "keep only records of this campaign (scenario.campaign_id; repeatable; others: not_selected)", takenBy: ["convert", "validate", "pull"], flag: "--campaign <id>", yaml: { key: "select.campaigns" } },
  minComposite: {
    kind: finiteNumber(),
    help: "keep seats whose composite (mean of per-trait means, safety traits excluded) is at least this (below_threshold)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--min-composite <x>",
    yaml: { key: "select.min_composite" },
  },
  minObjectiveRate: {
    kind: ratio(),
    help: "keep seats whose met_count / total_checks is at least this (below_threshold)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--min-objective-rate <x>",
    yaml: { key: "select.min_objective_rate" },
  },
  topKPerScenario: {
    kind: wholeNumber(),
    help: "keep the k best seats of each scenario by composite, ties by record key (not_top_k; reads the inputs twice)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--top-k-per-scenario <k>",
    yaml: { key: "select.top_k_per_scenario" },
  },
  requireScorecards: {
    kind: flag(),
    default: false,
    help: "fail (exit 2) when participation gating is on and no --scorecards are given (else a warning on stderr)",
    takenBy: ["convert", "validate"],
    flag: "--require-scorecards",
    yaml: { key: "require_scorecards" },
  },
  shardRows: { kind: wholeNumber(), default: 100_000, help: "rows per shard at most", takenBy: ["convert"], flag: "--shard-rows <n>" },
  shardBytes: { kind: bytes(), default: 512 * 1024 * 1024, help: "uncompressed record bytes per shard at most", takenBy: ["convert"], flag: "--shard-bytes <size>" },
  buckets: { kind: wholeNumber({ max: 4096 }), default: 16, help: "fixed number of shards", takenBy: ["pull"], flag: "--buckets <n>", yaml: { key: "output.buckets" } },
  manifestFile: {
    kind: text("a file path"),
    help: "with --out -: write the manifest to this file instead of standard error",
    takenBy: ["convert"],
    flag: "--manifest <file>",
  },
  keepSnapshots: {
    kind: wholeNumber(),
    default: KEPT_SNAPSHOTS,
    help: "published snapshots kept, the current one included (a week of nights); after a publish, files no kept snapshot names are deleted",
    takenBy: ["pull"],
    flag: "--keep-snapshots <n>",
    yaml: { key: "output.keep_snapshots" },
  },
  snapshotGrace: {
    kind: seconds({ max: 3600 }),
    default: 5,
    help: "seconds a replaced local snapshot stays readable after a publish switches away from it (the publish waits them out, then deletes it); 0 deletes it at once",
    takenBy: ["convert", "pull"],
    flag: "--snapshot-grace <seconds>",
    yaml: { key: "output.snapshot_grace" },
  },
  leaseSeconds: {
    kind: wholeNumber(),
    // No table default: it depends on the storage (30 s locally, 5 min on S3; docs/decisions.md).
    help: "the output lock's lease: a job that has not renewed it for this long (stopped, frozen, killed elsewhere) loses the lock to the next (default: 30 locally, 300 on S3)",
    takenBy: ["convert", "pull"],
    flag: "--lease-seconds <n>",
    yaml: { key: "output.lease_seconds" },
  },
  compression: {
    kind: choice(COMPRESSIONS),
    default: "zstd",
    help: "zstd, gzip, snappy (parquet only) or none; unless named, none for --out - and the OpenAI views",
    takenBy: ["convert", "pull"],
    flag: "--compression <codec>",
    yaml: { key: "output.compression" },
  },
  maxQuarantined: {
    kind: ratio(),
    default: 0.05,
    help: "do not publish (exit 3) when more than this share of records is quarantined",
    helpIn: { validate: "exit 3 when more than this share of records would be quarantined" },
    takenBy: ["convert", "validate", "pull"],
    flag: "--max-quarantined <ratio>",
    yaml: { key: "max_quarantined" },
  },
  // Publish guards (issue 20): checked before publishing; over one, the previous dataset stays and the attempt
  // goes to _rejected/ (src/output/publish-guard.ts).
  maxStreamErrors: {
    kind: wholeNumber({ min: 0 }),
    default: 0,
    help: "do not publish (exit 6) when more {error: partial_stream} lines than this arrive",
    helpIn: { validate: "exit 6 when more {error: partial_stream} lines than this arrive" },
    takenBy: ["convert", "validate", "pull"],
    flag: "--max-stream-errors <n>",
    yaml: { key: "max_stream_errors" },
  },
  minRecords: {
    kind: wholeNumber({ min: 0 }),
    default: 0,
    help: "do not publish (exit 7) when fewer records than this would be written",
    helpIn: { validate: "exit 7 when fewer records than this would be written" },
    takenBy: ["convert", "validate", "pull"],
    flag: "--min-records <n>",
    yaml: { key: "min_records" },
  },
  // Issue 40: an empty or shrinking night does not replace a dataset by default.
  maxShrink: {
    kind: ratio(),
    default: 0.5,
    help: "do not publish (exit 8) when this run would drop more than this share of the published dataset's rows, or all of them",
    takenBy: ["convert", "pull"],
    flag: "--max-shrink <ratio>",
    yaml: { key: "max_shrink" },
  },
  publishAnyway: {
    kind: flag(),
    default: false,
    help: "publish even over --max-quarantined, --max-stream-errors, --min-records or --max-shrink (the exit code still says which)",
    takenBy: ["convert", "pull"],
    flag: "--publish-anyway",
    yaml: { key: "publish_anyway" },
  },
  // Issue 40: an --out holding files evalshard did not write is refused, since a publish may replace them.
  force: {
    kind: flag(),
    default: false,
    help: "write into an --out that holds files evalshard did not write (those named data, README.md, manifest.json, ... are replaced)",
    takenBy: ["convert", "pull"],
    flag: "--force",
  },
  maxLineBytes: {
    kind: bytes(),
    default: DEFAULT_MAX_LINE_BYTES,
    help: "quarantine lines longer than this as line_too_long",
    takenBy: ["convert", "validate", "pull"],
    flag: "--max-line-bytes <size>",
    yaml: { key: "max_line_bytes" },
  },
  acceptLaterMinor: {
    kind: flag(),
    default: false,
    help: "accept later minor versions of the supported major version",
    takenBy: ["convert", "validate", "pull"],
    flag: "--accept-later-minor",
    yaml: { key: "accept_later_minor" },
  },
  workers: {
    kind: wholeNumber({ min: 0 }),
    default: () => Math.max(1, availableParallelism()),
    defaultShown: "available cores; a night (pull, run): 0",
    help: "worker threads of the engine; 0: it runs on the main thread alone",
    takenBy: ["convert", "validate", "pull"],
    flag: "--workers <n>",
  },
  firstBad: { kind: wholeNumber(), default: 10, help: "how many offending lines to print", takenBy: ["validate"], flag: "--show <n>" },
  stdin: { kind: opaque<Readable>("a readable stream"), help: 'standard input, for the "-" input; process.stdin by default', takenBy: ["convert", "validate"] },
  baseUrl: { kind: url(), help: "the service, e.g. the emulator's url", takenBy: ["pull"], required: true, flag: "--base-url <url>", yaml: { key: "source.base_url", sources: ["http"] } },
  auth: {
    kind: choice(["agent", "owner"]),
    default: "owner",
    help: "agent routes (EVAL_API_KEY) or owner routes (EVAL_OWNER_TOKEN)",
    takenBy: ["pull"],
    flag: "--auth <mode>",
    yaml: { key: "source.auth", sources: ["http"] },
  },
  concurrency: { kind: wholeNumber({ max: 64 }), default: 4, help: "requests in flight at most", takenBy: ["pull"], flag: "--concurrency <n>", yaml: { key: "source.concurrency", sources: ["http"] } },
  retryBudget: {
    kind: wholeNumber(),
    default: 900,
    help: "seconds a night may spend waiting on failures (backoff, Retry-After, stalled bodies) in all; then it fails and publishes nothing",
    takenBy: ["pull"],
    flag: "--retry-budget <seconds>",
    yaml: { key: "source.retry_budget", sources: ["http"] },
  },
  hedge: {
    kind: choice(["on", "off"]),
    default: "on",
    help: "send a second copy of a GET whose answer is slow (3x the recent 90th percentile, at least 25 ms) and use the first to answer: at most one request in ten, at most --concurrency copies in flight; off: never",
    takenBy: ["pull"],
    flag: "--hedge <on|off>",
    yaml: { key: "source.hedge", sources: ["http"] },
  },
  // Issue 35 (docs/decontamination.md): the service's released benchmark suites are kept out of the dataset.
  suites: {
    kind: text("all, none, or suite names KEY@VERSION separated by commas", /^(all|none|[^@,\s]+@\d+(,[^@,\s]+@\d+)*)$/),
    default: "all",
    help: "decontamination: drop every record of a run on a scenario a released benchmark suite pins (GET /api/agent/suites, read with EVAL_API_KEY): all, none, or KEY@VERSION,...",
    takenBy: ["pull"],
    flag: "--suites <which>",
    yaml: { key: "source.suites", sources: ["http"] },
  },
  suitesFile: {
    kind: text("a path"),
    help: "decontamination: a saved GET /api/agent/suites answer ({suites: [...]}); every record of a run on a scenario it pins is dropped (benchmark_scenario)",
    takenBy: ["convert"],
    flag: "--suites <file>",
  },
  runManifests: {
    kind: text("a path"),
    help: "with --suites: the runs' scenario hashes for records that carry none (RL, DPO): NDJSON or a JSON list of {run_id, manifest: {scenario_version_hash}} (a run document) or {run_id, scenario_version_hash}",
    takenBy: ["convert"],
    flag: "--run-manifests <file>",
  },
  requireSuites: {
    kind: flag(),
    default: false,
    help: "fail (exit 2) when decontamination cannot decide: pull/run: no EVAL_API_KEY to read the suites with, agent routes (which give no scenario hash: ids only), or a record whose run document gives no hash; convert: no --suites, or a record whose run's hash is unknown; else a warning",
    takenBy: ["pull", "convert"],
    flag: "--require-suites",
    yaml: { key: "source.require_suites", sources: ["http"] },
  },
  partition: {
    kind: partition(),
    help: "this job's stable hash share of the runs, for N parallel jobs; auto: k and N from SLURM_ARRAY_TASK_ID/_COUNT or AWS_BATCH_JOB_ARRAY_INDEX/_SIZE; auto/N: k from those or JOB_COMPLETION_INDEX",
    takenBy: ["pull"],
    flag: "--partition <k/N|auto|auto/N>",
    yaml: { key: "source.partition", sources: ["http"] },
  },
  partitionBy: {
    kind: choice(["run", "scenario"]),
    default: "run",
    help: "what --partition shares out: runs, or scenarios with all their runs (exact top-k per scenario and scenario splits); DPO always by scenario",
    takenBy: ["pull"],
    flag: "--partition-by <run|scenario>",
    yaml: { key: "source.partition_by", sources: ["http"] },
  },
  dpoStrategy: {
    kind: choice(["best-worst", "adjacent", "all"]),
    default: "best-worst",
    help: "DPO pairing: best-worst, adjacent or all",
    takenBy: ["pull"],
    flag: "--dpo-strategy <strategy>",
    yaml: { key: "source.dpo.strategy", sources: ["http"] },
  },
  maxPairsPerScenario: {
    kind: wholeNumber(),
    default: 10,
    help: "DPO pairs per scenario at most",
    takenBy: ["pull"],
    flag: "--max-pairs-per-scenario <n>",
    yaml: { key: "source.dpo.max_pairs_per_scenario", sources: ["http"] },
  },
  // Training views (issue 18, docs/views.md): the view's rows replace the records; its options below.
  view: {
    kind: choice(VIEW_NAMES),
    help: "write a training view's rows instead of records (docs/views.md)",
    helpIn: { validate: "also count what a training view would make of the kept records" },
    takenBy: ["convert", "validate", "pull"],
    flag: "--view <name>",
    yaml: { key: "output.view" },
  },
  context: {
    kind: pathList(),
    help: "RL export files or directories the DPO views take prompts from (repeatable)",
    takenBy: ["convert", "validate"],
    flag: "--context <inputs...>",
  },
  systemPrompt: {
    kind: text(),
    help: "a system message put first in every view prompt (none by default)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--system-prompt <text>",
    yaml: { key: "output.view_options.system_prompt" },
  },
  systemPromptFile: {
    kind: text("a path"),
    help: "the view's system prompt, read from a file",
    takenBy: ["convert", "validate", "pull"],
    flag: "--system-prompt-file <file>",
    yaml: { key: "output.view_options.system_prompt_file" },
  },
  controlTokens: {
    kind: text("a path"),
    help: "a tokenizer's own control tokens, removed from view texts: one a line, a JSON list, or a tokenizer.json",
    takenBy: ["convert", "validate", "pull"],
    flag: "--control-tokens <file>",
    yaml: { key: "output.view_options.control_tokens" },
  },
  onInjection: {
    kind: choice(["keep", "drop", "quarantine"]),
    // No table default: a pipeline file's view_options group is optional; the view resolves it (keep).
    help: "a view row whose text matches an injection pattern: keep (counted), drop it, or quarantine its record (default: keep)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--on-injection <action>",
    yaml: { key: "output.view_options.on_injection" },
  },
  ktoLabel: {
    kind: choice(["scalar-reward", "return-to-go"]),
    help: "the step label of trl-kto and trl-stepwise: the step's scalar_reward > 0, or its return to go > 0 (default: scalar-reward)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--kto-label <rule>",
    yaml: { key: "output.view_options.kto_label" },
  },
  gamma: {
    kind: ratio(),
    help: "discount of return_to_go (rl-steps, --kto-label return-to-go), from 0 to 1 (default: 1)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--gamma <x>",
    yaml: { key: "output.view_options.gamma" },
  },
  episodes: {
    kind: flag(),
    help: "openai-sft: a line per seat episode (its whole conversation, each assistant message weighted) instead of per step",
    takenBy: ["convert", "validate", "pull"],
    flag: "--episodes",
    yaml: { key: "output.view_options.episodes" },
  },
  turnWeight: {
    kind: choice(["scalar-reward", "return-to-go", "all"]),
    help: "openai-sft --episodes: weight 1 on the assistant messages whose step's scalar_reward > 0, return to go > 0, or all (default: all)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--turn-weight <rule>",
    yaml: { key: "output.view_options.turn_weight" },
  },
  // A model's tokens (issue 34, docs/views.md): opt-in; the libraries load only when asked for.
  tokenizer: {
    kind: text("a tokenizer.json path or tiktoken:o200k_base"),
    help: "count view rows in a model's tokens: its tokenizer.json (chat template from the tokenizer_config.json beside it) or tiktoken:o200k_base (OpenAI views)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--tokenizer <file>",
    yaml: { key: "output.view_options.tokenizer" },
  },
  chatTemplate: {
    kind: text("a path"),
    help: "the chat template (Jinja) rows are rendered with, instead of tokenizer_config.json's, e.g. one of TRL's trl/chat_templates/*.jinja",
    takenBy: ["convert", "validate", "pull"],
    flag: "--chat-template <file>",
    yaml: { key: "output.view_options.chat_template" },
  },
  maxTokens: {
    kind: wholeNumber(),
    help: "drop (never truncate) a view row whose rendered training text is over N tokens (needs --tokenizer)",
    takenBy: ["convert", "validate", "pull"],
    flag: "--max-tokens <n>",
    yaml: { key: "output.view_options.max_tokens" },
  },
  // Leak-free splits (issue 19, docs/decisions.md): a group's split is a keyed hash of its id, never a row's.
  split: {
    kind: fractions(),
    help: "split rows by scenario (or run) into named fractions, e.g. train=0.9,validation=0.05,test=0.05",
    takenBy: ["convert", "pull"],
    flag: "--split <name=fraction,...>",
    yaml: { key: "output.split" },
  },
  splitBy: {
    kind: choice(SPLIT_BY),
    // No table default: given without --split it is a usage error, which a filled-in default would hide.
    help: "what a split keeps together: scenario (scenario.campaign_id) or run (run_id) (default: scenario)",
    takenBy: ["convert", "pull"],
    flag: "--split-by <group>",
    yaml: { key: "output.split_by" },
  },
  splitSeed: {
    kind: text(),
    help: `the key of the split's hash; another seed deals the groups anew (default: ${DEFAULT_SPLIT_SEED})`,
    takenBy: ["convert", "pull"],
    flag: "--split-seed <seed>",
    yaml: { key: "output.split_seed" },
  },
  dryRun: {
    kind: flag(),
    help: "fetch and validate, count what would change (added, replaced, removed, unchanged) and judge the publish guards; publish nothing",
    takenBy: ["pull"],
    flag: "--dry-run",
    library: false,
  },
  json: { kind: flag(), help: "print the manifest as JSON instead of a summary", helpIn: { validate: "print the result as JSON", pull: "print the night's summary as one JSON line" }, takenBy: ["convert", "validate", "pull"], flag: "--json", library: false },
});

export type Options = typeof OPTIONS;

export type OutputKind = (typeof OUTPUT_KINDS)[number];
export type Compression = (typeof COMPRESSIONS)[number];

/** Options of `convert`, derived from the table. */
export type ConvertOptions = OptionsOf<Options, "convert">;
/** Options of `validateInputs`, derived from the table. */
export type ValidateOptions = OptionsOf<Options, "validate">;
