// Formats
export { FORMATS, FORMAT_REGISTRY, formatByName, detectFormat } from "./formats/index.js";
export { FormatRegistry } from "./formats/format-registry.js";
export { defineFormat } from "./formats/define-format.js";
export { sft, sftRecord } from "./formats/sft.js";
export { rl, rlRecord, checkTrajectory } from "./formats/rl.js";
export { dpo, dpoRecord } from "./formats/dpo.js";
export { streamErrorLine } from "./formats/stream-error.js";
export { FORMAT_NAMES } from "./formats/format.js";
export { jsonSchemaOf, jsonSchemaText } from "./formats/json-schema.js";
export { declaredPaths } from "./schema/field-path.js";

// Pipeline
export { convert } from "./jobs/convert.js";
export { validateInputs } from "./jobs/validate.js";
export { inspect } from "./jobs/inspect.js";
export { planPipeline, runPipeline } from "./library/stream-pipeline.js";
export { concatLines } from "./sources/concat-lines.js";
export { verify } from "./jobs/verify.js";
export { report } from "./jobs/report.js";
export { Tally } from "./core/tally.js";
export { reconciles } from "./output/manifest.js";
export { QUARANTINE_REASONS, DROP_REASONS, FILTER_RULES, SEMANTIC_REASONS, PAIR_DROP_REASONS } from "./core/reasons.js";
export { decide, mapKept } from "./core/flow.js";

// Sources
export { fileSource } from "./sources/file-source.js";
export { stdinSource } from "./sources/stdin-source.js";
export { expandInputs } from "./sources/expand-inputs.js";
export { splitLines } from "./sources/split-lines.js";
export { readGatedRuns, readScorecardFile } from "./stages/read-scorecards.js";
export { cardGate, GATE_BY } from "./formats/card-gate.js";
export { GateBook } from "./formats/gate-book.js";

// Stages
export { validate } from "./stages/validate.js";
export { filter } from "./stages/filter.js";
export { strip } from "./engines/strip.js";
export { redaction, REDACTION_MARKER } from "./stages/redaction.js";
export { resolveUntrustedPolicy, outputColumns } from "./stages/untrusted-policy.js";

// Shard formats, and the output layer: storage, the dataset sink, staging and lock of the local storage
export { nativeParquetFormat, parquetFormat } from "./sinks/native-parquet-format.js";
export { jsonlFormat } from "./sinks/jsonl-format.js";
// From their own files, never a file that names S3's types: the AWS SDK is an optional peer dependency,
// so a project without it must still type-check against ours (test/package-pack.test.ts).
export { LocalStorage } from "./output/local-storage.js";
// Object storage over any ObjectStore (another cloud is one adapter class); S3Storage stays out, it names the SDK's types.
export { ObjectStorage } from "./output/object-storage.js";
export { MemoryObjectStore } from "./output/memory-object-store.js";
export { DatasetSink } from "./dataset/dataset-sink.js";
export { ShardedWriter } from "./output/sharded-writer.js";
export { ShardRotation } from "./output/shard-rotation.js";
export { QuarantineWriter } from "./output/quarantine-writer.js";
export { datasetCard } from "./output/dataset-card.js";
export { openStaging, recoverStaging } from "./output/local-staging.js";
export { lockOutput } from "./output/lock-output.js";

// Nightly pulls: the service client, the service as a source, incremental datasets, pipeline files
export { createServiceClient, credentialsFromEnv, completeNdjson, ServiceError, HttpError, AuthError, ForbiddenError, ConflictError, NotFoundError, BadRequestError, RateLimitError, ServerError, NetworkError, StreamCutError, RetryBudgetError, RetryBudget } from "./http/index.js";
export { httpSource } from "./pull/index.js";
// Secrets the process must never write (service tokens, S3 keys, a `character_token` a caller holds), in any encoding
export { addSecrets, addSecretsFromEnv, redactSecrets, SECRET_ENV } from "./core/secrets.js";
export { SecretRedactor, REDACTED } from "./core/secret-redactor.js";
export { writeSnapshot } from "./dataset/write-snapshot.js";
export { readDataset } from "./dataset/ledger.js";
export { runNightly, outputDirOf } from "./jobs/nightly/run-nightly.js";
export { commitNight } from "./jobs/nightly/commit-night.js";
export { loadPipeline, parsePipeline } from "./pipeline-file/load-pipeline.js";
export { pipelineSpec } from "./pipeline-file/pipeline-spec.js";

// The bundled emulator of the service
export { startEmulator, parseFaultSpec, FAULT_KINDS, INJECTIONS, hasInjection, SCOPES, RL_DPO_EXPORT } from "./service/index.js";

// Training views
export { VIEW_NAMES } from "./views/view.js";
export { VIEWS, viewNamed, viewOf } from "./views/views.js";
export { viewEnv } from "./views/view-env.js";
export { viewRecords } from "./views/view-records.js";
export { viewStage } from "./views/view-stage.js";
export { ViewTally } from "./views/view-tally.js";
export { RlContext } from "./views/rl-context.js";
export { sanitizeText, sanitizer } from "./views/sanitize-text.js";
export { scanInjection, INJECTION_PATTERNS } from "./views/scan-injection.js";
export { CONTROL_TOKENS, CONTROL_TOKEN_FAMILIES } from "./views/control-tokens.js";
export { controlTokenSet } from "./views/control-token-set.js";
export { TURN_WEIGHTS } from "./views/turn-weight.js";

