import { Readable } from "node:stream";
import { ConfigError } from "../core/errors.js";
import type { AuthMode, BodyDigest, ClientEvent, ExportClient } from "../http/index.js";
import type { LineSource } from "../sources/line-source.js";
import { Rereadable } from "../sources/rereadable.js";
import { encodeEscaped } from "../sources/escaped-utf8.js";
import { checkDpoOptions, type DpoOptions } from "./dpo-pairs.js";
import { ExportAnswers, type AnsweredExports } from "./export-answers.js";
import { checkPartition, type Partition } from "./partition.js";
import { pullLines } from "./pull.js";
import { PullTally, type PullEvent, type PullReport } from "./pull-report.js";
import { pullRoutes, type PullFormat } from "./routes.js";
import type { ScoreCache } from "./scorecards.js";
import { ScoreTable } from "./score-table.js";
import { ScoreBookWriter } from "../formats/score-book-writer.js";
import type { ScoreBook } from "../formats/scorecard-book.js";
import { GateBook, type GateEntry } from "../formats/gate-book.js";
import type { SuiteBook } from "../formats/suite-book.js";

/** Lines are handed to the spool in chunks of about this size. */
const WRITE_CHUNK_BYTES = 256 * 1024;
const NEWLINE = Buffer.from("\n");

export interface HttpSourceOptions {
  /** Created by the caller with credentials from the environment; its `auth` must match `auth`. */
  readonly client: ExportClient;
  readonly auth: AuthMode;
  readonly format: PullFormat;
  /** Where the first read is spooled; the caller owns it and removes it. */
  readonly spoolDir: string;
  /** Job k of N: SFT and RL keep runs whose sha256 share is k; DPO keeps scenarios (campaign ids). */
  readonly partition?: Partition;
  /** DPO pairing. Default `best-worst`. */
  readonly dpo?: DpoOptions;
  /** Run ids not to fetch (left out before partitioning). */
  readonly skip?: ReadonlySet<string>;
  /**
   * Scores from earlier pulls, by run id: a scored run whose records carry the entry's scorecard
   * version takes its score from here instead of requesting its scorecard (a version never changes).
   */
  readonly scoreCache?: ScoreCache;
  /** Progress and counts, for logging. */
  readonly onEvent?: (event: PullEvent) => void;
  /** DPO: also fetch the RL records of the paired runs, which a DPO view takes its prompts from (issue 18). */
  readonly rlContext?: boolean;
  /** DPO: the benchmark suites, whose runs are not paired (issue 35; the engine drops the rest). */
  readonly suites?: SuiteBook;
}

/** The service as a LineSource. */
export interface HttpSource extends LineSource {
  /** After the first full read: the pulled runs' gating, read by the one rule (src/formats/gate-book.ts). */
  gates(): GateBook;
  /**
   * After the first full read: the score cache for the next pull, by run id: every scored run of this
   * pull whose scorecard version is known, whether it came from `scoreCache` or was fetched.
   */
  scoreCacheOut(): ScoreCache;
  /**
   * After the first full read of an RL or DPO pull: its scored runs' valid cards as a score book, for selection
   * and the stats (issue 36), fetched or from `scoreCache`; undefined for SFT, whose records carry their scores.
   */
  scores(): ScoreBook | undefined;
  /** After the first full read, DPO with `rlContext`: a file in `spoolDir` of the paired runs' RL record lines. */
  contextFile(): string | null;
  /** After the first full read: what the pull did (see PullReport). Throws before. */
  report(): PullReport;
  /**
   * Pass the service client's `onEvent` here to count retries and stream cuts in the report:
   * `createServiceClient({ ..., onEvent: (e) => source.clientEvent(e) })`.
   */
  clientEvent(event: ClientEvent): void;
  /**
   * Pass the service client's `onBody` here (`createServiceClient({ ..., onBody: (d) => source.clientBody(d) })`)
   * for {@link HttpSource.answeredExports}.
   */
  clientBody(digest: BodyDigest): void;
  /**
   * After the first full read of an SFT or RL pull given every body digest (`clientBody`): what its export
   * requests answered, for a later night to compare (see ExportAnswers); null when a rerun could not
   * rely on them (DPO, `skip`, a failed or cut request, a score the cache will not answer).
   */
  answeredExports(): AnsweredExports | null;
}

