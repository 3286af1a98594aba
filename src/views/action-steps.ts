import type { RlRecord, RlTuple } from "../formats/rl.js";
import { admitTexts, turnTexts } from "./admit-texts.js";
import { promptFromWindow } from "./prompt-from-window.js";
import type { Prompt } from "./prompt-from-window.js";
import { isDecision, stepAction } from "./step-action.js";
import type { Turn } from "./turn.js";
import type { ViewEnv } from "./view-env.js";
import type { ViewResultBuilder } from "./view-result.js";
import { WindowChecks } from "./window-checks.js";

/** An RL action step that gives a row: its tuple, the prompt its window makes and its action as the reply (none for a prompt-only row). */
export interface ActionStep<Completion extends Turn | null = Turn> {
  readonly tuple: RlTuple;
  readonly prompt: Prompt;
  readonly completion: Completion;
}

/** Where the audit counts a step row's texts: TRL rows have two columns, OpenAI rows one list, prompt-only rows no completion (null). */
export interface StepPaths {
  readonly prompt: string;
  readonly completion: string | null;
}

/**
 * The action steps of an RL trajectory that give a row, in order; the others are counted in `result` by
 * reason (`no_action`, `null_content`, `empty_content`, `no_prompt`, `injection`). A kept step's texts are
 * counted in the audit at `paths`, and a trimmed prompt in `result.trimmed`. Without a completion path, what
 * the agent then did is not the row's business: an action whose content is null or blank (a roll, a choice)
 * still gives one.
 */
export function actionSteps<P extends StepPaths>(record: RlRecord, env: ViewEnv, result: ViewResultBuilder<unknown>, paths: P): ActionStep<P["completion"] extends string ? Turn : null>[] {
  const steps: ActionStep<Turn | null>[] = [];
  const checks = new WindowChecks(env.check);
  for (const tuple of record.tuples) {
    let completion: Turn | null = null;
    if (paths.completion !== null) {
      const action = stepAction(tuple, env, result);
      if (action === null) continue;
      completion = { role: "assistant", content: action.text, changed: action.changed, inject: action.inject };
    } else if (!isDecision(tuple, result)) continue;
    checks.next();
    const prompt = promptFromWindow(tuple.state.transcript_window, record.seat.role, checks.of, env.systemPrompt);
    if (prompt === null) {
      result.drop("no_prompt");
      continue;
    }
    const texts = turnTexts(paths.prompt, prompt.turns);
    if (completion !== null && paths.completion !== null) texts.push(...turnTexts(paths.completion, [completion]));
    if (!admitTexts(env, result, texts)) continue;
    if (prompt.trimmed) result.trimmed++;
    steps.push({ tuple, prompt, completion });
  }
  return steps as ActionStep<P["completion"] extends string ? Turn : null>[];
}
