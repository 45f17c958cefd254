"""Saving a game as versioned JSON (its game and its history) and loading it back, checked.

A save holds no position, only what happened: loading replays every action through the rules,
so a file can never produce a state the rules would not reach. A digest over the content catches
edits that would still replay (a changed roll, a swapped player).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engines.core import EngineError, State
from engines.messages import define
from engines.registry import make_game

FORMAT = "tabletop-game"
VERSION = 1


class SaveFileError(EngineError):
    """A saved game that cannot be trusted: corrupt, tampered, from another version, or illegal."""


def _digest(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def to_dict(state: State) -> dict[str, Any]:
    game = state.game
    body = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": list(game.players),
        "options": dict(game.option_values),
        "seed": game.seed,
        "mode": game.mode,
        "history": [action.notation for action in state.history],
    }
    return {**body, "digest": _digest(body)}


def dumps(state: State) -> str:
    return json.dumps(to_dict(state), ensure_ascii=False, indent=1)


def loads(text: str | bytes) -> State:
    """Rebuild a state from `dumps` output; any doubt raises SaveFileError with the reason."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SaveFileError("save.invalid_json", error=str(error)) from None
    return from_dict(data)


def from_dict(data: Any) -> State:
    body = _checked_body(data)
    try:
        game = make_game(body["game"], body["players"], body["options"], body["seed"], body["mode"])
    except EngineError as error:
        raise SaveFileError("save.setup", error=error.message) from None
    state = game.new_state()
    for number, notation in enumerate(body["history"], start=1):
        if not isinstance(notation, str):
            raise SaveFileError("save.action_not_text", number=number)
        try:
            state.apply(notation)
        except EngineError as error:
            raise SaveFileError(
                "save.replay", number=number, notation=notation, error=error.message
            ) from None
    return state


_FIELDS = {
    "format": str,
    "version": int,
    "game": str,
    "players": list,
    "options": dict,
    "seed": int,
    "mode": str,
    "history": list,
    "digest": str,
}


def _checked_body(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SaveFileError("save.not_object")
    if data.get("format") != FORMAT:
        raise SaveFileError("save.no_marker")
    for key, kind in _FIELDS.items():
        if not isinstance(data.get(key), kind) or (kind is int and isinstance(data[key], bool)):
            raise SaveFileError("save.field", field=key)
    if data["version"] != VERSION:
        raise SaveFileError("save.version", version=data["version"], supported=VERSION)
    extra = set(data) - set(_FIELDS)
    if extra:
        raise SaveFileError("save.unknown_fields", fields=", ".join(sorted(extra)))
    body = {key: data[key] for key in _FIELDS if key != "digest"}
    if _digest(body) != data["digest"]:
        raise SaveFileError("save.altered")
    return body


define(
    {
        "save.invalid_json": "not a saved game: invalid JSON ({error})",
        "save.setup": "saved game set-up is invalid: {error}",
        "save.action_not_text": "action {number} of the saved game is not text",
        "save.replay": "action {number} ('{notation}') cannot be replayed: {error}",
        "save.not_object": "not a saved game: expected a JSON object",
        "save.no_marker": "not a saved game: the format marker is missing",
        "save.field": "saved game: field '{field}' is missing or of the wrong type",
        "save.version": "saved game version {version} is not supported ({supported})",
        "save.unknown_fields": "saved game has unknown fields: {fields}",
        "save.altered": "saved game was altered: its digest does not match its content",
    }
)
