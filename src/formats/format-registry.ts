import { ConfigError } from "../core/errors.js";
import { isLaterMinor } from "./common.js";
import type { Format, FormatName } from "./format.js";
import { FORMAT_NAMES, VERSION_FIELDS, formatNameOf } from "./format.js";

/** `a` before `b` as `major.minor` versions. */
function byVersion(a: Format, b: Format): number {
  const [aMajor = 0, aMinor = 0] = a.version.split(".").map(Number);
  const [bMajor = 0, bMinor = 0] = b.version.split(".").map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/**
 * The format versions a run accepts, keyed by (name, version): records of every registered version of a
 * dataset's format are read, each judged by its own version's schema and rules. Immutable: {@link with}
 * makes a larger registry, so adding a version is a new `defineFormat` file and one registration.
 */
export class FormatRegistry {
  /** Each name's versions, oldest first. */
  readonly #versions = new Map<FormatName, readonly Format[]>();

  constructor(formats: Iterable<Format>) {
    for (const format of formats) {
      if (format.versionField !== VERSION_FIELDS[format.name]) {
        throw new Error(`Format ${format.name} ${format.version} carries its version in ${format.versionField}, not ${VERSION_FIELDS[format.name]}: the version field names the format`);
      }
      const versions = this.#versions.get(format.name) ?? [];
      if (versions.some((f) => f.version === format.version)) throw new Error(`Format ${format.name} ${format.version} is registered twice`);
      this.#versions.set(format.name, [...versions, format].sort(byVersion));
    }
  }

  /** This registry and `formats`, as a new registry (this one is left as it is). */
  with(...formats: readonly Format[]): FormatRegistry {
    return new FormatRegistry([...this, ...formats]);
  }

  /** Every registered version, by name (FORMAT_NAMES order), oldest first. */
  *[Symbol.iterator](): IterableIterator<Format> {
    for (const name of FORMAT_NAMES) yield* this.versions(name);
  }

  /** The registered versions of `name`, oldest first. */
  versions(name: FormatName): readonly Format[] {
    return this.#versions.get(name) ?? [];
  }

  /** Format `name` at `version` exactly, if registered. */
  get(name: FormatName, version: string): Format | undefined {
    return this.versions(name).find((f) => f.version === version);
  }

  /** The version of `name` a run uses when the user names only the format: the latest registered. */
  current(name: FormatName): Format {
    const latest = this.versions(name).at(-1);
    if (latest === undefined) throw new ConfigError(`No version of format ${name} is registered`);
    return latest;
  }

  /**
   * The format whose version field the object carries, at its current version: a dataset has the current
   * version's columns, and {@link judgeOf} reads records of its other versions; null when the
   * object carries no version field.
   */
  detect(value: object): Format | null {
    const name = formatNameOf(value);
    return name === null ? null : this.current(name);
  }

  /** The versions a dataset of `format` accepts: `format` itself, then the other registered versions of its name. */
  accepted(format: Format): readonly Format[] {
    return [format, ...this.versions(format.name).filter((f) => f.version !== format.version)];
  }

  /**
   * The version that judges a record of a `format` dataset whose version field holds `version`: the accepted
   * version it names, or with `acceptLaterMinor` the latest accepted one it is a later minor of (1.2 is
   * judged as 1.1); null when none may.
   */
  judgeOf(format: Format, version: unknown, acceptLaterMinor: boolean): Format | null {
    // Runs on every line: the common case first, and no allocation before the lenient search.
    if (version === format.version) return format;
    const named = typeof version === "string" ? this.get(format.name, version) : undefined;
    if (named !== undefined || !acceptLaterMinor) return named ?? null;
    return this.accepted(format).filter((f) => isLaterMinor(version, f.version)).sort(byVersion).at(-1) ?? null;
  }
}
