/**
 * The chat-template control tokens `sanitize` removes: every major model family's special tokens, as their
 * tokenizers declare them. A tokenizer matches its special tokens exactly (case and all), so these are matched
 * exactly too: `[inst]` is text, `[INST]` a turn. A family whose tokenizer reserves numbered tokens names them
 * once with `{N}` (1 to 6 digits, as no tokenizer numbers past 201 087): `<|reserved_special_token_{N}|>`.
 * A tokenizer's own further tokens join at run time (`controlTokenSet(extra)`, `--control-tokens FILE`).
 *
 * To add a family: one entry, naming where its tokens were read. A token may sit in several families.
 */
export interface ControlTokenFamily {
  /** A short name (the manifest and the docs use it). */
  readonly family: string;
  /** The models it covers. */
  readonly models: string;
  /** Where the strings were read: a tokenizer file or the code that builds the tokenizer. */
  readonly source: string;
  readonly tokens: readonly string[];
  /** Numbered tokens, `{N}` standing for the number. */
  readonly numbered?: readonly string[];
}

export const CONTROL_TOKEN_FAMILIES: readonly ControlTokenFamily[] = [
  {
    family: "chatml",
    models: "ChatML templates (Qwen, Phi-4, many fine-tunes)",
    source: "Qwen/Qwen2.5-7B-Instruct tokenizer_config.json; microsoft/phi-4 tokenizer_config.json (<|im_sep|>)",
    tokens: ["<|im_start|>", "<|im_end|>", "<|im_sep|>"],
  },
  {
    family: "llama3",
    models: "Llama 3, 3.1, 3.2, 3.3",
    source: "meta-llama/llama-models models/llama3/tokenizer.py (special_tokens, reserved tokens)",
    tokens: ["<|begin_of_text|>", "<|end_of_text|>", "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>", "<|image|>"],
    numbered: ["<|reserved_special_token_{N}|>"],
  },
  {
    family: "llama4",
    models: "Llama 4 Scout, Maverick",
    source: "meta-llama/llama-models models/llama4/tokenizer.py (BASIC_SPECIAL_TOKENS, LLAMA4_*_SPECIAL_TOKENS)",
    tokens: [
      "<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|header_start|>", "<|header_end|>",
      "<|eom|>", "<|eot|>", "<|step|>", "<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>", "<|image_start|>", "<|image_end|>",
      "<|tile_x_separator|>", "<|tile_y_separator|>", "<|image|>", "<|patch|>", "<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>",
    ],
    numbered: ["<|reserved_special_token_{N}|>", "<|text_post_train_reserved_special_token_{N}|>", "<|vision_reserved_special_token_{N}|>", "<|reasoning_reserved_special_token_{N}|>"],
  },
  {
    family: "llama2",
    models: "Llama 2 chat (its template's markers), SentencePiece BOS/EOS",
    source: "meta-llama/llama models/llama2 generation.py (B_INST, B_SYS); SentencePiece defaults",
    tokens: ["[INST]", "[/INST]", "<<SYS>>", "<</SYS>>", "<s>", "</s>", "<unk>"],
  },
  {
    family: "mistral",
    models: "Mistral, Mixtral, Ministral, Pixtral, Devstral, Magistral (SentencePiece v1-v7 and Tekken)",
    source: "mistralai/mistral-common src/mistral_common/tokens/tokenizers/base.py (SpecialTokens); Magistral tokenizer [THINK] [/THINK]; [control_N] and <SPECIAL_N> fillers of tokenizer.model.v3 and tekken.json",
    tokens: [
      "<unk>", "<s>", "</s>", "<pad>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]",
      "[TOOL_CALLS]", "[IMG]", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
      "[TOOL_CONTENT]", "[ARGS]", "[CALL_ID]", "[THINK]", "[/THINK]",
    ],
    numbered: ["[control_{N}]", "<SPECIAL_{N}>"],
  },
  {
    family: "qwen",
    models: "Qwen 2, 2.5 (and -VL, -Coder), Qwen 3",
    source: "Qwen/Qwen2.5-7B-Instruct and Qwen/Qwen3-8B tokenizer_config.json added_tokens_decoder",
    tokens: [
      "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>", "<|box_start|>", "<|box_end|>",
      "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>",
      "<tool_call>", "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>",
      "<tool_response>", "</tool_response>", "<think>", "</think>",
    ],
  },
  {
    family: "gemma",
    models: "Gemma, Gemma 2, Gemma 3, Gemma 3n",
    source: "google/gemma-2-9b-it and google/gemma-3-4b-it tokenizer_config.json (special added tokens; <unusedN> fillers); gemma-3n audio tokens",
    tokens: [
      "<pad>", "<eos>", "<bos>", "<unk>", "<mask>", "[@BOS@]", "<start_of_turn>", "<end_of_turn>", "<start_of_image>", "<end_of_image>",
      "<image_soft_token>", "<start_of_audio>", "<end_of_audio>", "<audio_soft_token>",
    ],
    numbered: ["<unused{N}>"],
  },
  {
    family: "deepseek",
    models: "DeepSeek V3, V3.1, R1 (and its distills' chat template)",
    source: "deepseek-ai/DeepSeek-V3 and DeepSeek-R1 tokenizer_config.json added_tokens_decoder (full-width bars U+FF5C, U+2581 for spaces)",
    tokens: [
      "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜▁pad▁｜>", "<｜fim▁hole｜>", "<｜fim▁begin｜>", "<｜fim▁end｜>", "<｜User｜>",
      "<｜Assistant｜>", "<|EOT|>", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>",
      "<｜tool▁outputs▁begin｜>", "<｜tool▁outputs▁end｜>", "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>", "<｜tool▁sep｜>", "<think>", "</think>",
    ],
    numbered: ["<｜place▁holder▁no▁{N}｜>"],
  },
  {
    family: "phi",
    models: "Phi-3, Phi-3.5, Phi-4, Phi-4-mini, Phi-4-reasoning",
    source: "microsoft/Phi-3-mini-4k-instruct added_tokens (<|placeholderN|>); microsoft/phi-4 tokenizer_config.json (<|dummy_N|>); Phi-4-mini-instruct tool tokens",
    tokens: [
      "<|endoftext|>", "<|assistant|>", "<|system|>", "<|end|>", "<|user|>", "<|im_start|>", "<|im_sep|>", "<|im_end|>", "<|endofprompt|>",
      "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|tool|>", "<|/tool|>", "<|tool_call|>", "<|/tool_call|>", "<|tool_response|>",
      "<|tag|>", "<think>", "</think>",
    ],
    numbered: ["<|placeholder{N}|>", "<|dummy_{N}|>"],
  },
  {
    family: "cohere",
    models: "Command R, R+, R7B, Command A",
    source: "CohereForAI/c4ai-command-r-v01 and command-r7b-12-2024 tokenizer_config.json added_tokens_decoder",
    tokens: [
      "<PAD>", "<UNK>", "<CLS>", "<SEP>", "<MASK_TOKEN>", "<BOS_TOKEN>", "<EOS_TOKEN>", "<EOP_TOKEN>", "<|START_OF_TURN_TOKEN|>",
      "<|END_OF_TURN_TOKEN|>", "<|USER_TOKEN|>", "<|CHATBOT_TOKEN|>", "<|SYSTEM_TOKEN|>", "<|START_RESPONSE|>", "<|END_RESPONSE|>",
      "<|START_THINKING|>", "<|END_THINKING|>", "<|START_ACTION|>", "<|END_ACTION|>", "<|START_TOOL_RESULT|>", "<|END_TOOL_RESULT|>",
      "<|START_TEXT|>", "<|END_TEXT|>",
    ],
  },
  {
    family: "granite",
    models: "IBM Granite 3.x (and its code models' markers)",
    source: "ibm-granite/granite-3.3-8b-instruct tokenizer_config.json added_tokens_decoder",
    tokens: [
      "<|end_of_text|>", "<fim_prefix>", "<fim_middle>", "<fim_suffix>", "<fim_pad>", "<filename>", "<gh_stars>", "<issue_start>",
      "<issue_comment>", "<issue_closed>", "<jupyter_start>", "<jupyter_text>", "<jupyter_code>", "<jupyter_output>", "<empty_output>",
      "<commit_before>", "<commit_msg>", "<commit_after>", "<reponame>", "<|start_of_role|>", "<|end_of_role|>", "<|tool_call|>",
      "<|start_of_cite|>", "<|end_of_cite|>", "<|start_of_plugin|>", "<|end_of_plugin|>",
    ],
  },
  {
    family: "harmony",
    models: "gpt-oss (OpenAI's harmony format, o200k_harmony); GPT-3.5/4 cl100k specials",
    source: "openai/harmony src/tiktoken_ext/public_encodings.rs (O200kHarmony special_tokens); tiktoken cl100k_base",
    tokens: ["<|startoftext|>", "<|endoftext|>", "<|return|>", "<|constrain|>", "<|channel|>", "<|start|>", "<|end|>", "<|message|>", "<|call|>", "<|endofprompt|>"],
    numbered: ["<|reserved_{N}|>"],
  },
];

/** Every family's tokens, by family: what `sanitize` removes besides the numbered ones. */
export const CONTROL_TOKENS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(CONTROL_TOKEN_FAMILIES.map((f) => [f.family, f.tokens]));

/** Every built-in control token, once. */
export const BUILT_IN_CONTROL_TOKENS: readonly string[] = [...new Set(CONTROL_TOKEN_FAMILIES.flatMap((f) => f.tokens))];

/** Every built-in numbered token (`{N}` for the number), once. */
export const BUILT_IN_NUMBERED_TOKENS: readonly string[] = [...new Set(CONTROL_TOKEN_FAMILIES.flatMap((f) => f.numbered ?? []))];
