import type { Command } from "commander";

/**
 * Lists each format's untrusted paths under the help of the commands that take `--untrusted`, so the flag's
 * `<path>` can be written without reading the schemas. Loaded only for help: the formats bring zod, which a
 * convert on the parallel engine starts without.
 */
export async function addUntrustedHelp(commands: readonly Command[]): Promise<void> {
  const takers = commands.filter((c) => c.options.some((o) => o.long === "--untrusted"));
  if (takers.length === 0) return;
  const [{ FORMATS }, { FORMAT_NAMES }] = await Promise.all([import("../formats/index.js"), import("../formats/format.js")]);
  const lines = FORMAT_NAMES.map((name) => `  ${name} ${FORMATS[name].version}: ${FORMATS[name].untrustedPaths.join(", ")}`);
  const text = `\nUntrusted paths (--untrusted <path>=drop|redact|keep; each is dropped unless told otherwise):\n${lines.join("\n")}\n`;
  for (const command of takers) command.addHelpText("after", text);
}
