"""The plain rows the pages show, and the few calculations on them (ranks, running totals)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import engines
from display.i18n import say
from engines.core import CHANCE, EngineError


@dataclass(frozen=True)
class Standing:
    player: str
    href: str
    games: int
    wins: int
    total: int
    rating: float | None = None
    rank: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def ranked(rows: list[Standing]) -> list[Standing]:
    """Best first: by rating when there is one, else by wins then total; ties share a rank."""

    def key(row: Standing) -> tuple:
        rating = row.rating if row.rating is not None else float("-inf")
        return (-rating, -row.wins, -row.total, row.player.lower())

    ordered = sorted(rows, key=key)
    result: list[Standing] = []
    for index, row in enumerate(ordered):
        same = result and key(result[-1])[:3] == key(row)[:3]
        rank = result[-1].rank if same else index + 1
        result.append(Standing(**{**row.__dict__, "rank": rank}))
    return result


@dataclass(frozen=True)
class Played:
    href: str
    game: str
    ended: float
    score: int
    winner: bool
    opponents: tuple[str, ...]
    accuracy: float | None = None  # from the game's review, when its table pushed one


@dataclass(frozen=True)
class PlayerPage:
    name: str
    by_game: list[Standing]
    played: list[Played]
    totals: dict[str, list[tuple[float, float]]]  # kind -> (ended, running total)
    ratings: dict[str, list[tuple[float, float]]]  # kind -> (ended, rating after the game)
    wins: dict[str, int] = field(default_factory=dict)
    accuracy: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # kind -> %


def player_page(
    name: str,
    played: list[Played],
    points: list[tuple[str, float, float]],
    current: dict[str, float],
) -> PlayerPage:
    totals: dict[str, list[tuple[float, float]]] = {}
    running: Counter[str] = Counter()
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for entry in played:
        running[entry.game] += entry.score
        games[entry.game] += 1
        wins[entry.game] += int(entry.winner)
        totals.setdefault(entry.game, []).append((entry.ended, running[entry.game]))
    ratings: dict[str, list[tuple[float, float]]] = {}
    for kind, ended, ordinal in points:
        ratings.setdefault(kind, []).append((ended, ordinal))
    by_game = [
        Standing(kind, "", games[kind], wins[kind], running[kind], current.get(kind))
        for kind in sorted(games)
    ]
    accuracy: dict[str, list[tuple[float, float]]] = {}
    for entry in played:
        if entry.accuracy is not None:
            accuracy.setdefault(entry.game, []).append((entry.ended, 100 * entry.accuracy))
    return PlayerPage(name, by_game, list(reversed(played)), totals, ratings, dict(wins),
                      accuracy)  # fmt: skip


@dataclass(frozen=True)
class LiveTable:
    table: str
    game: str
    scores: tuple[tuple[str, int], ...]
    actor: str
    updated: float
    moves: int
    href: str


@dataclass(frozen=True)
class GameRecordView:
    game_id: int
    game: str
    options: dict[str, Any]
    seed: int
    mode: str
    status: str
    history: tuple[str, ...]
    table: str
    players: tuple[tuple[str, str], ...]  # (name, href)
    started: float | None
    ended: float | None
    review: dict[str, Any] | None = None  # as its table pushed it (club/reviews.py)


@dataclass(frozen=True)
class Move:
    number: int
    who: str  # a player's name, or "" for chance (dice, deals)
    notation: str
    text: str
    scores: tuple[int, ...]


def moves(record: GameRecordView, language: str) -> list[Move]:
    """The record replayed: who did what, in words, and the scores after each action."""
    names = [name for name, _ in record.players]
    try:
        state = engines.make_game(
            record.game, names, record.options, record.seed, record.mode
        ).new_state()
    except EngineError:
        return []
    found = []
    for number, notation in enumerate(record.history, start=1):
        actor = state.actor
        try:
            action = state.apply(notation)
        except EngineError:
            break
        who = "" if actor in (None, CHANCE) else names[actor]
        text = say(language, action)
        found.append(Move(number, who, action.notation, text, tuple(state.scores())))
    return found
