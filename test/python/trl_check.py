"""Proves a view's dataset directory is what TRL and the OpenAI fine-tuning API train on, as written.

    python trl_check.py [--train] DIR VIEW [DIR VIEW ...]

VIEW is one of trl-prompt-completion, trl-kto, trl-preference, openai-sft, openai-dpo, rl-steps. For each
DIR the script (a) loads it with `datasets.load_dataset(DIR)`, (b) checks TRL's `is_conversational` on every
row (TRL views, openai-sft), (c) renders every row with `maybe_apply_chat_template` and a ChatML tokenizer
built here (no download) and checks exactly one `<|im_start|>` per message plus the generation prompt, in the
text and in the token ids, (d) with --train, runs two steps of the view's trainer on a tiny Llama built from
a config. Several directories run in one process, as importing torch and TRL is most of the time.
It prints one line `TRL_CHECK {json}` per directory (counts and timings, or the first failed check's
message; trainers print their own logs too) and exits non-zero when any check failed.
"""

import copy
import json
import os
import sys
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import datasets  # noqa: E402
from datasets import load_dataset  # noqa: E402

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
PAD = "<|endoftext|>"
CHATML = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
TRL_VIEWS = {"trl-prompt-completion": "SFTTrainer", "trl-kto": "KTOTrainer", "trl-preference": "DPOTrainer"}
ROLES = {"system", "user", "assistant"}


# What every training check's trainer shares: two steps on the CPU, nothing saved or reported.
TRAIN_ARGS = dict(
    max_steps=2,
    per_device_train_batch_size=2,
    gradient_accumulation_steps=1,
    learning_rate=1e-3,
    report_to=[],
    use_cpu=True,
    save_strategy="no",
    logging_steps=1,
    dataloader_num_workers=0,
    disable_tqdm=True,
)

def fail(message):
    raise AssertionError(message)


def chatml_tokenizer():
    """A byte-level tokenizer over the 256 bytes (no merges) with ChatML's special tokens: any text encodes."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = pre_tokenizers.ByteLevel.alphabet()
    vocab = {ch: i for i, ch in enumerate(sorted(alphabet))}
    core = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    core.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token=IM_END, pad_token=PAD)
    tokenizer.add_special_tokens({"additional_special_tokens": [IM_START]})
    tokenizer.chat_template = CHATML
    return tokenizer


def check_messages(messages, where, last_role=None):
    if not isinstance(messages, list) or len(messages) == 0:
        fail(f"{where}: expected a non-empty list of messages, got {messages!r}")
    for m in messages:
        if not isinstance(m, dict) or set(m.keys()) != {"role", "content"}:
            fail(f"{where}: a message must be a dict with role and content only, got {m!r}")
        if m["role"] not in ROLES:
            fail(f"{where}: role {m['role']!r} is not system, user or assistant")
        if not isinstance(m["content"], str) or m["content"].strip() == "":
            fail(f"{where}: blank content in {m!r}")
    if last_role is not None and messages[-1]["role"] != last_role:
        fail(f"{where}: expected the last message to be {last_role}, got {messages[-1]['role']}")


def count(text, token):
    return text.count(token)


def check_rendered(tokenizer, rendered, prompt_len, reply_keys, where):
    """`rendered` is maybe_apply_chat_template's output: the prompt with a generation prompt, then each reply."""
    im_start_id = tokenizer.convert_tokens_to_ids(IM_START)
    prompt = rendered["prompt"]
    if count(prompt, IM_START) != prompt_len + 1:
        fail(f"{where}: the rendered prompt holds {count(prompt, IM_START)} {IM_START}, expected {prompt_len} messages + the generation prompt")
    if not prompt.endswith(f"{IM_START}assistant\n"):
        fail(f"{where}: the rendered prompt does not end with the generation prompt: {prompt[-80:]!r}")
    ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    if ids.count(im_start_id) != prompt_len + 1:
        fail(f"{where}: the tokenized prompt holds {ids.count(im_start_id)} {IM_START} ids, expected {prompt_len + 1}")
    for key in reply_keys:
        reply = rendered[key]
        if count(reply, IM_START) != 0 or count(reply, IM_END) != 1:
            fail(f"{where}: the rendered {key} must be one assistant turn, got {reply!r}")


def check_trl_rows(ds, view, tokenizer):
    from trl.data_utils import is_conversational, maybe_apply_chat_template

    replies = ["chosen", "rejected"] if view == "trl-preference" else ["completion"]
    for i, row in enumerate(ds):
        where = f"{view} row {i}"
        if not is_conversational(row):
            fail(f"{where}: is_conversational is False")
        check_messages(row["prompt"], f"{where} prompt", last_role="user")
        for key in replies:
            check_messages(row[key], f"{where} {key}", last_role="assistant")
            if len(row[key]) != 1:
                fail(f"{where}: {key} must be one assistant message")
        if view == "trl-kto" and not isinstance(row["label"], bool):
            fail(f"{where}: label must be a bool, got {row['label']!r}")
        example = {k: row[k] for k in ["prompt", *replies, *(["label"] if view == "trl-kto" else [])]}
        check_rendered(tokenizer, maybe_apply_chat_template(example, tokenizer), len(row["prompt"]), replies, where)


