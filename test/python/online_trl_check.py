"""Proves the stepwise and prompt-only views train in TRL as written: PRMTrainer and GRPOTrainer, 2 steps each.

    python online_trl_check.py DIR VIEW [DIR VIEW ...]

VIEW is trl-stepwise or trl-prompt-only. A trl-stepwise DIR holds rows: loaded with `datasets`, each row must be TRL's standard stepwise
supervision (a prompt string, non-blank completions, one bool label each), tokenized by PRMTrainer's own
`tokenize_row` with a label on each step's last token, then two steps of `trl.experimental.prm.PRMTrainer`
on a tiny `LlamaForTokenClassification` built from a config. A trl-prompt-only DIR holds rows
conversational, ending with a user message, rendered with the generation prompt, then two steps of
`GRPOTrainer` on a tiny `LlamaForCausalLM` (a reward function here, 4-token completions, CPU). Both must
change the model's weights. Prints one line `ONLINE_CHECK {json}` per directory and exits non-zero when a
check failed.
"""

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
from trl_check import IM_START, TRAIN_ARGS, check_messages, chatml_tokenizer, fail, tiny_llama  # noqa: E402

COMMON = {**TRAIN_ARGS, "learning_rate": 1e-2, "bf16": False}


def weights(model):
    return {name: p.detach().clone() for name, p in model.named_parameters()}


def changed(model, before):
    import torch

    return sum(not torch.equal(p.detach(), before[name]) for name, p in model.named_parameters())


def trained(trainer, name, model, before, started):
    result = trainer.train()
    if result.global_step != 2:
        fail(f"{name} ran {result.global_step} steps, expected 2")
    moved = changed(model, before)
    if moved == 0:
        fail(f"{name} left every weight as it was")
    return {"trainer": name, "steps": result.global_step, "loss": result.training_loss, "tensors_changed": moved, "seconds": round(time.perf_counter() - started, 2)}


def check_stepwise(directory, tokenizer):
    import trl
    from transformers import LlamaConfig, LlamaForTokenClassification
    from trl.data_utils import is_conversational
    from trl.experimental.prm import PRMConfig, PRMTrainer

    ds = load_dataset(directory, split="train")
    if len(ds) == 0:
        fail(f"{directory}: no rows")
    separator_ids = tokenizer.encode("\n", add_special_tokens=False)
    for i, row in enumerate(ds):
        where = f"trl-stepwise row {i}"
        if is_conversational(row):
            fail(f"{where}: the stepwise type is standard (plain text), but is_conversational is True")
        if not isinstance(row["prompt"], str) or row["prompt"].strip() == "":
            fail(f"{where}: prompt must be non-blank text, got {row['prompt']!r}")
        completions, labels = row["completions"], row["labels"]
        if len(completions) == 0 or len(completions) != len(labels):
            fail(f"{where}: {len(completions)} completions for {len(labels)} labels")
        if not all(isinstance(c, str) and c.strip() != "" for c in completions) or not all(isinstance(b, bool) for b in labels):
            fail(f"{where}: completions must be non-blank strings and labels bools")
        if IM_START in row["prompt"] or any(IM_START in c for c in completions):
            fail(f"{where}: a control token survived")
        tokenized = PRMTrainer.tokenize_row(row, tokenizer, "\n", None, None, False, False)
        marked = [label for label in tokenized["labels"] if label != -100]
        if marked != [int(b) for b in labels]:
            fail(f"{where}: PRMTrainer labels {marked}, expected one per step {labels}")
        if tokenized["input_ids"][-len(separator_ids):] != separator_ids:
            fail(f"{where}: the last step does not end with the separator")
    config = LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1,
        max_position_embeddings=4096, pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id, bos_token_id=None, num_labels=2,
    )
    import torch

    torch.manual_seed(0)
    model = LlamaForTokenClassification(config)
    before = weights(model)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="prm-check-") as out:
        args = PRMConfig(output_dir=out, max_length=1024, gradient_checkpointing=False, **COMMON)
        trainer = PRMTrainer(model=model, args=args, train_dataset=ds, processing_class=tokenizer)
        report = trained(trainer, "experimental.prm.PRMTrainer", model, before, started)
    return {"view": "trl-stepwise", "rows": len(ds), "columns": ds.column_names, "trl": trl.__version__, "train": report}


def reward_of_text(completions, **kwargs):
    # Distinct per sampled text, so a group's advantages are not all zero and the weights move.
    return [float(sum(map(ord, c[0]["content"])) % 97) for c in completions]


def check_prompt_only(directory, tokenizer):
    import trl
    from trl.data_utils import is_conversational, maybe_apply_chat_template

    ds = load_dataset(directory, split="train")
    if len(ds) == 0:
        fail(f"{directory}: no rows")
    for i, row in enumerate(ds):
        where = f"trl-prompt-only row {i}"
        if not is_conversational(row):
            fail(f"{where}: is_conversational is False")
        check_messages(row["prompt"], f"{where} prompt", last_role="user")
        rendered = maybe_apply_chat_template({"prompt": row["prompt"]}, tokenizer)["prompt"]
        if rendered.count(IM_START) != len(row["prompt"]) + 1 or not rendered.endswith(f"{IM_START}assistant\n"):
            fail(f"{where}: the rendered prompt is not its messages plus the generation prompt: {rendered[-80:]!r}")
    model = tiny_llama(tokenizer)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    before = weights(model)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="grpo-check-") as out:
        args = trl.GRPOConfig(output_dir=out, num_generations=2, max_completion_length=4, temperature=1.0, beta=0.0, **COMMON)
        trainer = trl.GRPOTrainer(model=model, reward_funcs=reward_of_text, args=args, train_dataset=ds, processing_class=tokenizer)
        report = trained(trainer, "GRPOTrainer", model, before, started)
    return {"view": "trl-prompt-only", "rows": len(ds), "columns": ds.column_names, "trl": trl.__version__, "train": report}


CHECKS = {"trl-stepwise": check_stepwise, "trl-prompt-only": check_prompt_only}


def main(argv):
    if len(argv) == 0 or len(argv) % 2 != 0 or any(view not in CHECKS for view in argv[1::2]):
        print(__doc__, file=sys.stderr)
        return 2
    datasets.disable_progress_bars()
    tokenizer = chatml_tokenizer()
    failed = 0
    for directory, view in zip(argv[0::2], argv[1::2]):
        try:
            report = CHECKS[view](directory, tokenizer)
        except AssertionError as error:
            failed += 1
            report = {"view": view, "error": str(error)}
        print("ONLINE_CHECK", json.dumps({"dir": directory, **report}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
