"""The exit status `python SCRIPT` would give, for the helpers that run a test's script in their own process
(python_batch.py, run_and_exit.py)."""

import sys
import traceback


def script_status(body):
    """Runs `body()` as a script's top level. Returns 0; a SystemExit's code (a non-int code printed to stderr,
    as 1); or 1 after printing the traceback of any other failure."""
    try:
        body()
    except SystemExit as exit:
        if isinstance(exit.code, int) or exit.code is None:
            return exit.code or 0
        print(exit.code, file=sys.stderr)
        return 1
    except BaseException:  # noqa: BLE001  (the script's failure is its exit status, as a process's would be)
        traceback.print_exc()
        return 1
    return 0
