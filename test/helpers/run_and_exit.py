"""Runs a test's Python as `python SCRIPT ARGS...` or `python -c CODE ARGS...` would, then ends the process
without the interpreter's teardown.

    python run_and_exit.py SCRIPT [ARG ...]
    python run_and_exit.py -c CODE [ARG ...]

Why: Arrow's thread pool (pyarrow's readers, and `datasets` on them) can still hold threads when Python
finalizes, and the process then aborts with "terminate called without an active exception" after the script
has printed every answer (apache/arrow#45214, huggingface/datasets#7357). That is a crash in the readers'
shutdown, not in what the test checks, so the script's own exit status is passed on with os._exit once its
output is flushed. A failure inside the script still fails: its traceback is printed and the status is 1.
"""

import os
import runpy
import sys

from script_status import script_status


def run():
    if sys.argv[1] == "-c":
        code = sys.argv[2]
        sys.argv = ["-c", *sys.argv[3:]]
        sys.path[0] = ""
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})  # noqa: S102
    else:
        sys.argv = sys.argv[1:]
        sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
        runpy.run_path(sys.argv[0], run_name="__main__")


def main():
    status = script_status(run)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
