import { Argument, Option } from "commander";
import type { Command } from "commander";
import { flagName, helpOf, isRequired } from "../plan/option-spec.js";
import type { CommandName, OptionSpec, OptionTable } from "../plan/option-spec.js";
import { OPTIONS } from "../plan/options.js";

/** `--no-filter-no-trace` for the rule `no_trace` of a switches kind with prefix `filter`. */
export function switchFlag(prefix: string, rule: string): string {
  return `--no-${prefix}-${rule.replaceAll("_", "-")}`;
}

/** The option's help as the command shows it: its text and, where there is one, its default as people write it. */
function helpText(spec: OptionSpec<any>, command: CommandName): string {
  const help = helpOf(spec, command);
  if (spec.defaultShown !== undefined) return `${help} (default: ${spec.defaultShown})`;
  const value = typeof spec.default === "function" ? undefined : spec.default;
  if (value === undefined || value === false || typeof value === "object") return help;
  return `${help} (default: ${spec.kind.show(value)})`;
}

/**
 * Adds every option of the table that `command` takes as its flag (or positional argument), generated from
 * the table: spelling, help, readable default, choices, the kind's parser. Defaults are not set on the
 * flags: `resolvePlan` fills them, the same for the CLI and library calls.
 */
export function addOptionFlags(command: Command, name: CommandName, table: OptionTable = OPTIONS): Command {
  for (const spec of Object.values(table)) {
    if (!spec.takenBy.includes(name)) continue;
    const kind = spec.kind;
    if (spec.argument?.in.includes(name) === true) {
      const argument = new Argument(spec.argument.spelling, helpOf(spec, name));
      if (kind.choices !== undefined) argument.choices(kind.choices);
      command.addArgument(argument);
    } else if ("rules" in kind && "prefix" in kind) {
      const { rules, prefix } = kind as unknown as { rules: readonly string[]; prefix: string };
      for (const rule of rules) command.option(switchFlag(prefix, rule), spec.help.replace("{rule}", rule.replaceAll("_", " ")));
    } else if (spec.flag !== undefined) {
      const option = new Option(spec.flag, helpText(spec, name));
      if (kind.choices !== undefined) option.choices(kind.choices);
      else if (kind.fromText !== null && option.isBoolean() === false) option.argParser(kind.fromText(flagName(spec) ?? spec.flag));
      if (isRequired(spec, name)) option.makeOptionMandatory();
      command.addOption(option);
    }
  }
  return command;
}

/**
 * What the user gave, by the table's option names (`--show` -> `firstBad`, `--no-filter-flagged` ->
 * `filters.flagged`), from a command parsed with `addOptionFlags`. Options not given are left out.
 */
export function optionsFromFlags(command: Command, name: CommandName, table: OptionTable = OPTIONS): Record<string, unknown> {
  const flags = command.opts<Record<string, unknown>>();
  const args = [...command.processedArgs];
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    if (!spec.takenBy.includes(name)) continue;
    const kind = spec.kind;
    if (spec.argument?.in.includes(name) === true) {
      out[key] = args.shift();
    } else if ("rules" in kind && "prefix" in kind) {
      const { rules, prefix } = kind as unknown as { rules: readonly string[]; prefix: string };
      const off = rules.filter((rule) => flags[new Option(switchFlag(prefix, rule)).attributeName()] === false);
      if (off.length > 0) out[key] = Object.fromEntries(off.map((rule) => [rule, false]));
    } else if (spec.flag !== undefined) {
      const value = flags[new Option(spec.flag).attributeName()];
      if (value !== undefined) out[key] = value;
    }
  }
  return out;
}
