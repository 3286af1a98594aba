"""Runs the tests' Python scripts one after another in this one process, so their imports are paid once.

    python python_batch.py [MODULE ...]

Imports each MODULE first (pyarrow, datasets, trl...: what the test's scripts will import), then reads one JSON
request a line on stdin, {"script": PATH, "args": [...]}, runs PATH as `python PATH ARGS...` would (as
__main__, its folder first on sys.path, its stdout and stderr captured, SystemExit as its exit status) and
answers each on file descriptor 3 with one JSON line {"status", "stdout", "stderr"}. The first line on fd 3
says whether the imports succeeded: {"ready": true} or {"ready": false, "error": ...}. Fd 3, not stdout: a native
library writing to fd 1 cannot corrupt the answers.
"""

import contextlib
import importlib
import io
import json
import os
import runpy
import sys
import traceback

from script_status import script_status

answers = os.fdopen(3, "w", encoding="utf-8")


def answer(message):
    # ASCII: Node's readline also ends a line at U+2028 and U+2029, which the readers' texts hold.
    answers.write(json.dumps(message) + "\n")
    answers.flush()


def run(script, args):
    stdout, stderr = io.StringIO(), io.StringIO()
    saved = sys.argv, list(sys.path)
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = script_status(lambda: runpy.run_path(script, run_name="__main__"))
    finally:
        sys.argv, sys.path[:] = saved[0], saved[1]
    return {"status": status, "stdout": stdout.getvalue(), "stderr": stderr.getvalue()}


def main():
    try:
        for name in sys.argv[1:]:
            importlib.import_module(name)
        answer({"ready": True})
    except Exception:  # noqa: BLE001  (a missing reader: every request still runs, and fails naming it)
        answer({"ready": False, "error": traceback.format_exc()})
    for line in sys.stdin:
        request = json.loads(line)
        answer(run(request["script"], request["args"]))


if __name__ == "__main__":
    main()
