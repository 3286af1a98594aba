import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { SlowestFirstSequencer } from "./test/helpers/slowest-first-sequencer.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default (cores - 1) is one file at a time on a 2-core machine, while most files wait on child
    // processes, Python or sleeps; two at a time there (docs/benchmarks.md, "Test suite wall time").
    maxWorkers: Math.max(Math.min(2, availableParallelism()), availableParallelism() - 1),
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
