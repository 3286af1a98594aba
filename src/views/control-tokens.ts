/**
 * The chat-template control tokens `sanitizeText` removes, by template family. A tokenizer matches its
 * special tokens exactly (case and all), so these are matched exactly too: `[inst]` is text, `[INST]` a turn.
 * A tokenizer's own extra tokens come from the user (`--control-tokens FILE`).
 */
export const CONTROL_TOKENS: Readonly<Record<string, readonly string[]>> = {
  chatml: ["<|im_start|>", "<|im_end|>", "<|im_sep|>"],
  llama3: ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>", "<|python_tag|>"],
  llama2_mistral: ["[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"],
  sentencepiece: ["<s>", "</s>"],
  gemma: ["<start_of_turn>", "<end_of_turn>", "<bos>", "<eos>"],
  gpt: ["<|endoftext|>", "<|endofprompt|>"],
  phi: ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>"],
  // OpenAI's harmony format (gpt-oss); <|end|> is Phi's too.
  harmony: ["<|start|>", "<|message|>", "<|channel|>", "<|return|>", "<|call|>", "<|constrain|>"],
  deepseek: ["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>"],
};

/** Every built-in control token, once. */
export const BUILT_IN_CONTROL_TOKENS: readonly string[] = [...new Set(Object.values(CONTROL_TOKENS).flat())];
