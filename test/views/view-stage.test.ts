import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import type { Flow, Kept, Quarantined } from "../../src/core/flow.js";
import { viewRecords, type ViewedRecord } from "../../src/index.js";
import { dpoRecord } from "../../src/formats/dpo.js";
import { FORMATS } from "../../src/formats/index.js";
import { FIXTURES } from "../helpers/flow.js";
import type { ValidRecord } from "../../src/formats/valid-record.js";
import { openAiDpo } from "../../src/views/openai-dpo.js";
import { trlKto } from "../../src/views/trl-kto.js";
import { trlPreference } from "../../src/views/trl-preference.js";
import { viewCard } from "../../src/views/view-card.js";
import { viewManifest } from "../../src/views/view-manifest.js";
import { viewEnv } from "../../src/views/view-env.js";
import { viewStage } from "../../src/views/view-stage.js";
import { ViewTally } from "../../src/views/view-tally.js";
import { VIEWS } from "../../src/views/views.js";
import { RULES_TRAJECTORY } from "./helpers/view-fixtures.js";

const provenance = { source: "rl.ndjson", line: 3, offset: 120 };
const valid = (record: object, format = FORMATS.rl): ValidRecord => ({ format, record: record as Record<string, unknown>, facts: format.facts(record as never), ordinal: 0, bytes: 100, digest: 0 });

async function collect<T>(items: AsyncIterable<Flow<T>>): Promise<Flow<T>[]> {
  const out: Flow<T>[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* flows(...items: Flow<ValidRecord>[]): AsyncIterable<Flow<ValidRecord>> {
  yield* items;
}

describe("a view as a stage", () => {
  it("turns a kept record into its rows, each with the record's provenance, and passes other items through", async () => {
    const tally = new ViewTally();
    const dropped: Flow<ValidRecord> = { kind: "dropped", provenance, reason: "flagged" };
    const out = await collect(viewStage(VIEWS["trl-prompt-completion"], viewEnv(), tally)(flows({ kind: "kept", provenance, value: valid(RULES_TRAJECTORY) }, dropped)));
    expect(out.map((i) => i.kind)).toEqual(["kept", "kept", "kept", "dropped"]);
    expect(out[0]?.provenance).toEqual(provenance);
    expect(tally.counts()).toEqual({ records_in: 1, rows_out: 3, dropped: { empty_content: 1, no_action: 2, no_prompt: 1, null_content: 1 }, prompts_trimmed: 1 });
  });

  it("refuses a record of another format, and a DPO view without context", async () => {
    const sft = { ...RULES_TRAJECTORY };
    const wrong = viewStage(VIEWS["rl-steps"], viewEnv(), new ViewTally())(flows({ kind: "kept", provenance, value: { ...valid(sft), format: FORMATS.sft } }));
    await expect(collect(wrong)).rejects.toThrow(/reads rl records, but rl.ndjson holds sft records/);
    expect(() => viewStage(VIEWS["trl-preference"], viewEnv(), new ViewTally())).toThrow(ConfigError);
  });

  it("asks a DPO view without context for it as the CLI's plan does, from the stage and from the view's rows", () => {
    const asked = /The view (trl-preference|openai-dpo) takes its prompts from RL records: give the RL export with --context <files or dirs>/;
    expect(() => viewStage(VIEWS["trl-preference"], viewEnv(), new ViewTally())).toThrow(asked);
    const [line] = readFileSync(`${FIXTURES}records/views-dpo.ndjson`, "utf8").split("\n");
    const record = dpoRecord.parse(JSON.parse(line ?? ""));
    expect(() => openAiDpo.rows(record, viewEnv())).toThrow(/The view openai-dpo takes its prompts from RL records: give the RL export/);
    expect(() => trlPreference.rows(record, viewEnv())).toThrow(asked);
  });
});

describe("a view as a record-level stage (viewRecords, the library's)", () => {
  const kept: Flow<ValidRecord> = { kind: "kept", provenance, value: valid(RULES_TRAJECTORY) };
  const dropped: Flow<ValidRecord> = { kind: "dropped", provenance, reason: "flagged" };

  it("keeps each record as one item carrying its rows, counting rows and left-out steps as viewStage does", async () => {
    const [rowTally, recordTally] = [new ViewTally(), new ViewTally()];
    const rows = await collect(viewStage(VIEWS["trl-prompt-completion"], viewEnv(), rowTally)(flows(kept)));
    const env = viewEnv();
    const out = await collect(viewRecords(VIEWS["trl-prompt-completion"], env, recordTally, "keep")(flows(kept, dropped)));
    expect(out.map((i) => i.kind)).toEqual(["kept", "dropped"]);
    const first = out[0] as Kept<ViewedRecord>;
    expect(first.provenance).toEqual(provenance);
    expect(first.value.record).toBe(kept.value);
    expect(first.value.rows).toEqual(rows.map((r) => (r as Kept<Record<string, unknown>>).value));
    expect(recordTally.counts()).toEqual(rowTally.counts());
    expect(env.audit.summary()["prompt[].content"]).toEqual({ values: 3, changed: 1, injected: 1, patterns: { ignore_previous: 1 } });
  });

  it("under quarantine, quarantines a record whose rows matched an injection pattern whole: no rows, no counts, no audit", async () => {
    const tally = new ViewTally();
    const env = viewEnv();
    const out = await collect(viewRecords(VIEWS["trl-prompt-completion"], env, tally, "quarantine")(flows(kept, dropped)));
    expect(out.map((i) => i.kind)).toEqual(["quarantined", "dropped"]);
    const q = out[0] as Quarantined;
    expect([q.reason, q.provenance, q.rawLength]).toEqual(["injection", provenance, 100]);
    expect(q.detail).toBe("1 step of the trl-prompt-completion view matched a prompt-injection pattern (--on-injection quarantine)");
    expect(JSON.parse(q.raw)).toEqual(RULES_TRAJECTORY);
    expect(tally.counts().records_in).toBe(0);
    expect(env.audit.summary()).toEqual({});
  });
});

describe("the view's part of the dataset card", () => {
  it("names the view, TRL's dataset type and trainer, what was left out and what the texts carry", () => {
    const env = viewEnv();
    const tally = new ViewTally();
    tally.add(trlKto.rows(RULES_TRAJECTORY, env));
    const manifest = viewManifest({ view: trlKto, counts: tally.counts(), audit: env.audit.summary(), onInjection: "keep", systemPrompt: false, extraControlTokens: 0, context: null, tokens: null });
    const card = viewCard(trlKto, manifest).join("\n");
    expect(card).toContain("the `trl-kto` view");
    expect(card).toContain("conversational unpaired preference, for `trl.KTOTrainer`");
    expect(card).toContain("Steps left out: `empty_content` 1, `no_action` 2, `no_prompt` 1, `null_content` 1.");
    expect(card).toContain("| `prompt[].content` | 3 | 1 | 1 (ignore_previous 1) |");
  });
});
