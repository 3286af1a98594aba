import { Option } from "commander";
import type { Command } from "commander";
import { ConfigError } from "../core/errors.js";
import { printWarnings } from "./shared-flags.js";

const FLAG = "--engine <name>";

/**
 * `--engine`, out of the option table and help since one engine runs every plan (issue 33). A cron line that
 * still names it must keep running, so the flag is parsed, hidden; {@link retiredEngine} judges its value.
 */
export function addRetiredEngineFlag(command: Command): Command {
  return command.addOption(new Option(FLAG).hideHelp());
}

/**
 * The given `--engine` of `command`: `auto` and `parallel` (what runs anyway) are a warning on stderr;
 * `stages` and anything else a usage error, before anything is read or created.
 */
export function retiredEngine(command: Command): void {
  const value = command.opts<{ engine?: string }>().engine;
  if (value === undefined) return;
  if (value === "auto" || value === "parallel") {
    printWarnings([`--engine ${value} is deprecated and ignored: one engine runs every plan; --workers N sets its worker threads (0: main's thread alone)`]);
    return;
  }
  if (value === "stages") throw new ConfigError(`--engine stages: the stages engine was removed in this version; every plan runs on the one engine (--workers 0 runs it on main's thread, --workers N across N worker threads)`);
  throw new ConfigError(`--engine ${JSON.stringify(value)}: --engine is deprecated (its only values were auto, parallel and stages); --workers N sets the engine's worker threads`);
}
