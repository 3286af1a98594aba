import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FORMATS } from "../../src/formats/index.js";
import { jsonSchemaFileName, jsonSchemaOf, jsonSchemaText } from "../../src/formats/json-schema.js";

const dir = new URL("../../schemas/", import.meta.url);

describe("schemas/ (JSON Schema generated from the zod schemas)", () => {
  it("holds exactly one file per format version", () => {
    expect(readdirSync(dir).sort()).toEqual(Object.values(FORMATS).map(jsonSchemaFileName).sort());
  });

  for (const format of Object.values(FORMATS)) {
    it(`${jsonSchemaFileName(format)} is fresh (regenerate with: npm run schemas)`, () => {
      expect(readFileSync(new URL(jsonSchemaFileName(format), dir), "utf8")).toBe(jsonSchemaText(format));
    });
  }

  it("pins the version and accepts undeclared fields, as the spec tells clients to", () => {
    const schema = jsonSchemaOf(FORMATS.sft) as { properties: Record<string, { const?: string }>; additionalProperties?: unknown };
    expect(schema.properties.format_version?.const).toBe("1.1");
    expect(schema.additionalProperties).toBeUndefined();
  });
});
