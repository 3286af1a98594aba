import { Command } from "commander";
import { describe, expect, expectTypeOf, it } from "vitest";
import { addOptionFlags, optionsFromFlags } from "../../src/cli/option-flags.js";
import { checkOptions } from "../../src/plan/check-options.js";
import { choice } from "../../src/plan/option-kind.js";
import { defineOptions } from "../../src/plan/option-spec.js";
import type { OptionsOf } from "../../src/plan/option-spec.js";
import { OPTIONS } from "../../src/plan/options.js";
import { fromYamlKeys, toYamlKeys } from "../../src/plan/yaml-keys.js";
import { pipelineSpecOf } from "../../src/pipeline-file/pipeline-spec.js";

// Issue 19's `--seats`, added the way a newcomer would: one entry in the table. Everything below is derived.
// The real table has it now (src/stages/select.ts): this test adds its first draft to the table without it.
const { seats: _real, ...WITHOUT_SEATS } = OPTIONS;
const TABLE = defineOptions({
  ...WITHOUT_SEATS,
  seats: {
    kind: choice(["agent", "all"]),
    default: "agent",
    help: "agent: drop adversary (aic) seats; all: keep them",
    takenBy: ["convert", "pull"],
    flag: "--seats <which>",
    yaml: { key: "select.seats" },
  },
});

function convertWith(argv: string[]): Command {
  const command = addOptionFlags(new Command("convert").exitOverride(), "convert", TABLE);
  command.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  return command.parse(argv, { from: "user" });
}

describe("adding an option to the table", () => {
  it("gives the commands that take it a flag, with help, default and choices", () => {
    const help = addOptionFlags(new Command("convert"), "convert", TABLE).helpInformation().replace(/\s+/g, " ");
    expect(help).toContain(`--seats <which> agent: drop adversary (aic) seats; all: keep them (default: agent) (choices: "agent", "all")`);
    expect(addOptionFlags(new Command("validate"), "validate", TABLE).helpInformation()).not.toContain("--seats");
    expect(optionsFromFlags(convertWith(["a.ndjson", "--out", "o", "--seats", "all"]), "convert", TABLE)).toMatchObject({ inputs: ["a.ndjson"], out: "o", seats: "all" });
    expect(() => convertWith(["a.ndjson", "--out", "o", "--seats", "some"])).toThrow(/--seats.*some/);
  });

  it("checks library calls and fills its default", () => {
    expect(checkOptions(TABLE, "convert", { inputs: ["a"], out: "o" }).seats).toBe("agent");
    expect(checkOptions(TABLE, "convert", { inputs: ["a"], out: "o", seats: "all" }).seats).toBe("all");
    expect(() => checkOptions(TABLE, "convert", { inputs: ["a"], out: "o", seats: "some" })).toThrow(/Expected seats to be one of agent, all, got "some"/);
  });

  it("types the library's options", () => {
    expectTypeOf<OptionsOf<typeof TABLE, "convert">["seats"]>().toEqualTypeOf<"agent" | "all" | undefined>();
    expectTypeOf<OptionsOf<typeof TABLE, "validate">>().not.toHaveProperty("seats");
  });

  it("has its pipeline-file key, type, constraint and default", () => {
    expect(toYamlKeys(TABLE, "pull", { seats: "all", maxQuarantined: 0.1 })).toEqual({ select: { seats: "all" }, max_quarantined: 0.1 });
    expect(fromYamlKeys(TABLE, { select: { seats: "all" } }, "http")).toEqual({ seats: "all" });
    // The pipeline file takes the key with no edit of src/pipeline-file/pipeline-spec.ts.
    const { pipelineSpec } = pipelineSpecOf(TABLE as unknown as typeof OPTIONS);
    const base = { version: 1, name: "x", source: { kind: "files", inputs: ["a.ndjson"] }, output: { dir: "out" } };
    expect(pipelineSpec.parse(base)).not.toHaveProperty("select");
    expect(pipelineSpec.parse({ ...base, select: {} })).toMatchObject({ select: { seats: "agent" } });
    expect(pipelineSpec.parse({ ...base, select: { seats: "all" } })).toMatchObject({ select: { seats: "all" } });
    expect(pipelineSpec.safeParse({ ...base, select: { seats: "some" } }).error?.issues[0]).toMatchObject({ path: ["select", "seats"], message: 'expected one of agent, all, got "some"' });
    expect(pipelineSpec.safeParse({ ...base, select: { seat: "all" } }).success).toBe(false); // still strict
  });
});
