import type { OptionKind } from "./option-kind.js";

/** The commands that take run options: each is also a library call (`convert`, `validateInputs`) or a pipeline job (`pull` = `run`). */
export type CommandName = "convert" | "validate" | "pull";
export const COMMAND_NAMES: readonly CommandName[] = ["convert", "validate", "pull"];

/** A pipeline file's `source.kind`. */
export type SourceKind = "files" | "http";

/** Where an option sits in a pipeline file. */
export interface YamlPlace {
  /** Dotted path, e.g. `output.to`, `max_quarantined`, `source.concurrency`. */
  readonly key: string;
  /** For `source.*` keys: the source kinds that have it. */
  readonly sources?: readonly SourceKind[];
  /** Required in these source kinds only (default: wherever the option is required). */
  readonly requiredIn?: readonly SourceKind[];
}

/** One run option, stated once: everything the CLI, the library, pipeline files and the plan know of it. */
export interface OptionSpec<T = unknown> {
  readonly kind: OptionKind<T>;
  /** Help text of the flag (or argument); `helpIn` overrides it for one command. */
  readonly help: string;
  readonly helpIn?: Partial<Record<CommandName, string>>;
  /** The commands (and so the library calls and pipeline jobs) that take it. */
  readonly takenBy: readonly CommandName[];
  /** Filled in when the option is not given; a function for a machine-dependent default. */
  readonly default?: T | (() => T);
  /** How help shows a default that is a function. */
  readonly defaultShown?: string;
  /** Required everywhere it is taken (true) or in these commands only. */
  readonly required?: boolean | readonly CommandName[];
  /** The CLI spelling, e.g. `--shard-rows <n>`; absent: a library-only option (or an argument). */
  readonly flag?: string;
  /** A positional argument instead of the flag, in these commands, e.g. `<inputs...>`. */
  readonly argument?: { readonly spelling: string; readonly in: readonly CommandName[] };
  readonly yaml?: YamlPlace;
  /** false: a CLI-only switch of how the command prints (`--json`), not a library option. */
  readonly library?: false;
}

/** A table of options. Deriving everything else from a table (not from a module constant) lets a test add one. */
export type OptionTable = Readonly<Record<string, OptionSpec<any>>>;

/** Keeps every entry's literal types (commands, kinds) so the library's option types can be derived from it. */
export function defineOptions<const O extends OptionTable>(table: O): O {
  return table;
}

export function isRequired(spec: OptionSpec<any>, command: CommandName): boolean {
  return spec.required === true || (Array.isArray(spec.required) && spec.required.includes(command));
}

export function defaultOf<T>(spec: OptionSpec<T>): T | undefined {
  return typeof spec.default === "function" ? (spec.default as () => T)() : spec.default;
}

/** The flag as messages name it: `--shard-rows` of `--shard-rows <n>`. */
export function flagName(spec: OptionSpec<any>): string | undefined {
  return spec.flag?.split(" ")[0];
}

export function helpOf(spec: OptionSpec<any>, command: CommandName): string {
  return spec.helpIn?.[command] ?? spec.help;
}

type ValueOf<S> = S extends OptionSpec<infer T> ? T : never;
type Takes<S, C extends CommandName> = S extends { readonly takenBy: readonly (infer N)[] } ? (C extends N ? (S extends { readonly library: false } ? false : true) : false) : false;
type Needs<S, C extends CommandName> = S extends { readonly required: true } ? true : S extends { readonly required: readonly (infer N)[] } ? (C extends N ? true : false) : false;

/** The library's options for a command, derived from the table: required keys where the option is required. */
export type OptionsOf<O extends OptionTable, C extends CommandName> = {
  readonly [K in keyof O as Takes<O[K], C> extends true ? (Needs<O[K], C> extends true ? K : never) : never]: ValueOf<O[K]>;
} & {
  readonly [K in keyof O as Takes<O[K], C> extends true ? (Needs<O[K], C> extends true ? never : K) : never]?: ValueOf<O[K]>;
};

/** Every option of a command with its default filled in (undefined where there is none). */
export type ResolvedOptionsOf<O extends OptionTable, C extends CommandName> = {
  readonly [K in keyof O as Takes<O[K], C> extends true ? K : never]: O[K] extends { readonly default: unknown } ? ValueOf<O[K]> : ValueOf<O[K]> | undefined;
};
