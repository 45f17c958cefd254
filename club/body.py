"""The push body's schema, checked before anything touches the database.

A body is the JSON object {"games": [game, ...]} of at most MAX_BODY bytes, nested at most
MAX_DEPTH levels (measured on the raw bytes, before decoding recurses), with finite numbers
only. A body that breaks these is answered 4xx whole. Each game is then checked alone:
`text_problem` refuses a game holding text PostgreSQL cannot keep (NUL, control characters,
lone surrogates) or too long; replay.check refuses the rest (fields, ranges, the rules).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_BODY = 8 * 1024 * 1024
MAX_GAMES = 100
MAX_DEPTH = 16  # body, games, a game, its options: 4 are needed; options may nest a little
MAX_TEXT = 2000  # an action's notation (a deal names every card), an option, a game's kind
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_INNERMOST = re.compile(rb"\[\]|\{\}")
# C0 and C1 controls (NUL included) and the surrogates a JSON \\u escape can leave alone.
_UNFIT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


class BadBody(ValueError):
    """A push body refused whole: `status` is the HTTP answer, the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def games(raw: bytes) -> list[Any]:
    """The body's games (each still to be checked alone); BadBody when the body is unfit."""
    if len(raw) > MAX_BODY:
        raise BadBody(f"a push is at most {MAX_BODY} bytes", status=413)
    if too_deep(raw, MAX_DEPTH):
        raise BadBody(f"JSON nested deeper than {MAX_DEPTH} levels, or unbalanced")
    try:
        decoded = json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise BadBody(f"not JSON: {str(error)[:80]}") from None
    if not isinstance(decoded, dict) or "games" not in decoded:
        raise BadBody('expected the JSON object {"games": [...]}')
    found = decoded["games"]
    if not isinstance(found, list) or not 1 <= len(found) <= MAX_GAMES:
        raise BadBody(f"games must be a list of 1 to {MAX_GAMES} games")
    return found


def too_deep(raw: bytes, depth: int) -> bool:
    """Whether the JSON text nests arrays and objects more than `depth` levels (or its brackets
    do not pair): strings removed, then innermost pairs peeled `depth` times."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKET)
    for _ in range(depth):
        if not brackets:
            return False
        brackets = _INNERMOST.sub(b"", brackets)
    return bool(brackets)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def text_problem(value: Any, where: str = "game") -> str:
    """'' when every text in `value` (keys too) can be stored, else what is wrong and where."""
    if isinstance(value, str):
        if _UNFIT.search(value):
            return f"{where} holds a control character or an unpaired surrogate"
        if len(value) > MAX_TEXT:
            return f"{where} is longer than {MAX_TEXT} characters"
        return ""
    if isinstance(value, dict):
        for key, item in value.items():
            found = text_problem(key, f"{where}: a key") or text_problem(item, f"{where}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = text_problem(item, f"{where}[{index}]")
            if found:
                return found
    return ""
