"""The scorebook: read-only queries on the store's players and finished games (running totals,
a player's history and stats), and their CSV export.

A mixin of `companion.store.Store` (it reads through the store's connection).
"""

from __future__ import annotations

import csv
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engines
from companion.persistence.store_errors import StoreError

WINS_COUNTED = tuple(  # games whose total is the wins, not a sum of scores
    name for name in engines.available_games() if engines.game_class(name).wins_are_the_total
)
# A finished game's result of a person's seat (bots and unnamed seats are no scorebook players).
PEOPLES_RESULTS = (
    "results r JOIN games g ON g.id = r.game_id "
    "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
    "JOIN players p ON p.id = s.player_id WHERE s.kind = 'person'"
)


@dataclass(frozen=True)
class TotalRow:
    game: str
    player: str
    games: int
    wins: int
    total: int


@dataclass(frozen=True)
class HistoryRow:
    game_id: int
    game: str
    ended: float
    score: int
    winner: bool
    opponents: tuple[str, ...]


class ScoreQueries:
    """The scorebook's queries (mixed into the Store: its connection, its `game` for opponents)."""

    db: sqlite3.Connection

    def known_players(self) -> list[str]:
        """The people's names the table offers at set-up: every name that sat as a person, and
        the club's names offered to it (no seat yet). A bot's name, or a seat's placeholder
        ("Player 2") that no one typed, is no one's."""
        rows = self.db.execute(
            "SELECT name FROM players p WHERE NOT EXISTS "
            "(SELECT 1 FROM seats s WHERE s.player_id = p.id AND s.kind != 'person') "
            "OR EXISTS (SELECT 1 FROM seats s WHERE s.player_id = p.id AND s.kind = 'person') "
            "ORDER BY name COLLATE NOCASE"
        )
        return [row[0] for row in rows.fetchall()]

    def scored_players(self) -> list[str]:
        """The scorebook's players: people with a finished game (a name set-up only offered,
        or whose games were all abandoned, has nothing to show)."""
        rows = self.db.execute(
            f"SELECT DISTINCT p.name FROM {PEOPLES_RESULTS} ORDER BY p.name COLLATE NOCASE"
        )
        return [row[0] for row in rows.fetchall()]

    def totals(self) -> list[TotalRow]:
        """Per game and player: games finished, wins, and the running total of scores.

        The total is what the rule books add up over several games: Struggle points, Stratégix
        round points, Le Roudalon's net UM; for Traverse and Sequence it is the wins that count.
        """
        counted = ", ".join(f"'{game}'" for game in WINS_COUNTED)
        total = f"CASE WHEN g.game IN ({counted}) THEN SUM(r.winner) ELSE SUM(r.score) END"
        rows = self.db.execute(
            f"SELECT g.game, p.name, COUNT(*), SUM(r.winner), {total} AS total "
            f"FROM {PEOPLES_RESULTS} "
            "GROUP BY g.game, p.name ORDER BY g.game, total DESC, p.name"
        )
        return [TotalRow(*row) for row in rows.fetchall()]

    def history(self, player: str) -> list[HistoryRow]:
        rows = self.db.execute(
            f"SELECT g.id, g.game, g.ended, r.score, r.winner FROM {PEOPLES_RESULTS} "
            "AND p.name = ? ORDER BY g.ended, g.id",
            (player,),
        ).fetchall()
        history = []
        for game_id, game, ended, score, winner in rows:
            others = tuple(name for name in self.game(game_id).players if name != player)
            history.append(HistoryRow(game_id, game, ended, score, bool(winner), others))
        return history

    def stats(self, player: str) -> dict[str, Any]:
        """Games, wins, win rate, best and average score, per game kind and overall."""
        by_game: dict[str, dict[str, Any]] = {}
        for row in self.history(player):
            entry = by_game.setdefault(row.game, {"games": 0, "wins": 0, "scores": []})
            entry["games"] += 1
            entry["wins"] += int(row.winner)
            entry["scores"].append(row.score)
        summary = {}
        for game, entry in by_game.items():
            scores = entry.pop("scores")
            entry["win_rate"] = round(entry["wins"] / entry["games"], 3)
            entry["best"] = max(scores)
            entry["average"] = round(sum(scores) / len(scores), 2)
            summary[game] = entry
        games = sum(e["games"] for e in summary.values())
        wins = sum(e["wins"] for e in summary.values())
        return {"player": player, "games": games, "wins": wins, "by_game": summary}

    def export_csv(self, path: str | Path) -> int:
        """One row per player per finished game; returns how many rows were written."""
        rows = self.db.execute(
            "SELECT g.id, g.game, g.started, g.ended, s.seat, p.name, s.team, r.score, r.winner "
            "FROM results r JOIN games g ON g.id = r.game_id "
            "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
            "JOIN players p ON p.id = s.player_id ORDER BY g.id, s.seat"
        ).fetchall()
        try:
            with open(path, "w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(["game_id", "game", "started", "ended", "seat", "player", "team",
                                 "score", "winner"])  # fmt: skip
                for row in rows:
                    game_id, game, started, ended, seat, name, team, score, winner = row
                    writer.writerow(
                        [game_id, game, _iso(started), _iso(ended), seat, name,
                         "" if team is None else team, score, winner]
                    )  # fmt: skip
        except (OSError, ValueError) as error:  # missing folder, a directory, a full disk
            reason = getattr(error, "strerror", None) or str(error)
            raise StoreError(f"cannot write the CSV file {path}: {reason}") from None
        return len(rows)


def _iso(stamp: float | None) -> str:
    if stamp is None:
        return ""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(stamp))
