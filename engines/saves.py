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
        raise SaveFileError(f"not a saved game: invalid JSON ({error})") from None
    return from_dict(data)


def from_dict(data: Any) -> State:
    body = _checked_body(data)
    try:
        game = make_game(body["game"], body["players"], body["options"], body["seed"], body["mode"])
    except EngineError as error:
        raise SaveFileError(f"saved game set-up is invalid: {error}") from None
    state = game.new_state()
    for number, notation in enumerate(body["history"], start=1):
        if not isinstance(notation, str):
            raise SaveFileError(f"action {number} of the saved game is not text")
        try:
            state.apply(notation)
        except EngineError as error:
            message = f"action {number} ({notation!r}) cannot be replayed: {error}"
            raise SaveFileError(message) from None
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
        raise SaveFileError("not a saved game: expected a JSON object")
    if data.get("format") != FORMAT:
        raise SaveFileError("not a saved game: the format marker is missing")
    for key, kind in _FIELDS.items():
        if not isinstance(data.get(key), kind) or (kind is int and isinstance(data[key], bool)):
            raise SaveFileError(f"saved game: field {key!r} is missing or of the wrong type")
    if data["version"] != VERSION:
        raise SaveFileError(f"saved game version {data['version']} is not supported ({VERSION})")
    extra = set(data) - set(_FIELDS)
    if extra:
        raise SaveFileError(f"saved game has unknown fields: {', '.join(sorted(extra))}")
    body = {key: data[key] for key in _FIELDS if key != "digest"}
    if _digest(body) != data["digest"]:
        raise SaveFileError("saved game was altered: its digest does not match its content")
    return body
