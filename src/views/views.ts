import { ConfigError } from "../core/errors.js";
import { openAiDpo } from "./openai-dpo.js";
import { openAiSft } from "./openai-sft.js";
import { rlSteps } from "./rl-steps.js";
import { trlKto } from "./trl-kto.js";
import { trlMessages } from "./trl-messages.js";
import { openAiSftEpisodes } from "./openai-sft-episodes.js";
import type { ViewOptions } from "./view-env.js";
import { trlPreference } from "./trl-preference.js";
import { trlPromptCompletion } from "./trl-prompt-completion.js";
import { trlPromptOnly } from "./trl-prompt-only.js";
import { trlStepwise } from "./trl-stepwise.js";
import type { AnyView, ViewName } from "./view.js";
import { VIEW_NAMES } from "./view.js";

/** Every view by name. */
export const VIEWS: Readonly<Record<ViewName, AnyView>> = {
  "trl-prompt-completion": trlPromptCompletion,
  "trl-kto": trlKto,
  "trl-preference": trlPreference,
  "openai-sft": openAiSft,
  "openai-dpo": openAiDpo,
  "rl-steps": rlSteps,
  "trl-stepwise": trlStepwise,
  "trl-prompt-only": trlPromptOnly,
  "trl-messages": trlMessages,
};

/** The view called `name`; a ConfigError lists the views otherwise. */
export function viewNamed(name: string): AnyView {
  if (!(VIEW_NAMES as readonly string[]).includes(name)) {
    throw new ConfigError(`Unknown view ${JSON.stringify(name)}: expected one of ${VIEW_NAMES.join(", ")}`);
  }
  return VIEWS[name as ViewName];
}

/** The view a run with `options` builds: `openai-sft` writes whole episodes with a turn weight (`--episodes`). */
export function viewOf(name: string, options: ViewOptions): AnyView {
  const view = viewNamed(name);
  return view === openAiSft && options.turnWeight !== undefined ? openAiSftEpisodes : view;
}
