"""Proves a `trl-messages` dataset trains in TRL's SFTTrainer with assistant_only_loss, as written.

    python messages_check.py DIR TEMPLATE

TEMPLATE is one of TRL's `*_training.jinja` chat templates (trl/chat_templates/) for a ChatML model, e.g.
qwen2_5_training. The script loads DIR with `datasets.load_dataset`, checks every row is one conversation
(an optional system message, then user and assistant alternating, the last an assistant's), renders each
with `apply_chat_template(return_assistant_tokens_mask=True)` over the ChatML tokenizer of trl_check.py and
checks that the mask covers exactly the assistant turns (each masked span decodes to one assistant message's
generation, nothing else is masked), then trains two steps of `SFTTrainer(assistant_only_loss=True)` on a
tiny Llama and checks the loss is finite and the trainer's labels are the assistant tokens alone. Prints one line
`MESSAGES_CHECK {json}` and exits non-zero when a check failed.
"""

import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from trl_check import IM_END, TRAIN_ARGS, chatml_tokenizer, fail, tiny_llama  # noqa: E402  (sets the offline environment)

import datasets  # noqa: E402
from datasets import load_dataset  # noqa: E402


def check_conversation(messages, where):
    roles = [m["role"] for m in messages]
    body = roles[1:] if roles and roles[0] == "system" else roles
    expected = ["user" if i % 2 == 0 else "assistant" for i in range(len(body))]
    if len(body) < 2 or body != expected:
        fail(f"{where}: roles {roles}, expected an optional system then user/assistant alternating, ending assistant")
    for m in messages:
        if set(m.keys()) != {"role", "content"} or not isinstance(m["content"], str) or m["content"].strip() == "":
            fail(f"{where}: a message must have a non-blank content and role only, got {m!r}")


def spans(mask):
    """The [start, end) runs of 1 in a mask."""
    runs, start = [], None
    for i, bit in enumerate(list(mask) + [0]):
        if bit and start is None:
            start = i
        elif not bit and start is not None:
            runs.append((start, i))
            start = None
    return runs


def check_mask(tokenizer, messages, where):
    out = tokenizer.apply_chat_template(messages, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
    ids, mask = out["input_ids"], out["assistant_masks"]
    # No control token in a text: one <|im_start|> per message, plus the template's default system message.
    starts = tokenizer.decode(ids, skip_special_tokens=False).count("<|im_start|>")
    if starts != len(messages) + (0 if messages[0]["role"] == "system" else 1):
        fail(f"{where}: the rendered conversation holds {starts} <|im_start|> for {len(messages)} messages")
    replies = [m["content"] for m in messages if m["role"] == "assistant"]
    runs = spans(mask)
    if len(runs) != len(replies):
        fail(f"{where}: {len(runs)} masked spans for {len(replies)} assistant turns")
    for (start, end), reply in zip(runs, replies):
        text = tokenizer.decode(ids[start:end], skip_special_tokens=False)
        # The template's generation block of an assistant turn: a newline, the content, <|im_end|> and a newline.
        if text != f"\n{reply}{IM_END}\n":
            fail(f"{where}: a masked span decodes to {text[:120]!r}, expected the assistant turn {reply[:80]!r}")
    return mask


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory, template = argv
    datasets.disable_progress_bars()
    report = {"dir": directory, "template": template}
    try:
        import trl

        tokenizer = chatml_tokenizer()
        tokenizer.chat_template = (Path(trl.__file__).parent / "chat_templates" / f"{template}.jinja").read_text()
        ds = load_dataset(directory, split="train")
        if len(ds) == 0:
            fail(f"{directory}: no rows")
        masks = []
        for i, row in enumerate(ds):
            check_conversation(row["messages"], f"row {i}")
            masks.append(check_mask(tokenizer, row["messages"], f"row {i}"))
        report.update(rows=len(ds), assistant_turns=sum(len(spans(m)) for m in masks), columns=ds.column_names)
        with tempfile.TemporaryDirectory(prefix="messages-check-") as out:
            config = trl.SFTConfig(output_dir=out, max_length=8192, assistant_only_loss=True, **TRAIN_ARGS)
            trainer = trl.SFTTrainer(model=tiny_llama(tokenizer), args=config, train_dataset=ds, processing_class=tokenizer)
            # The trainer turns the masks into labels: -100 (no loss) wherever the mask is 0.
            trained = [[int(label != -100) for label in labels] for labels in trainer.train_dataset["labels"]]
            if trained != [list(m) for m in masks]:
                fail("the tokens the trainer computes the loss on are not exactly the assistant turns")
            started = time.perf_counter()
            result = trainer.train()
            report["train"] = {"trl": trl.__version__, "steps": result.global_step, "loss": result.training_loss, "seconds": round(time.perf_counter() - started, 2)}
            if result.global_step != 2 or not math.isfinite(result.training_loss):
                fail(f"SFTTrainer ran {result.global_step} steps with loss {result.training_loss}")
    except AssertionError as error:
        report["error"] = str(error)
    print("MESSAGES_CHECK", json.dumps(report), flush=True)
    return 1 if "error" in report else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
