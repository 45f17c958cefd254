"""Which games exist and where their engine lives, imported only when asked for."""

from __future__ import annotations

import importlib

from engines.core import Game, OptionError
from engines.messages import define

define(
    {
        "game.unknown": "unknown game '{game}' (known: {known})",
        "game.not_built": "the {game} engine is not built yet",
    }
)

# name -> "module:Class"
GAME_CLASSES: dict[str, str] = {
    "struggle": "engines.struggle:Struggle",
    "traverse": "engines.traverse:Traverse",
    "strategix": "engines.strategix:Strategix",
    "sequence": "engines.sequence:Sequence",
    "roudalon": "engines.roudalon:Roudalon",
}


def game_class(name: str) -> type[Game]:
    key = name.strip().lower().replace("é", "e")
    if key not in GAME_CLASSES:
        raise OptionError("game.unknown", game=name, known=", ".join(GAME_CLASSES))
    module_name, class_name = GAME_CLASSES[key].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise OptionError("game.not_built", game=key) from None
    return getattr(module, class_name)


def available_games() -> list[str]:
    """The games whose engine module is present."""
    found = []
    for name in GAME_CLASSES:
        try:
            game_class(name)
        except OptionError:
            continue
        found.append(name)
    return found


def make_game(name: str, players, options=None, seed: int = 0, mode: str = "full") -> Game:
    return game_class(name)(players, options, seed=seed, mode=mode)
