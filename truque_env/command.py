"""How every command of the project meets a user's mistake: one line ``error: ...`` on stderr and exit
status 2, not a traceback. ``--debug`` (or the environment variable ``TRUQUE_DEBUG=1``) shows the
traceback instead.

The ``truque`` console command (``truque_cli.main``) and each module run as ``python -m ...``
(``train.ppo.loop``, ``train.studies.exploiter``, ``docs/make_results_page.py``, ...) share it::

    if __name__ == "__main__":
        run_command(main)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

# the exceptions that mean "the user asked for something that cannot be": a bad setting or name, a
# missing or unwritable file, a result that exists (FileExistsError: --overwrite). Anything else is
# a bug of ours and keeps its traceback.
USER_ERRORS = (ValueError, FileNotFoundError, FileExistsError, IsADirectoryError, NotADirectoryError,
               PermissionError)


def debug_wanted(args: Sequence[str]) -> bool:
    return "--debug" in args or os.environ.get("TRUQUE_DEBUG", "") not in ("", "0")


def error_line(exc: BaseException) -> str:
    """The one line a user sees: the message on one line, an OS error's reason and file."""
    message = str(exc) or type(exc).__name__
    if isinstance(exc, OSError) and exc.filename is not None:
        message = f"{exc.strerror or type(exc).__name__}: {exc.filename}"
    return f"error: {' '.join(message.split())}"


def run_command(main: Callable[[list[str]], object], argv: Sequence[str] | None = None) -> None:
    """``main(args)`` with ``--debug`` taken out of the arguments; a user's mistake is one line on
    stderr and ``SystemExit(2)``; a reader that went away (``... | head``) is exit status 1."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = debug_wanted(args)
    args = [a for a in args if a != "--debug"]
    try:
        main(args)
    except USER_ERRORS as exc:
        if debug:
            raise
        print(error_line(exc), file=sys.stderr)
        raise SystemExit(2) from None
    except BrokenPipeError:  # the reader went away: not an error of ours
        # nothing more reaches stdout, and Python's flush at exit must not fail on it again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