// Errors and version
export { EvalshardError, ConfigError, IoError, LockedError, FencedError, PartsMissingError } from "./core/errors.js";
export { EVALSHARD_VERSION } from "./core/version.js";

export type { Format, FormatName, RecordFacts, SemanticFault } from "./formats/format.js";
export type { FormatDefinition, RecordSchema } from "./formats/define-format.js";
export type { FormatRules } from "./formats/format.js";
export type { SftRecord } from "./formats/sft.js";
export type { RlRecord, RlTuple } from "./formats/rl.js";
export type { DpoRecord } from "./formats/dpo.js";
export type { Stripped, RecordOf, StrippedRecordOf, StrippedSftRecord, StrippedRlRecord, StrippedDpoRecord } from "./formats/stripped.js";
export type { ColumnType, Field } from "./schema/column-type.js";
export type { ConvertOptions, Compression, OutputKind } from "./plan/options.js";
export type { NativeParquetOptions } from "./sinks/native-parquet-format.js";
export type { ConvertResult } from "./jobs/convert.js";
export type { ConvertHooks, ConvertPhase } from "./jobs/convert-phase.js";
export type { ValidateInputsOptions, ValidateInputsResult } from "./jobs/validate.js";
export type { InspectResult } from "./jobs/inspect.js";
export type { PipelineOptions, PipelinePlan } from "./library/stream-pipeline.js";
export type { Manifest, ManifestQuarantine } from "./output/manifest.js";
export type { PublishDecision, PublishGuard, TrippedGuard } from "./output/publish-guard.js";
export type { FindingKind, VerifyFinding, VerifyReport } from "./jobs/verify-report.js";
export type { DatasetReport } from "./jobs/report.js";
export type { ReportManifest, ReportNight } from "./report/report-manifest.js";
export type { ControlTokenFamily } from "./views/control-tokens.js";
export type { ControlTokenSet, NumberedToken } from "./views/control-token-set.js";
export type { TurnWeight } from "./views/turn-weight.js";
export type { TrlMessagesRow } from "./views/trl-messages.js";
export type { OpenAiSftEpisodeRow, WeightedMessage } from "./views/openai-sft-episodes.js";
export type { RlContextEntries } from "./views/rl-context.js";
export { readTokenSetup, TIKTOKEN_ENCODINGS } from "./tokens/token-setup.js";
export { openTokenCounter } from "./tokens/token-counter.js";
export type { TokenSetup, TokenRequest, NamedDigest } from "./tokens/token-setup.js";
export type { TokenCounter } from "./tokens/token-counter.js";
export type { TokenStats } from "./views/token-stats.js";
export type { AnyView, View, ViewName } from "./views/view.js";
export type { ViewOptions, ViewEnv } from "./views/view-env.js";
export type { ViewCounts } from "./views/view-tally.js";
export type { ViewResult, ViewDropReason } from "./views/view-result.js";
export type { PathAudit } from "./views/text-audit.js";
export type { ViewManifest } from "./views/view-manifest.js";
export type { ViewedRecord } from "./views/view-records.js";
export type { Counts } from "./core/tally.js";
export type { Flow, Kept, Dropped, Quarantined, StreamError, Stage, Decision } from "./core/flow.js";
export type { Provenance } from "./core/provenance.js";
export type { QuarantineReason, DropReason, FilterRule, SemanticReason, PairDropReason } from "./core/reasons.js";
export type { ValidRecord } from "./formats/valid-record.js";
export type { LineSource, SourceLine, TextLine, OversizedLine, ReadOptions, InputInfo } from "./sources/line-source.js";
export type { FilterOptions } from "./stages/filter.js";
export type { ValidateOptions } from "./stages/validate.js";
export type { UntrustedPolicy, UntrustedRule, UntrustedAction } from "./stages/untrusted-policy.js";
export type { ShardWriter, ShardFormat, ShardInfo, ShardTarget } from "./output/shard-format.js";
export type { Storage, Staging, Files, FileWriter, WrittenFile, StoredFile, Lock, Fence, PublishHook } from "./output/storage.js";
export type { ObjectStore, ObjectHead, ObjectEntry, ObjectUpload } from "./output/object-store.js";
export type { ObjectStorageOptions } from "./output/object-storage.js";
export type { ObjectStaging } from "./output/object-staging.js";
export type { DatasetSinkOptions, DatasetFiles, BucketLayout } from "./dataset/dataset-sink.js";
export type { ShardLimits } from "./output/shard-rotation.js";
export type { QuarantineEntry } from "./output/quarantine-writer.js";
export type { ServiceClient, ExportClient, ServiceClientOptions, RetryPolicy, Clock, ClientEvent, AuthMode, BodyDigest } from "./http/index.js";
export type { HttpSource, HttpSourceOptions, PullReport, PullEvent, Partition, PartitionBy } from "./pull/index.js";
export type { SnapshotOptions, SnapshotResult } from "./dataset/write-snapshot.js";
export type { SnapshotRecord } from "./dataset/incoming.js";
export type { SnapshotShape } from "./dataset/staged-snapshot.js";
export type { NightlyOptions, NightlyResult } from "./jobs/nightly/run-nightly.js";
export type { CommitManifest, CommitOptions, CommitResult } from "./jobs/nightly/commit-night.js";
export type { NightlyManifest } from "./jobs/nightly/nightly-manifest.js";
export type { SourceEnvironment, NightPhase } from "./jobs/nightly/open-source.js";
export type { PipelineSpec } from "./pipeline-file/pipeline-spec.js";
export type {
  RunningEmulator,
  ServeInfo,
  EmulatorApiKey,
  EmulatorAccount,
  EmulatorOptions,
  FaultTiming,
  FaultKind,
  FaultRates,
  AimedFault,
  FaultEvent,
  PlatformConfig,
  Scope,
} from "./service/index.js";

