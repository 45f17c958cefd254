"""The error boundary around every `tabletop` command: one line to the user, the traceback logged.

Exit statuses (documented in docs/errors.md, relied on by systemd/tabletop.service):

    0   done
    1   done, but something failed (an image unread, a check not passed, a file not written)
    2   configuration or usage error: a restart cannot fix it (the unit does not restart on it)
    3   the state directory cannot be used now (full disk, read-only, permissions)
    70  an internal error (a bug): the one line names it, the log holds the traceback
    130 interrupted (Ctrl-C)
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

OK = 0
FAILED = 1
CONFIG = 2
STATE_UNUSABLE = 3
INTERNAL = 70
INTERRUPTED = 130

LOG_NAME = "errors.log"
LOG_LIMIT = 256 * 1024  # bytes kept in the error log before it starts again

log = logging.getLogger("tabletop")


class CommandError(Exception):
    """A failure the command explains itself: its message is the whole line shown."""

    def __init__(self, message: str, status: int = FAILED) -> None:
        super().__init__(message)
        self.status = status


def status_and_message(error: BaseException) -> tuple[int, str]:
    """The exit status and the one line for an exception that reached the boundary."""
    from companion.config import ConfigError
    from companion.persistence.store import StoreError, StoreUnavailable

    if isinstance(error, CommandError):
        return error.status, str(error)
    if isinstance(error, ConfigError):
        return CONFIG, str(error)
    if isinstance(error, StoreUnavailable):
        return STATE_UNUSABLE, str(error)
    if isinstance(error, StoreError):
        return FAILED, str(error)
    if isinstance(error, OSError):
        return FAILED, describe_os_error(error)
    if isinstance(error, MemoryError):
        return FAILED, "out of memory"
    if isinstance(error, RecursionError):
        return FAILED, "input nested too deeply"
    detail = str(error).splitlines()[0] if str(error) else ""
    return INTERNAL, f"internal error: {type(error).__name__}{': ' + detail if detail else ''}"


def describe_os_error(error: OSError) -> str:
    """`path: reason` as the system says it, without Python's [Errno N] decoration."""
    reason = error.strerror or str(error) or type(error).__name__
    where = error.filename if error.filename is not None else ""
    return f"{where}: {reason}" if where != "" else reason


def run_guarded(prog: str, action: Callable[[], int | None], debug: bool = False) -> int:
    """Run one command; whatever escapes it becomes one line on stderr and a documented status."""
    try:
        return int(action() or 0)
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return OK
    except SystemExit:
        raise
    except BaseException as error:  # the boundary: nothing else may reach the user
        status, message = status_and_message(error)
        where = record_traceback(error, debug)
        suffix = f" (traceback: {where})" if status == INTERNAL and where else ""
        print(f"{prog}: {message}{suffix}", file=sys.stderr, flush=True)
        return status


def record_traceback(error: BaseException, debug: bool) -> str:
    """Write the traceback where it can be read later; returns where ('' when nowhere)."""
    text = "".join(traceback.format_exception(error))
    if debug:
        sys.stderr.write(text)
        return "above"
    if os.environ.get("JOURNAL_STREAM"):  # under systemd stderr is the journal: the log itself
        sys.stderr.write(text)
        return "the journal"
    path = error_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = "w" if path.exists() and path.stat().st_size > LOG_LIMIT else "a"
        with open(path, mode, encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(f"--- {type(error).__name__} (pid {os.getpid()})\n{text}")
    except (OSError, ValueError):
        return ""
    return str(path)


def error_log_path() -> Path:
    """$TABLETOP_ERROR_LOG, else errors.log in the default state directory."""
    explicit = os.environ.get("TABLETOP_ERROR_LOG", "")
    if explicit:
        return Path(explicit)
    from companion.config import default_state_dir

    return default_state_dir(os.environ) / LOG_NAME


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so the interpreter's flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
