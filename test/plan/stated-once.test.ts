import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { convertCommand } from "../../src/cli/convert-command.js";
import { pullCommand } from "../../src/cli/pull-command.js";
import { validateCommand } from "../../src/cli/validate-command.js";
import { switchFlag } from "../../src/cli/option-flags.js";
import { parsePipeline } from "../../src/pipeline-file/load-pipeline.js";
import { pipelineSpec } from "../../src/pipeline-file/pipeline-spec.js";
import { COMMAND_NAMES } from "../../src/plan/option-spec.js";
import type { CommandName, OptionSpec } from "../../src/plan/option-spec.js";
import { OPTIONS } from "../../src/plan/options.js";

const COMMANDS: Record<CommandName, () => Command> = { convert: convertCommand, validate: validateCommand, pull: pullCommand };
const entries = Object.entries(OPTIONS) as [string, OptionSpec<unknown>][];
/** Keys of a pipeline file that are its structure, not run options. */
const STRUCTURE = ["version", "name", "source.kind"];

/** The spellings an option has on `command`'s command line, read from the table alone. */
function spellingsIn(spec: OptionSpec<unknown>, command: CommandName): string[] {
  if (spec.argument?.in.includes(command) === true) return [spec.argument.spelling.replace(/[<>.[\]]/g, "")];
  const kind = spec.kind as { rules?: readonly string[]; prefix?: string };
  if (kind.rules !== undefined && kind.prefix !== undefined) return kind.rules.map((rule) => switchFlag(kind.prefix as string, rule));
  return spec.flag === undefined ? [] : [spec.flag.split(" ")[0] as string];
}

/** What the command really has: every long flag and argument commander knows. */
function commandSpellings(command: Command): string[] {
  // A hidden flag is a retired one (--engine, cli/retired-engine-flag.ts), parsed for old cron lines: no option.
  return [...command.options.filter((o) => !o.hidden).map((o) => o.long as string), ...command.registeredArguments.map((a) => a.name())];
}

/** Every leaf key of a zod object schema, dotted; union members under their discriminator value. */
function yamlLeaves(schema: unknown, prefix = "", into = new Map<string, string[]>()): Map<string, string[]> {
  const def = (schema as { def: { type: string; innerType?: unknown; shape?: Record<string, unknown>; options?: unknown[]; in?: unknown } }).def;
  if (def.type === "optional" || def.type === "default") return yamlLeaves(def.innerType, prefix, into);
  if (def.type === "union") {
    for (const member of def.options ?? []) {
      const kind = [...((member as { shape: { kind: { values: Set<string> } } }).shape.kind.values)][0] as string;
      const leaves = yamlLeaves(member, prefix);
      for (const [key, kinds] of leaves) into.set(key, [...(into.get(key) ?? []), ...kinds.map(() => kind)]);
    }
    return into;
  }
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (def.type === "object" && shape !== undefined) {
    for (const [key, value] of Object.entries(shape)) yamlLeaves(value, prefix === "" ? key : `${prefix}.${key}`, into);
    return into;
  }
  into.set(prefix, [...(into.get(prefix) ?? []), "any"]);
  return into;
}

describe("every option is stated once, in the option table", () => {
  for (const command of COMMAND_NAMES) {
    it(`${command}: each option that takes it is a flag or argument there, and the command has no other`, () => {
      const has = commandSpellings(COMMANDS[command]());
      const wanted = entries.flatMap(([, spec]) => (spec.takenBy.includes(command) ? spellingsIn(spec, command) : []));
      const libraryOnly = entries.filter(([, spec]) => spec.takenBy.includes(command) && spellingsIn(spec, command).length === 0).map(([name]) => name);
      expect(libraryOnly).toEqual(command === "pull" ? [] : ["stdin"]); // a stream cannot be a flag
      expect([...has].sort()).toEqual([...wanted].sort());
    });
  }

  it("each option with a pipeline key is that key of the pipeline file, and the file has no other run key", () => {
    const leaves = yamlLeaves(pipelineSpec);
    const run = [...leaves.keys()].filter((key) => !STRUCTURE.includes(key));
    const stated = entries.flatMap(([, spec]) => (spec.yaml === undefined ? [] : [spec.yaml.key]));
    expect(run.sort()).toEqual([...new Set(stated)].sort());
    for (const [name, spec] of entries) {
      if (spec.yaml?.sources === undefined) continue;
      expect([...new Set(leaves.get(spec.yaml.key))].sort(), name).toEqual([...spec.yaml.sources].sort());
    }
  });

  it("a pipeline file's defaults are the table's", () => {
    const spec = parsePipeline("version: 1\nname: x\nsource: {kind: http, base_url: 'http://h', format: sft, dpo: {}}\noutput: {dir: out}\n", "p.yaml", {});
    const values: Record<string, unknown> = {};
    for (const [name, option] of entries) {
      if (option.yaml === undefined || option.default === undefined) continue;
      values[name] = option.yaml.key.split(".").reduce<unknown>((at, step) => (at as Record<string, unknown> | undefined)?.[step], spec);
      expect(values[name], option.yaml.key).toEqual(option.default);
    }
    expect(Object.keys(values).length).toBeGreaterThanOrEqual(12);
  });

  it("a bad value is refused the same way by the library, the command line and a pipeline file, each naming it", async () => {
    const { resolvePlan } = await import("../../src/plan/resolve-plan.js");
    const { runCli } = await import("../../src/cli/run-cli.js");
    const base = "version: 1\nname: x\nsource: {kind: files, inputs: [a.ndjson]}\noutput: {dir: out}\n";
    const cases = [
      { name: "maxQuarantined", flag: "--max-quarantined", key: "max_quarantined", library: 2, text: "2", yaml: "max_quarantined: 2" },
      { name: "maxLineBytes", flag: "--max-line-bytes", key: "max_line_bytes", library: 0, text: "0", yaml: "max_line_bytes: 0" },
      { name: "to", flag: "--to", key: "output.to", library: "csv", text: "csv", yaml: "output: {dir: out, to: csv}" },
    ] as const;
    for (const c of cases) {
      expect(() => resolvePlan("convert", { inputs: ["a"], out: "o", [c.name]: c.library } as never), c.name).toThrow(new RegExp(`${c.name}.*${c.text}`));
      const doc = c.yaml.startsWith("output") ? base.replace("output: {dir: out}\n", `${c.yaml}\n`) : `${base}${c.yaml}\n`;
      expect(() => parsePipeline(doc, "p.yaml", {}), c.key).toThrow(new RegExp(`${c.key.replace(".", "\\.")}.*${c.text}`));
      const stderr: string[] = [];
      const write = process.stderr.write;
      process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
      try {
        await runCli(["node", "evalshard", "convert", "a.ndjson", "--out", "o", c.flag, c.text]);
      } finally {
        process.stderr.write = write;
      }
      expect(process.exitCode, c.flag).toBe(2);
      expect(stderr.join(""), c.flag).toMatch(new RegExp(`${c.flag}.*${c.text}`));
    }
    process.exitCode = 0;
  });
});
