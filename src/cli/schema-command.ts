import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command, Option } from "commander";
import { FORMAT_NAMES } from "../formats/format.js";
import { EXIT } from "./exit-codes.js";
import { runAction } from "./run-action.js";
import { ConfigError } from "../core/errors.js";

export function schemaCommand(): Command {
  return new Command("schema")
    .description("print the JSON Schema of a format (generated from its zod schema), or write them all")
    .addOption(new Option("--format <name>", "the format to print").choices([...FORMAT_NAMES]))
    .option("--columns", "print the typed Parquet columns instead of the JSON Schema")
    .option("--write <dir>", "write every format's JSON Schema into a directory")
    .action(
      runAction(async (flags: { format?: string; columns?: boolean; write?: string }) => {
        const [{ FORMATS, formatByName }, { jsonSchemaFileName, jsonSchemaText }] = await Promise.all([import("../formats/index.js"), import("../formats/json-schema.js")]);
        if (flags.write !== undefined) {
          await mkdir(flags.write, { recursive: true });
          for (const format of Object.values(FORMATS)) await writeFile(join(flags.write, jsonSchemaFileName(format)), jsonSchemaText(format));
          return EXIT.ok;
        }
        if (flags.format === undefined) throw new ConfigError("Pass --format sft|rl|dpo, or --write DIR");
        const format = formatByName(flags.format);
        process.stdout.write(flags.columns === true ? `${JSON.stringify(format.columns, null, 2)}\n` : jsonSchemaText(format));
        return EXIT.ok;
      }),
    );
}
