import type { TokenSetup } from "./token-setup.js";
import { loadTiktoken } from "./load-tiktoken.js";

/** A message as chat templates read it (the views' ChatMessage fits it; tokens/ imports nothing of views/). */
export interface TemplateMessage {
  readonly role: string;
  readonly content: string;
}

/** What a training text renders to and how many tokens it is, under one model's tokenizer and chat template. */
export interface TokenCounter {
  /**
   * The conversation as the chat template renders it, as transformers' `apply_chat_template(messages,
   * add_generation_prompt=...)` does (special tokens as variables, `tools` and `documents` none); null
   * without a template (tiktoken). Throws the template's own error.
   */
  render(messages: readonly TemplateMessage[], addGenerationPrompt: boolean): string | null;
  /** Tokens of a rendered text, special tokens recognised and none added (`add_special_tokens=False`). */
  count(text: string): number;
  /** The token ids `count` counts. */
  ids(text: string): readonly number[];
  /** Tokens of a conversation without a template: the OpenAI API's rule, 3 per message plus role and content, 3 for the reply. */
  countMessages(messages: readonly TemplateMessage[]): number;
}

/** Loads the libraries (only when a run asks for tokens) and builds the counter `setup` describes. */
export async function openTokenCounter(setup: TokenSetup): Promise<TokenCounter> {
  const tokenizer = setup.tokenizer;
  let encode: (text: string) => readonly number[];
  if (tokenizer.kind === "tiktoken") {
    const { Tiktoken, ranks } = await loadTiktoken();
    const enc = new Tiktoken(ranks);
    // Special-token text in a message is text to the API: encoded as ordinary bytes.
    encode = (text) => enc.encode(text, [], []);
  } else {
    const { Tokenizer } = await import("@huggingface/tokenizers");
    const tok = new Tokenizer(JSON.parse(tokenizer.json) as object, {});
    encode = (text) => tok.encode(text, { add_special_tokens: false }).ids;
  }
  let render: TokenCounter["render"] = () => null;
  if (setup.template !== null) {
    const { Template } = await import("@huggingface/jinja");
    const template = new Template(setup.template.text);
    const specials = tokenizer.kind === "hf" ? tokenizer.specialTokens : {};
    render = (messages, addGenerationPrompt) => template.render({ ...specials, messages, tools: null, documents: null, add_generation_prompt: addGenerationPrompt });
  }
  return {
    render,
    count: (text) => encode(text).length,
    ids: encode,
    countMessages: (messages) => messages.reduce((n, m) => n + 3 + encode(m.role).length + encode(m.content).length, 3),
  };
}
