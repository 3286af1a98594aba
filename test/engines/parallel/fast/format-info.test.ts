import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../../../src/engines/parallel/fast/compile-schema.js";
import { compileParserSchema } from "../../../../src/engines/parallel/fast/compile-line-parser.js";
import { parserSchemaFor } from "../../../../src/engines/parallel/fast/parser-schema-for.js";
import { plainSchemaOf, schemaNodeOf } from "../../../../src/engines/parallel/fast/plain-schema.js";
import { FORMAT_NAMES } from "../../../../src/formats/format.js";
import { formatInfoOf } from "../../../../src/engines/parallel/fast/format-info-of.js";
import { loadFormatInfo } from "../../../../src/engines/parallel/fast/load-format-info.js";
import { FORMATS } from "../../../../src/formats/index.js";
import { resolveUntrustedPolicy } from "../../../../src/stages/untrusted-policy.js";

const built = JSON.parse(readFileSync(new URL("../../../../dist/engines/parallel/fast/format-info.json", import.meta.url), "utf8")) as Record<string, unknown>;
/** Plain JSON data, as the build writes it. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe.each(FORMAT_NAMES)("format info of %s (zod-free set-up data)", (name) => {
  const format = FORMATS[name];

  it("the compiled schema survives the trip through plain JSON", () => {
    const compiled = compileSchema(format.schema);
    const plain = asJson(plainSchemaOf(compiled)) as ReturnType<typeof plainSchemaOf>;
    expect(schemaNodeOf(plain)).toEqual(compiled);
  });

  it("the build's format-info.json matches the zod schema (npm run build writes it)", () => {
    expect(built[name]).toEqual(asJson(formatInfoOf(format)));
  });

  it("loads from sources too, deriving it from zod when there is no built file", async () => {
    expect(asJson(await loadFormatInfo(name))).toEqual(asJson(formatInfoOf(format)));
  });

  it("builds the parser schema zod's way, under every policy", () => {
    const paths = format.untrustedPaths;
    const policies = [{}, Object.fromEntries(paths.map((p) => [p, "keep"])), Object.fromEntries(paths.map((p, i) => [p, i % 2 === 0 ? "redact" : "keep"]))];
    for (const overrides of policies) {
      const policy = resolveUntrustedPolicy(format, overrides);
      expect(parserSchemaFor(asJson(formatInfoOf(format)) as ReturnType<typeof formatInfoOf>, policy)).toEqual(compileParserSchema(format, policy));
    }
  });
});
