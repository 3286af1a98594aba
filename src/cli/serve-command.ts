import { Command } from "commander";
import { WHOLE_RANGES } from "../service/emulator-options.js";
import { wholeNumber } from "../plan/parse-text.js";
import { parseFaultSpec } from "../service/fault-spec.js";
import { EXIT } from "./exit-codes.js";
import { runAction } from "./run-action.js";

/** Where `serve` talks to, and what stops it; replaceable so the command can be tested in-process. */
export interface ServeIo {
  /** The ready line goes here (and nothing else does). */
  readonly stdout: (text: string) => void;
  /** One JSON line per injected fault. */
  readonly stderr: (text: string) => void;
  /**
   * Resolves with the signal's name when the server should stop. Called once, before the server starts,
   * so a signal that arrives during start-up still ends in a clean close and status 0.
   */
  readonly stopped: () => Promise<string>;
}

interface ServeFlags {
  port: number;
  host: string;
  seed: number;
  runs: number;
  epoch: number;
  faults?: string;
  extraFields?: boolean;
  benchmarkRuns?: boolean;
}

/**
 * `evalshard serve`: runs the bundled emulator of the agent-evaluation service until SIGINT or SIGTERM.
 * Once ready it prints exactly one JSON line, `{url, owner_token, api_keys}`, to stdout.
 */
export function serveCommand(io: ServeIo = processIo()): Command {
  return new Command("serve")
    .description("serve the bundled emulator of the agent-evaluation service (seeded world, fault injection)")
    .option("--port <n>", "TCP port; 0 picks a free one", wholeNumber("--port", ...WHOLE_RANGES.port), 0)
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--seed <n>", "world seed: same seed and options, same bytes", wholeNumber("--seed", ...WHOLE_RANGES.seed), 1)
    .option("--runs <n>", "number of runs in the world", wholeNumber("--runs", ...WHOLE_RANGES.runs), 300)
    .option("--epoch <n>", "epoch to start at (POST /_emulator/advance moves one on)", wholeNumber("--epoch", ...WHOLE_RANGES.epoch), 0)
    .option("--faults <spec>", "seeded fault rates, e.g. 429=0.08,502=0.05,503=0.02,504=0.02,reset=0.03,cut=0.03,partial=0.05,slow=0.01", faultSpec)
    .option("--extra-fields", "also serve the emulator's additions to the spec's fields (docs/emulator.md); default: only the spec's")
    .option("--benchmark-runs", "some runs are on benchmark suite scenarios or copies of them, and a suite is released at epoch 1 (docs/emulator.md)")
    .action(
      runAction(async (flags: ServeFlags) => {
        const stopped = io.stopped();
        const { startEmulator } = await import("../service/start-emulator.js");
        const emulator = await startEmulator({
          port: flags.port,
          host: flags.host,
          seed: flags.seed,
          runs: flags.runs,
          epoch: flags.epoch,
          faults: flags.faults,
          extraFields: flags.extraFields === true,
          benchmarkRuns: flags.benchmarkRuns === true,
          onFault: (event) => io.stderr(`${JSON.stringify({ fault: event })}\n`),
        });
        io.stdout(`${JSON.stringify(emulator.info)}\n`);
        await stopped;
        await emulator.close();
        return EXIT.ok;
      }),
    );
}

function faultSpec(value: string): string {
  parseFaultSpec(value);
  return value;
}

function processIo(): ServeIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stopped: () =>
      new Promise((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve(signal);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      }),
  };
}