// Types the API's signatures name (options, results, events), so a caller can name them too; the API reference
// (`npm run docs`) checks that every type a signature uses is exported.
export type { CompleteNdjsonOptions } from "./http/complete-ndjson.js";
export type { ConflictReason, HttpErrorInit, NetworkFailure, StreamCutReason } from "./http/http-errors.js";
export type { ContextCounts } from "./views/view-manifest.js";
export type { Credentials } from "./http/credentials.js";
export type { DatasetCardOptions } from "./output/dataset-card.js";
export type { DatasetState, LedgerEntry, BucketState } from "./dataset/ledger.js";
export type { DeferredRun, PairError } from "./pull/pull-report.js";
export type { DpoOptions, PairStrategy } from "./pull/dpo-pairs.js";
export type { ExtraFiles } from "./dataset/write-snapshot.js";
export type { FormatBasics } from "./formats/format.js";
export type { InjectionPattern } from "./views/scan-injection.js";
export type { JsonlOptions, JsonlCompression } from "./sinks/jsonl-format.js";
export type { LockOptions } from "./output/lock-output.js";
export type { LocalStorageOptions } from "./output/local-storage.js";
export type { NativeParquetCompression } from "./sinks/native-parquet-format.js";
export type { OnInjection } from "./views/view-records.js";
export type { ParquetOptions } from "./sinks/native-parquet-format.js";
export type { PathStep } from "./schema/field-path.js";
export type { PullFormat } from "./pull/routes.js";
export type { AnsweredExports } from "./pull/export-answers.js";
export type { Recovery, LocalStaging } from "./output/local-staging.js";
export type { SnapshotGrace } from "./output/local-snapshots.js";
export type { RequestOptions } from "./http/service-client.js";
export type { RetryEvent, StreamCutEvent } from "./http/client-event.js";
export type { Sanitizer, Sanitized } from "./views/sanitize-text.js";
export type { ScoreBook, ScoreEntry, ScoreBookData, CardScore, SeatRef } from "./formats/scorecard-book.js";
export type { IdIndexData } from "./core/id-index.js";
export type { SeatTraits, TraitTableData } from "./formats/trait-table.js";
export type { Scorecards, QuarantinedScorecard, ScorecardWarning } from "./stages/read-scorecards.js";
export type { CardGate, CardSeat, Gate, GateBy } from "./formats/card-gate.js";
export type { GateEntry, GatedRecord, SeatGate } from "./formats/gate-book.js";
export type { SelectionPlan } from "./stages/select-plan.js";
export type { ShardedWriterOptions } from "./output/sharded-writer.js";
export type { SplitManifest, SplitRequest, SplitCount } from "./splits/split-assigner.js";
export type { StdinOptions } from "./sources/stdin-source.js";
export type { TextAudit } from "./views/text-audit.js";
export type { TupleShape } from "./formats/rl-rules.js";
export type { ViewInputs } from "./views/view.js";
export type { RetryReason } from "./http/retry-policy.js";

// Types the exported ones name (the API docs list every type a public one refers to)
export type { HedgeEvent } from "./http/client-event.js";
export type { ObjectFiles } from "./output/object-files.js";
export type { SnapshotPointer } from "./output/object-snapshot-pointer.js";
export type { SuiteBook, SuitePin, SuiteAnswer, SuiteFacts, SuitesData } from "./formats/suite-book.js";
export type { DecontaminationManifest } from "./output/decontamination.js";
export type { DatasetStats, DistributionStats, StatsManifest, StatsPartial } from "./stats/dataset-stats.js";
export type { BinWidth, HistogramPartial } from "./stats/histogram.js";
export type { StatsRow } from "./stats/stats-row.js";
export type { SeatScore } from "./formats/seat-score.js";
export type { TokenBudget } from "./tokens/token-budget.js";
export type { TokenCache } from "./tokens/token-cache.js";
export type { TemplateMessage } from "./tokens/token-counter.js";
export type { TrainingText } from "./views/training-text.js";
export type { ChatMessage, ChatRole } from "./views/chat-message.js";
