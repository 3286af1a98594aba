import { suiteLabel, type SuiteBook, type SuitePin } from "../formats/suite-book.js";

/** The manifest's `decontamination` section (issue 35): what the dataset was checked against, and what went. */
export interface DecontaminationManifest {
  /** `--suites` as asked: all, none, or KEY@VERSION,... */
  readonly asked: string;
  /** sha256 (hex) of the suites answer the night read (or the `--suites` file); null when none was read. */
  readonly suites_sha256: string | null;
  readonly suites: readonly {
    readonly suite_key: string;
    readonly version: number;
    /** Distinct scenario hashes the suite pins. */
    readonly pinned_hashes: number;
    /** The hashes themselves: `verify` checks that no kept row carries one, nor is of a run that has one. */
    readonly scenario_version_hashes: readonly string[];
    /** The scenario ids it pins: `verify` checks that no kept row names one as its `campaign_id`. */
    readonly scenario_ids: readonly string[];
    readonly runs_dropped: number;
    readonly records_dropped: number;
  }[];
  /** Records whose run's scenario hash was unknown: kept, and warned about. */
  readonly undecided_records: number;
}

/** The section, from the suites applied and the rule's counts (`book`: null when nothing was checked). */
export function decontaminationManifest(asked: string, sha256: string | null, suites: readonly SuitePin[], book: SuiteBook | null): DecontaminationManifest {
  return {
    asked,
    suites_sha256: sha256,
    suites: suites.map((suite) => {
      const drops = book?.drops(suiteLabel(suite)) ?? { runs: 0, records: 0 };
      return { suite_key: suite.key, version: suite.version, pinned_hashes: new Set(suite.hashes).size, scenario_version_hashes: [...new Set(suite.hashes)], scenario_ids: [...new Set(suite.scenarioIds)], runs_dropped: drops.runs, records_dropped: drops.records };
    }),
    undecided_records: book?.undecided ?? 0,
  };
}

/** The card's sentence: which suites' scenarios the dataset excludes, or that it was not checked. */
export function decontaminationSentence(section: DecontaminationManifest): string {
  if (section.suites.length === 0) {
    return section.suites_sha256 === null
      ? "Not checked against the service's benchmark suites: it may hold runs of benchmark scenarios."
      : "Checked against the service's benchmark suites; none was applied.";
  }
  const names = section.suites.map((s) => `\`${s.suite_key}@${s.version}\``).join(", ");
  const dropped = section.suites.reduce((n, s) => n + s.records_dropped, 0);
  return `Decontaminated: it excludes every run on a scenario pinned by the benchmark suite${section.suites.length === 1 ? "" : "s"} ${names} (by \`scenario_version_hash\`, copies included, and by scenario id; ${dropped} record${dropped === 1 ? "" : "s"} dropped as \`benchmark_scenario\`), so evaluating on ${section.suites.length === 1 ? "it" : "them"} is not training-set contamination.`;
}
