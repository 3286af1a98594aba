import type { RlRecord, RlTuple } from "../formats/rl.js";
import { admitTexts, turnTexts } from "./admit-texts.js";
import { promptFromWindow } from "./prompt-from-window.js";
import { stepAction } from "./step-action.js";
import type { Prompt, Turn } from "./prompt-from-window.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** An RL action step that gives a row: its tuple, the prompt its window makes and its action as the reply. */
export interface ActionStep {
  readonly tuple: RlTuple;
  readonly prompt: Prompt;
  readonly completion: Turn;
}

/** Where the audit counts a step row's texts: TRL rows have two columns, OpenAI rows one list. */
export interface StepPaths {
  readonly prompt: string;
  readonly completion: string;
}

/**
 * The action steps of an RL trajectory that give a row, in order; the others are counted in `result` by
 * reason (`no_action`, `null_content`, `empty_content`, `no_prompt`, `injection`). A kept step's texts are
 * counted in the audit at `paths`, and a trimmed prompt in `result.trimmed`.
 */
export function actionSteps(record: RlRecord, env: ViewEnv, result: ViewResultBuilder<unknown>, paths: StepPaths): ActionStep[] {
  const steps: ActionStep[] = [];
  const checks = new WindowChecks(env.check);
  for (const tuple of record.tuples) {
    const action = stepAction(tuple, env, result);
    if (action === null) continue;
    checks.next();
    const prompt = promptFromWindow(tuple.state.transcript_window, record.seat.role, checks.of, env.systemPrompt);
    if (prompt === null) {
      result.drop("no_prompt");
      continue;
    }
    const completion: Turn = { role: "assistant", content: action.text, changed: action.changed, inject: action.inject };
    if (admitTexts(env, [...turnTexts(paths.prompt, prompt.turns), ...turnTexts(paths.completion, [completion])]) === "injection") {
      result.drop("injection");
      continue;
    }
    if (prompt.trimmed) result.trimmed++;
    steps.push({ tuple, prompt, completion });
  }
  return steps;
}