def check_openai_rows(ds, view, tokenizer):
    from trl.data_utils import is_conversational

    for i, row in enumerate(ds):
        where = f"{view} row {i}"
        if view == "openai-sft":
            if set(row.keys()) != {"messages"}:
                fail(f"{where}: keys {sorted(row.keys())}, expected only messages")
            if not is_conversational(row):
                fail(f"{where}: is_conversational is False")
            messages = row["messages"]
            check_messages(messages, where, last_role="assistant")
            if len(messages) < 2 or messages[-2]["role"] != "user":
                fail(f"{where}: an SFT line must end user -> assistant")
            rendered = tokenizer.apply_chat_template(messages, tokenize=False)
            if count(rendered, IM_START) != len(messages):
                fail(f"{where}: rendered {count(rendered, IM_START)} turns for {len(messages)} messages")
        else:
            if set(row.keys()) != {"input", "preferred_output", "non_preferred_output"} or set(row["input"].keys()) != {"messages"}:
                fail(f"{where}: keys {sorted(row.keys())}, expected input.messages, preferred_output, non_preferred_output")
            check_messages(row["input"]["messages"], f"{where} input", last_role="user")
            for key in ["preferred_output", "non_preferred_output"]:
                check_messages(row[key], f"{where} {key}", last_role="assistant")
            rendered = tokenizer.apply_chat_template(row["input"]["messages"], tokenize=False, add_generation_prompt=True)
            if count(rendered, IM_START) != len(row["input"]["messages"]) + 1:
                fail(f"{where}: rendered {count(rendered, IM_START)} turns for {len(row['input']['messages'])} messages + the generation prompt")


def check_rl_steps(ds):
    by_seat = {}
    for row in ds:
        by_seat.setdefault((row["run_id"], row["seat_index"]), []).append(row)
    for key, rows in by_seat.items():
        rows.sort(key=lambda r: r["step_index"])
        if not rows[-1]["is_last"] or any(r["is_last"] for r in rows[:-1]):
            fail(f"{key}: is_last must mark the last step only")
        for r in rows:
            if not isinstance(r["transcript_window"], list) or not all(isinstance(m, dict) for m in r["transcript_window"]):
                fail(f"{key}: transcript_window must load as a list of dicts")
        # Undiscounted: G_t - G_{t+1} = scalar_reward_t + terminal_reward_t.
        for a, b in zip(rows, rows[1:]):
            reward = a["scalar_reward"] + (a["terminal_reward"] or 0)
            if abs(a["return_to_go"] - b["return_to_go"] - reward) > 1e-9:
                fail(f"{key} step {a['step_index']}: return_to_go does not sum the rewards")


def tiny_llama(tokenizer):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=4096,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    return LlamaForCausalLM(config)


def train(ds, view, tokenizer, out):
    import trl

    common = dict(output_dir=out, max_length=1024, **TRAIN_ARGS)
    model = tiny_llama(tokenizer)
    # A reference model given, not loaded: TRL would otherwise load one from the model's hub name.
    ref_model = copy.deepcopy(model)
    trainer_name = TRL_VIEWS[view]
    if trainer_name == "SFTTrainer":
        trainer = trl.SFTTrainer(model=model, args=trl.SFTConfig(**common), train_dataset=ds, processing_class=tokenizer)
    elif trainer_name == "DPOTrainer":
        trainer = trl.DPOTrainer(model=model, ref_model=ref_model, args=trl.DPOConfig(**common), train_dataset=ds, processing_class=tokenizer)
    else:
        trainer = trl.KTOTrainer(model=model, ref_model=ref_model, args=trl.KTOConfig(**common), train_dataset=ds, processing_class=tokenizer)
    start = time.perf_counter()
    result = trainer.train()
    seconds = time.perf_counter() - start
    if result.global_step != 2:
        fail(f"{trainer_name} ran {result.global_step} steps, expected 2")
    return {"trainer": trainer_name, "trl": trl.__version__, "steps": result.global_step, "loss": result.training_loss, "seconds": round(seconds, 2)}


def check_dataset(directory, view, train_it, tokenizer):
    started = time.perf_counter()
    ds = load_dataset(directory, split="train")
    report = {"view": view, "rows": len(ds), "columns": ds.column_names, "datasets": datasets.__version__}
    if len(ds) == 0:
        fail(f"{directory}: no rows")
    if view in TRL_VIEWS:
        check_trl_rows(ds, view, tokenizer)
    elif view in ("openai-sft", "openai-dpo"):
        check_openai_rows(ds, view, tokenizer)
    elif view == "rl-steps":
        check_rl_steps(ds)
    else:
        fail(f"unknown view {view!r}")
    report["check_seconds"] = round(time.perf_counter() - started, 2)
    if train_it and view in TRL_VIEWS:
        with tempfile.TemporaryDirectory(prefix="trl-check-") as out:
            report["train"] = train(ds, view, tokenizer, out)
    return report


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) == 0 or len(args) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 2
    datasets.disable_progress_bars()
    started = time.perf_counter()
    tokenizer = chatml_tokenizer()
    print("TRL_CHECK", json.dumps({"setup_seconds": round(time.perf_counter() - started, 2)}), flush=True)
    failed = 0
    for directory, view in zip(args[0::2], args[1::2]):
        try:
            report = check_dataset(directory, view, "--train" in argv, tokenizer)
        except AssertionError as error:
            failed += 1
            report = {"view": view, "error": str(error)}
        print("TRL_CHECK", json.dumps({"dir": directory, **report}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
