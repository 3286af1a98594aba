import type { RlRecord, RlTuple } from "../formats/rl.js";
import { admitTexts, turnTexts } from "./admit-texts.js";
import type { RowText } from "./admit-texts.js";
import { promptFromWindow } from "./prompt-from-window.js";
import type { Prompt } from "./prompt-from-window.js";
import type { Checked } from "./sanitize-text.js";
import { rewardLabel } from "./reward-label.js";
import { EPISODE_KEY_COLUMNS, episodeKeys } from "./row-keys.js";
import type { EpisodeKeys } from "./row-keys.js";
import { stepAction } from "./step-action.js";
import { MERGE_SEPARATOR } from "./turn.js";
import type { View } from "./view.js";
import { traitsOf } from "./view-traits.js";
import type { ViewEnv } from "./view-env.js";
import { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** A row of `trl-stepwise`: TRL's stepwise-supervision type (standard: plain strings), one seat episode. */
export type TrlStepwiseRow = {
  prompt: string;
  completions: string[];
  labels: boolean[];
} & EpisodeKeys & {
  /** The `index` of the step each completion is the action of. */
  step_indices: number[];
};

/** What PRMTrainer puts between completions (`PRMConfig.step_separator`'s default): how a budget counts them. */
const STEP_SEPARATOR = "\n";

/**
 * One row per seat episode, for a process reward model: the prompt is the window of the episode's first
 * step that gives one (its messages' texts joined by a blank line: TRL's stepwise type is plain text), the
 * completions are the agent's actions step by step, and each label is the step's reward rule (`ktoLabel`:
 * `scalar_reward > 0` by default, or its return to go > 0). A step without an action, or whose action is null
 * or blank, is left out (`no_action`, `null_content`, `empty_content`), as are steps before the first window
 * that gives a prompt (`no_prompt`); an episode with no step left gives no row. Under `onInjection: drop` a
 * text matching a pattern drops the whole episode, counted once as `injection`.
 */
export const trlStepwise: View<"rl", TrlStepwiseRow> = {
  name: "trl-stepwise",
  ...traitsOf("trl-stepwise"),
  unit: "episode",
  columns: [
    { name: "prompt", type: { kind: "string" }, nullable: false },
    { name: "completions", type: { kind: "list", item: { kind: "string" } }, nullable: false },
    { name: "labels", type: { kind: "list", item: { kind: "bool" } }, nullable: false },
    ...EPISODE_KEY_COLUMNS,
    { name: "step_indices", type: { kind: "list", item: { kind: "int64" } }, nullable: false },
  ],
  trl: { type: "stepwise supervision", trainer: "experimental.prm.PRMTrainer", format: "standard" },
  description: "Each RL seat episode as a stepwise-supervision example: the first window as prompt, the agent's actions as completions, each labelled by its step's reward.",
  training: (row) => ({ prompt: [{ role: "user", content: row.prompt }], completions: [[{ role: "assistant", content: row.completions.join(STEP_SEPARATOR) }]] }),
  rows(record, env) {
    const result = new ViewResultBuilder<TrlStepwiseRow>();
    const episode = episodeOf(record, env, result);
    if (episode === null) {
      result.drop("no_turns");
      return result.result();
    }
    const { prompt, steps } = episode;
    const texts: RowText[] = [...turnTexts("prompt", prompt.turns), ...steps.map((s) => ({ path: "completions[]", text: s.text, changed: s.changed, inject: s.inject }))];
    if (!admitTexts(env, result, texts)) return result.result();
    if (prompt.trimmed) result.trimmed++;
    const label = rewardLabel(record, env.ktoLabel, env.gamma);
    result.rows.push({
      prompt: prompt.turns.map((t) => t.content).join(MERGE_SEPARATOR),
      completions: steps.map((s) => s.text),
      labels: steps.map((s) => label(s.tuple)),
      ...episodeKeys(record),
      step_indices: steps.map((s) => s.tuple.index),
    });
    return result.result();
  },
};

/** A step's action as checked, with its tuple. */
type EpisodeStep = Checked & { readonly tuple: RlTuple };

/** The episode's prompt and the steps that give a completion, the others counted in `result`; null when none is left. */
function episodeOf(record: RlRecord, env: ViewEnv, result: ViewResultBuilder<unknown>): { prompt: Prompt; steps: EpisodeStep[] } | null {
  const checks = new WindowChecks(env.check);
  let prompt: Prompt | null = null;
  const steps: EpisodeStep[] = [];
  record.tuples.forEach((tuple) => {
    const action = stepAction(tuple, env, result);
    if (action === null) return;
    if (prompt === null) {
      checks.next();
      prompt = promptFromWindow(tuple.state.transcript_window, record.seat.role, checks.of, env.systemPrompt);
      if (prompt === null) return result.drop("no_prompt");
    }
    steps.push({ ...action, tuple });
  });
  return prompt === null || steps.length === 0 ? null : { prompt, steps };
}
