"""What the kiosk says about the hardware and the system, as catalogue messages (`diag.*`).

The command line keeps its own English lines (companion.errors); the table shows these instead,
in the players' language. A system's own words (an errno text, a driver's message) stay in the
log: the screen says what happened and where, in words the catalogue holds.
"""

from __future__ import annotations

import errno
import sqlite3
from typing import Any

from engines.messages import Message, msg

_OS_ERRORS = {
    errno.ENOSPC: "diag.disk_full",
    errno.EDQUOT: "diag.disk_full",
    errno.EROFS: "diag.read_only",
    errno.EACCES: "diag.permission",
    errno.EPERM: "diag.permission",
    errno.ENOENT: "diag.missing",
}
_SQLITE_WORDS = (("full", "diag.disk_full"), ("readonly", "diag.read_only"),
                 ("locked", "diag.busy"))  # fmt: skip


def problem(error: BaseException) -> Message:
    """An error that reached the kiosk's boundary, as one catalogue message."""
    from companion.config import ConfigError
    from companion.errors import CommandError
    from companion.persistence.store import StoreError, StoreUnavailable

    if isinstance(error, OSError):
        return os_problem(error)
    cause = error.__cause__ or error.__context__  # kept by `raise ... from None` too
    if isinstance(error, StoreError | ConfigError) and isinstance(cause, OSError | sqlite3.Error):
        return problem(cause)
    if isinstance(error, sqlite3.Error) or isinstance(error, StoreUnavailable):
        said = str(error).lower().replace(" ", "").replace("-", "")
        found = next((code for word, code in _SQLITE_WORDS if word in said), "")
        return msg(found or ("diag.state_unusable" if isinstance(error, StoreUnavailable)
                             else "diag.database"))  # fmt: skip
    if isinstance(error, StoreError):
        return msg("diag.store_refused")
    if isinstance(error, ConfigError):
        return msg("diag.config")
    if isinstance(error, CommandError):
        return msg("diag.failed")
    if isinstance(error, MemoryError):
        return msg("diag.out_of_memory")
    if isinstance(error, RecursionError):
        return msg("diag.too_deep")
    return msg("diag.internal", kind=type(error).__name__)  # the name tells a bug report more


def os_problem(error: OSError) -> Message:
    """A system error: what it is (full disk, read-only, permission, missing) and where."""
    where = str(error.filename) if error.filename is not None else "—"
    code = _OS_ERRORS.get(error.errno or 0, "")
    if code:
        return msg(code, path=where)
    if error.filename is None:
        return msg("diag.system_nowhere", number=error.errno or 0)
    return msg("diag.system", path=where, number=error.errno or 0)


def camera_line(spec: str, state: str) -> Message:
    """Which camera is in use (asked for as `spec`) and how it is."""
    return msg("diag.camera", spec=spec, state=msg(f"diag.camera_{state.replace('-', '_')}"))


def no_camera(spec: str) -> Message:
    return msg("diag.camera", spec=spec, state=msg("diag.camera_no_camera"))


def buttons(available: bool) -> Message | str:
    """'' when the buttons work (the screen says so), else why not."""
    return "" if available else msg("diag.no_gpio")


def profile_ignored(path: str, error: BaseException) -> Message:
    """A poker profile that cannot be used: the system's reason, else a file that is not one."""
    reason = os_problem(error) if isinstance(error, OSError) else msg("diag.profile_unreadable")
    return msg("diag.profile_ignored", path=path, reason=reason)


NOTATION_REFUSALS = ("roudalon.holds.1", "roudalon.holds.2")  # words that quote notation
DICE_AWAITED = ("roudalon.waiting", "traverse.waiting")  # their hint is the dice's notation


def refusal(error: BaseException) -> Message:
    """An engine's refusal as it carries it, in words: a refusal that lists the notation
    expected (written for the command line) says only that the move is not allowed now. Any
    other error as a problem of the system."""
    found = getattr(error, "message", None)
    if not isinstance(found, Message):
        return problem(error)
    if found.code in DICE_AWAITED:
        return msg("diag.dice_awaited")
    quotes = {"expected", "hint"} & set(found.params) or found.code in NOTATION_REFUSALS
    return msg("diag.not_allowed_now") if quotes or found.code.endswith(".not_legal") else found


def teach_failed() -> Message:
    return msg("diag.teach_failed")


def tray_not_saved(error: BaseException) -> Message:
    """The configuration file refused the tray region: the system's reason when it has one."""
    cause = error.__cause__ or error.__context__
    return os_problem(cause) if isinstance(cause, OSError) else msg("diag.config")


def joined(problems: list[Any]) -> Message | Any:
    """Several problems on one line (`a / b`), each said in the screen's language."""
    line = problems[-1]
    for item in reversed(problems[:-1]):
        line = msg("diag.joined", first=item, rest=line)
    return line


def store_notes(notes: list[str], in_memory: str = "") -> list[Message]:
    """What opening the game record did (its details are in the journal), for the screen;
    `in_memory`: the state directory that could not be used, when nothing is kept."""
    if in_memory:
        return [msg("diag.store_in_memory", path=in_memory)]
    return [msg("diag.store_repaired")] if notes else []


def examples_set_aside(count: int) -> list[Message]:
    return [msg("diag.examples_set_aside")] if count else []


def reader_failed() -> Message:
    return msg("diag.reader_failed")
