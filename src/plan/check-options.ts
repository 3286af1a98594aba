import { ConfigError } from "../core/errors.js";
import { shown } from "./option-kind.js";
import { defaultOf, isRequired } from "./option-spec.js";
import type { CommandName, OptionSpec, OptionTable, ResolvedOptionsOf } from "./option-spec.js";

/** The message for a bad value of an option, named as the caller knows it (`shardRows`, `--shard-rows`, `max_quarantined`). */
export function badValue(spec: OptionSpec<any>, name: string, value: unknown): ConfigError {
  return new ConfigError(spec.kind.message?.(name, value) ?? `Expected ${name} to be ${spec.kind.expected}, got ${shown(value)}`);
}

/**
 * A library call's options for `command`, checked against the table and with defaults filled in. Every
 * fault is a ConfigError naming the option and the value. Options the command does not take are ignored,
 * as TypeScript callers cannot pass them anyway.
 */
export function checkOptions<O extends OptionTable, C extends CommandName>(table: O, command: C, input: object): ResolvedOptionsOf<O, C> {
  const given = input as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (!spec.takenBy.includes(command) || spec.library === false) continue;
    const value = given[name];
    if (value === undefined) {
      if (isRequired(spec, command)) {
        if (spec.kind.message !== undefined) throw badValue(spec, name, value);
        throw new ConfigError(`Missing ${name}: expected ${spec.kind.expected}`);
      }
      out[name] = defaultOf(spec);
    } else if (!spec.kind.accepts(value)) {
      throw badValue(spec, name, value);
    } else {
      out[name] = value;
    }
  }
  return out as ResolvedOptionsOf<O, C>;
}
