import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { importsAny } from "./imports-any.js";
import { setupPhasePending, type SetupPhase } from "./setup-phase.js";

/**
 * The suite's slowest files, slowest first (per-file times of a whole run, docs/benchmarks.md "Test suite wall
 * time"). A fresh checkout has no vitest results cache, and without one vitest orders files by size, so one of
 * these could start last and run alone on one core while the other idles.
 */
export const SLOWEST_FILES: readonly string[] = [
  "test/engines/executors-agree.test.ts",
  "test/views/token-proof.test.ts",
  "test/cli/fenced-publish.test.ts",
  "test/readers/jsonl-parquet-rows.test.ts",
  "test/cli/verify-every-dataset.test.ts",
  "test/cli/publish-guards.test.ts",
  "test/jobs/nightly/cli-nightly.test.ts",
  "test/jobs/nightly/unit-nightly.test.ts",
  "test/cli/verify-s3-every-file.test.ts",
  "test/cli/fenced-publish-s3.test.ts",
  "test/views/trl-proof.test.ts",
  "test/sinks/interop.test.ts",
  "test/readers/recursive-read.test.ts",
  "test/cli/dry-run.test.ts",
];

/** The helpers that wait for each of `npm test`'s background phases (test/helpers/setup-phase.ts). */
const WAITERS: Record<SetupPhase, string> = {
  "python-venv": fileURLToPath(new URL("./python.ts", import.meta.url)),
  chromium: fileURLToPath(new URL("./headless-chromium.ts", import.meta.url)),
};

/** The test files (absolute paths) that would wait at import for a set-up phase still running; the others first. */
export function waitingLast(files: readonly string[]): string[] {
  const waiters = Object.entries(WAITERS).flatMap(([phase, helper]) => (setupPhasePending(phase as SetupPhase) ? [helper] : []));
  if (waiters.length === 0) return [...files];
  const waits = new Set(files.filter((file) => importsAny(file, waiters)));
  return [...files.filter((file) => !waits.has(file)), ...files.filter((file) => waits.has(file))];
}

/**
 * Vitest's order (failed, then longest by its cache, else largest first), with {@link SLOWEST_FILES} ahead of it;
 * while `npm test` still fills the venv (or installs Chromium), the files that need neither go first.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const at = SLOWEST_FILES.indexOf(relative(file.project.config.root, file.moduleId));
      return at === -1 ? SLOWEST_FILES.length : at;
    };
    sorted.sort((a, b) => rank(a) - rank(b));
    const order = waitingLast(sorted.map((file) => file.moduleId));
    return sorted.sort((a, b) => order.indexOf(a.moduleId) - order.indexOf(b.moduleId));
  }
}
