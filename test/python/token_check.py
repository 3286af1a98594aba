"""The token counts evalshard's `--tokenizer` gives, computed by transformers and tokenizers themselves.

    python token_check.py make OUT_DIR CORPUS_FILE TEMPLATES_DIR FAMILY [FAMILY ...]
    python token_check.py count TOKENIZER_DIR DATASET_DIR VIEW [TEMPLATE_FILE]
    python token_check.py count-many JOBS_FILE   (a JSON list of [TOKENIZER_DIR, DATASET_DIR, VIEW]: one line each)
    python token_check.py site      (where TRL is installed: its chat_templates/ are beside it)

`make` trains a byte-level BPE tokenizer with `tokenizers` on CORPUS_FILE (no download) holding the special
tokens of every family, and writes OUT_DIR/FAMILY/{tokenizer.json, tokenizer_config.json} with TRL's shipped
template TEMPLATES_DIR/FAMILY.jinja as the config's `chat_template` and the family's bos/eos tokens.
`count` loads TOKENIZER_DIR with `AutoTokenizer` and the dataset with `datasets`, and prints one line
`TOKEN_CHECK {json}`: per row, the rendered prompt (`add_generation_prompt=True`), each rendered prompt plus
completion (`apply_chat_template(..., tokenize=False)`) and its token count (`apply_chat_template(...,
tokenize=True)`), so the test compares texts byte for byte and counts exactly. `count-many` prints those lines
in the jobs' order from one process: each start imports datasets and transformers again, seconds of the suite.
"""

import json
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

FAMILIES = {
    "llama3": {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>", "specials": ["<|start_header_id|>", "<|end_header_id|>"]},
    "qwen2_5": {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>", "specials": ["<|im_start|>"]},
    "gemma": {"bos_token": "<bos>", "eos_token": "<eos>", "specials": ["<start_of_turn>", "<end_of_turn>"]},
    "phi3": {"eos_token": "<|endoftext|>", "specials": ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]},
    "deepseekv3": {"bos_token": "<｜begin▁of▁sentence｜>", "eos_token": "<｜end▁of▁sentence｜>", "specials": ["<｜User｜>", "<｜Assistant｜>"]},
}


def all_specials():
    seen = []
    for f in FAMILIES.values():
        for t in [f.get("bos_token"), f.get("eos_token"), f.get("pad_token"), *f["specials"]]:
            if t is not None and t not in seen:
                seen.append(t)
    return seen


def make(out_dir, corpus_file, templates_dir, families):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=all_specials(), initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    core.train([corpus_file], trainer)
    for family in families:
        spec = FAMILIES[family]
        target = os.path.join(out_dir, family)
        os.makedirs(target, exist_ok=True)
        core.save(os.path.join(target, "tokenizer.json"))
        with open(os.path.join(templates_dir, f"{family}.jinja"), encoding="utf-8") as f:
            template = f.read()
        config = {k: v for k, v in spec.items() if k != "specials"}
        config.update({"tokenizer_class": "PreTrainedTokenizerFast", "chat_template": template, "model_max_length": 1 << 20})
        with open(os.path.join(target, "tokenizer_config.json"), "w", encoding="utf-8") as f:
            json.dump(config, f, ensure_ascii=False)


def conversations(row, view):
    """The prompt and each completion of a row, as evalshard's budget reads them (docs/views.md)."""
    if view in ("trl-prompt-completion", "trl-kto"):
        return row["prompt"], [row["completion"]]
    if view == "trl-preference":
        return row["prompt"], [row["chosen"], row["rejected"]]
    if view in ("openai-sft", "trl-messages"):
        return row["messages"][:-1], [row["messages"][-1:]]
    if view == "trl-prompt-only":
        return row["prompt"], []
    if view == "openai-dpo":
        return row["input"]["messages"], [row["preferred_output"], row["non_preferred_output"]]
    raise ValueError(f"no training text for view {view}")


def ids_of(encoded):
    return encoded["input_ids"] if isinstance(encoded, dict) or hasattr(encoded, "keys") else encoded


def count(tokenizer_dir, dataset_dir, view, template_file=None):
    print("TOKEN_CHECK " + json.dumps({"rows": counted(tokenizer_dir, dataset_dir, view, template_file)}, ensure_ascii=False))


def counted(tokenizer_dir, dataset_dir, view, template_file=None):
    from datasets import load_dataset
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    if template_file is not None:
        with open(template_file, encoding="utf-8") as f:
            tokenizer.chat_template = f.read()
    rows = load_dataset(dataset_dir, split="train")
    out = []
    for row in rows:
        prompt, completions = conversations(row, view)
        prompt_text = tokenizer.apply_chat_template(prompt, tokenize=False, add_generation_prompt=True)
        prompt_ids = ids_of(tokenizer.apply_chat_template(prompt, tokenize=True, add_generation_prompt=True, return_dict=False))
        fulls = []
        for completion in completions:
            text = tokenizer.apply_chat_template(prompt + completion, tokenize=False)
            ids = ids_of(tokenizer.apply_chat_template(prompt + completion, tokenize=True, return_dict=False))
            # Counted as apply_chat_template does: the rendered text with add_special_tokens=False.
            assert len(ids) == len(tokenizer(text, add_special_tokens=False)["input_ids"])
            # TRL's check (trl #1832): the prompt's ids are the first ids of prompt plus completion.
            fulls.append({"text": text, "tokens": len(ids), "ids_prefix": list(ids[: len(prompt_ids)]) == list(prompt_ids)})
        out.append({"prompt": prompt, "completions": completions, "prompt_text": prompt_text, "prompt_tokens": len(prompt_ids), "fulls": fulls})
    return out


if __name__ == "__main__":
    if sys.argv[1] == "site":
        import trl

        print(os.path.dirname(os.path.dirname(trl.__file__)))
    elif sys.argv[1] == "count-many":
        with open(sys.argv[2], encoding="utf-8") as f:
            for job in json.load(f):
                count(*job)
    elif sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        count(*sys.argv[2:6])