/**
 * The agent-evaluation service as a source of raw NDJSON record lines. The first `lines()` call
 * fetches (list runs, partition, bulk streams, per-run gaps, the scorecards not in
 * `scoreCache`, DPO pairs) and spools every
 * line to a file in `spoolDir` while yielding it; later calls, and `info()`, replay that file, so
 * convert's two reads see the same lines. A read that starts while the first is under way waits for
 * the spool to be complete. A first reader that stops early leaves the pull to finish in the background.
 *
 * Lines are the record text as the service sent it, in the service's list order. Failures the client's
 * retries could not overcome, and every 401 and 403, end the read with that error: an incomplete pull
 * must fail rather than publish a partial dataset.
 */
export function httpSource(options: HttpSourceOptions): HttpSource {
  const { client, auth, format } = options;
  if (client.auth !== auth) throw new ConfigError(`Expected a client for ${JSON.stringify(auth)} routes, got one for ${JSON.stringify(client.auth)}`);
  if (!["sft", "rl", "dpo"].includes(format)) throw new ConfigError(`Expected \`format\` to be "sft", "rl" or "dpo", got ${JSON.stringify(format)}`);
  if (options.partition !== undefined) checkPartition(options.partition);
  const dpo = options.dpo ?? { strategy: "best-worst" };
  checkDpoOptions(dpo);
  // Names the route (the bulk export, or the DPO pair route) and the credential kind, never the token.
  const routes = pullRoutes(auth, format);
  const name = `${client.baseUrl}${format === "dpo" ? routes.dpo : routes.bulk} (${auth})`;
  const tally = new PullTally({ source: name, auth, format, partition: options.partition ?? null }, options.onEvent);
  // RL and DPO: the score cache it leaves keeps its cards in the night's book, so each is held once.
  const pulledBook = format === "sft" ? null : new ScoreBookWriter();
  const found = { gates: [] as GateEntry[], scores: new ScoreTable(pulledBook ?? undefined), book: pulledBook, context: null as string | null, settled: false };
  const answers = format === "dpo" || options.skip !== undefined ? undefined : new ExportAnswers();
  let finished: PullReport | undefined;
  let book: GateBook | undefined;
  let scoreBook: ScoreBook | undefined;

  async function* chunks(): AsyncGenerator<Buffer> {
    let pending: Buffer[] = [];
    let size = 0;
    const plan = { client, format, spoolDir: options.spoolDir, partition: options.partition, dpo, skip: options.skip, scoreCache: options.scoreCache, rlContext: options.rlContext === true && format === "dpo", suites: options.suites };
    for await (const line of pullLines(plan, tally, found)) {
      if (typeof line === "string") {
        const bytes = encodeEscaped(line);
        pending.push(bytes, NEWLINE);
        size += bytes.length + 1;
      } else {
        pending.push(line);
        size += line.length;
      }
      if (size >= WRITE_CHUNK_BYTES) {
        yield Buffer.concat(pending, size);
        pending = [];
        size = 0;
      }
    }
    if (size > 0) yield Buffer.concat(pending, size);
    finished = tally.snapshot();
    tally.emit({ type: "done", report: finished });
  }

  const spooled = new Rereadable(() => Readable.from(chunks(), { objectMode: false }), options.spoolDir);

  const afterPull = (what: string) => {
    if (finished === undefined) throw new ConfigError(`${what} is known only after a first full read of ${name}`);
    return finished;
  };

  return {
    // The units' input is the spool the first read writes, read again (the pull's lines as bytes).
    ...spooled.source(name),
    gates() {
      afterPull("gates()");
      book ??= new GateBook(found.gates);
      return book;
    },
    scoreCacheOut() {
      afterPull("scoreCacheOut()");
      return found.scores;
    },
    scores() {
      afterPull("scores()");
      if (found.book === null) return undefined;
      scoreBook ??= found.book.book();
      return scoreBook;
    },
    contextFile() {
      afterPull("contextFile()");
      return found.context;
    },
    report: () => afterPull("report()"),
    clientEvent: (event) => tally.clientEvent(event),
    clientBody: (digest) => answers?.note(digest),
    answeredExports: () => answers?.answered(afterPull("answeredExports()"), found.settled) ?? null,
  };
}
