import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TEMPLATE = "{% for message in messages %}{{ '<|start|>' + message['role'] + '\\n' + message['content'] + '<|end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|start|>assistant\\n' }}{% endif %}";

/**
 * A word-level tokenizer.json in `dir` (words it does not know are `[UNK]`), its template in
 * tokenizer_config.json beside it, and another template (other.jinja); returns the tokenizer.json's path.
 */
export function wordTokenizer(dir: string): string {
  const words = ["the", "a", "to", "you", "I", "and", "of", "user", "assistant", "system"];
  const json = {
    version: "1.0",
    added_tokens: [
      { id: 0, content: "[UNK]", special: true },
      { id: 1, content: "<|start|>", special: true },
      { id: 2, content: "<|end|>", special: true },
    ],
    normalizer: null,
    pre_tokenizer: { type: "Whitespace" },
    post_processor: null,
    decoder: null,
    model: { type: "WordLevel", vocab: Object.fromEntries(["[UNK]", "<|start|>", "<|end|>", ...words].map((w, i) => [w, i])), unk_token: "[UNK]" },
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(json));
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify({ chat_template: TEMPLATE }));
  writeFileSync(join(dir, "other.jinja"), TEMPLATE.replace("'<|end|>\\n'", "'<|end|>\\n\\n'"));
  return join(dir, "tokenizer.json");
}
