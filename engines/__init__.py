"""Pure rules engines: one shared API (engines.core) and one module per game."""

from engines.core import (
    CHANCE,
    Action,
    DiceWanted,
    EngineError,
    Game,
    GameOverError,
    IllegalActionError,
    NotationError,
    NothingToUndoError,
    Option,
    OptionError,
    State,
)
from engines.registry import available_games, game_class, make_game
from engines.saves import SaveFileError, dumps, loads

__all__ = [
    "CHANCE",
    "Action",
    "DiceWanted",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "NotationError",
    "NothingToUndoError",
    "Option",
    "OptionError",
    "SaveFileError",
    "State",
    "available_games",
    "dumps",
    "game_class",
    "loads",
    "make_game",
]
