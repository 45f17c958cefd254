"""What the engines say, as data: a stable code and its parameters, with an English default.

Every refusal an engine raises is a `Message` (an `EngineError` carries one): the code names
what is wrong, the parameters hold the player, pawn, square, cards or numbers. A program shows it
in any language by looking the code up in a message catalogue (display/locale); the English text
here is the default for the referee and for logs, and never something to parse.

Templates use `str.format` fields. `{n:PLURAL}` renders the plural entry PLURAL with that
number (an English entry is a pair: the singular and the plural). A parameter may itself be a
Message, rendered in the same language, or a list of them, joined by the `list` entries.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

Template = str | tuple[str, str]

ENGLISH: dict[str, Template] = {
    "list.separator": ", ",
    "list.last": " and ",
    "list.comma": "{first}, {rest}",
    "list.semicolon": "{first}; {rest}",
}


def define(templates: Mapping[str, Template]) -> None:
    """Add a module's codes and their English defaults (each code is defined once)."""
    clash = set(templates) & set(ENGLISH)
    assert not clash, f"message codes defined twice: {sorted(clash)}"
    ENGLISH.update(templates)


class Message:
    """A code and its parameters; `str()` is the English default. Never changed once made.

    A plain class with slots, not a dataclass: engines make one for every action they list
    (advisor search, benchmarks), and a frozen dataclass costs twice as much to build.
    """

    __slots__ = ("code", "params")

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.params: Mapping[str, Any] = {} if params is None else params

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.code == other.code and self.params == other.params

    __hash__ = None  # type: ignore[assignment]  # params is a dict

    def __repr__(self) -> str:
        return f"Message(code={self.code!r}, params={dict(self.params)!r})"

    def __str__(self) -> str:
        return render(self, english_lookup)


def msg(code: str, **params: Any) -> Message:
    return Message(code, params)


def chain(items: list[Any], code: str = "list.comma") -> Any:
    """Items one after the other, joined by the entry `code` (`{first}, {rest}`): for series
    that are not `a, b and c` (an order of pawns, the outcomes of one play)."""
    joined = items[-1]
    for item in reversed(items[:-1]):
        joined = Message(code, {"first": item, "rest": joined})
    return joined


def as_data(value: Any) -> Any:
    """A message (or a value holding some) as JSON-able data: {"code": ..., "params": {...}}."""
    if isinstance(value, Message):
        return {"code": value.code, "params": {k: as_data(v) for k, v in value.params.items()}}
    if isinstance(value, list | tuple):
        return [as_data(item) for item in value]
    return value


def from_data(data: Any) -> Any:
    """The inverse of `as_data`: dicts with a code become messages again."""
    if isinstance(data, dict) and isinstance(data.get("code"), str):
        params = data.get("params") or {}
        return Message(data["code"], {k: from_data(v) for k, v in params.items()})
    if isinstance(data, list):
        return [from_data(item) for item in data]
    return data


# A lookup answers (code, count) with the text to use: count is None for a plain entry.
Lookup = Callable[[str, int | None], str | None]


_catalogues: list[Callable[[str], Lookup]] = []


def use_catalogue(lookup_for: Callable[[str], Lookup]) -> None:
    """Let `said()` speak a program's message catalogue (display.i18n registers itself): the
    engines import nothing of the program, the program plugs its words in."""
    _catalogues.append(lookup_for)


def said(message: Message, language: str | None = None) -> str:
    """The message in `language` through the registered catalogue, else its English default."""
    if language is None or not _catalogues:
        return str(message)
    return render(message, _catalogues[-1](language))


def english_lookup(code: str, count: int | None) -> str | None:
    template = ENGLISH.get(code)
    if isinstance(template, tuple):
        return template[0 if count == 1 else 1]
    return template


def render(message: Message, lookup: Lookup) -> str:
    """The message in the language `lookup` speaks; an unknown code shows itself and its values."""
    template = lookup(message.code, None)
    if template is None:
        shown = ", ".join(f"{k}={v}" for k, v in message.params.items())
        return f"{message.code}({shown})" if shown else message.code
    return _Formatter(lookup).format(template, **message.params)


def render_value(value: Any, lookup: Lookup) -> str:
    if isinstance(value, Message):
        return render(value, lookup)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Message) for v in value):
        return join([render(v, lookup) for v in value], lookup)
    return str(value)


def join(words: list[str], lookup: Lookup) -> str:
    """`a, b and c` in the catalogue's language."""
    separator, last = lookup("list.separator", None) or ", ", lookup("list.last", None) or ", "
    if len(words) <= 1:
        return "".join(words)
    return separator.join(words[:-1]) + last + words[-1]


class _Formatter(string.Formatter):
    """`str.format` where a value is rendered as a message and `{n:PLURAL}` picks a plural form;
    the plural text may use the message's other parameters too."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self.params: Mapping[str, Any] = {}

    def vformat(self, format_string: str, args: Any, kwargs: Mapping[str, Any]) -> str:
        self.params = kwargs
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec and isinstance(value, int) and not isinstance(value, bool):
            plural = self.lookup(format_spec, value)
            if plural is not None:
                inner = _Formatter(self.lookup)
                return inner.format(plural, **{**self.params, "n": value})
        return render_value(value, self.lookup) if not format_spec else format(value, format_spec)


define(
    {
        "count.dice": ("{n} die", "{n} dice"),
        "count.faces": ("{n} face", "{n} faces"),
        "count.cards": ("{n} card", "{n} cards"),
        "count.aces": ("{n} ace", "{n} aces"),
        "count.stars": ("{n} star", "{n} stars"),
        "count.squares": ("{n} square", "{n} squares"),
    }
)
