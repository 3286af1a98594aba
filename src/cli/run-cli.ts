import { Command, CommanderError } from "commander";
import { EVALSHARD_VERSION } from "../core/version.js";
import { commitCommand } from "./commit-command.js";
import { convertCommand } from "./convert-command.js";
import { EXIT } from "./exit-codes.js";
import { addUntrustedHelp } from "./untrusted-help.js";
import { inspectCommand } from "./inspect-command.js";
import { ERROR_PREFIX, exitCodeOf } from "./run-action.js";
import { schemaCommand } from "./schema-command.js";
import { serveCommand } from "./serve-command.js";
import { pullCommand } from "./pull-command.js";
import { quietBrokenPipe } from "./quiet-broken-pipe.js";
import { redactProcessOutput } from "./redacted-output.js";
import { runCommand } from "./run-command.js";
import { demoCommand } from "./demo-command.js";
import { validateCommand } from "./validate-command.js";
import { verifyCommand } from "./verify-command.js";
import { reportCommand } from "./report-command.js";

const COMMANDS: Readonly<Record<string, () => Command>> = {
  convert: convertCommand,
  validate: validateCommand,
  inspect: inspectCommand,
  schema: schemaCommand,
  serve: () => serveCommand(),
  pull: pullCommand,
  run: runCommand,
  demo: demoCommand,
  verify: verifyCommand,
  report: reportCommand,
  commit: commitCommand,
};

/** The CLI: parses `argv` (as `process.argv`) and runs the command; sets `process.exitCode`. */
export async function runCli(argv: readonly string[]): Promise<void> {
  redactProcessOutput();
  quietBrokenPipe();
  const program = new Command("evalshard")
    .description("turn agent-evaluation service exports into clean, validated training datasets")
    .version(EVALSHARD_VERSION)
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)");

  // Building a command costs ~1 ms (its flags, cold code): a run builds only its own, so `convert` does not
  // pay for seven others while its workers wait. Anything else (help, version, a typo) gets them all.
  const named = COMMANDS[argv[2] ?? ""];
  // Commander prints its usage errors as `error: ...`; ours say `evalshard: ...`: one prefix to grep for.
  const output = { outputError: (text: string, write: (t: string) => void) => write(text.replace(/^error: /, ERROR_PREFIX)) };
  program.configureOutput(output);
  const commands = (named === undefined ? Object.values(COMMANDS) : [named]).map((build) => build().exitOverride().configureOutput(output));
  for (const command of commands) program.addCommand(command);
  if (argv.includes("--help") || argv.includes("-h") || argv[2] === "help") await addUntrustedHelp(commands);

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end in "errors" too; a wrong flag is a usage error.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else {
      process.stderr.write(`${ERROR_PREFIX}${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = exitCodeOf(error);
    }
  }
}
