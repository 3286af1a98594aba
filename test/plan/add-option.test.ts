import { Command } from "commander";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { addOptionFlags, optionsFromFlags } from "../../src/cli/option-flags.js";
import { checkOptions } from "../../src/plan/check-options.js";
import { choice } from "../../src/plan/option-kind.js";
import { defineOptions } from "../../src/plan/option-spec.js";
import type { OptionsOf } from "../../src/plan/option-spec.js";
import { OPTIONS } from "../../src/plan/options.js";
import { fromYamlKeys, toYamlKeys } from "../../src/plan/yaml-keys.js";
import { yamlDefaulted } from "../../src/plan/yaml-field.js";

// Issue 19's `--seats`, added the way a newcomer would: one entry in the table. Everything below is derived.
const TABLE = defineOptions({
  ...OPTIONS,
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
    // In src/pipeline-file/pipeline-spec.ts this is the one line `select: z.strictObject({ seats: yamlDefaulted(z, o.seats) })`;
    // test/plan/stated-once.test.ts fails until it is there.
    const select = z.strictObject({ seats: yamlDefaulted(z, TABLE.seats) });
    expect(select.parse({})).toEqual({ seats: "agent" });
    expect(select.safeParse({ seats: "some" }).error?.issues[0]?.message).toBe('expected one of agent, all, got "some"');
  });
});
