"""The scores screen: totals per game and player, a player's history.

A mixin of the controller (it reads the store and keeps which player is shown).
"""

from __future__ import annotations

from typing import Any

from display.i18n import game_title
from display.model import Screen, Target


class ScoresScreens:
    """The scorebook: screens and touches (mixed into the Controller)."""

    language: str
    store: Any
    scores_player: str

    def _screen_scores(self) -> Screen:
        screen = Screen("scores", self._t("scores"))
        players = self.store.known_players()
        screen.options = [
            Target(f"player:{name}", name, "selected" if name == self.scores_player else "quiet")
            for name in players[:10]
        ]
        screen.actions = [Target("export:", self._t("export"))]
        if self.scores_player:
            screen.lines = self._player_lines(self.scores_player)
            return screen
        rows = self.store.totals()
        screen.lines = [
            self._t(
                "totals",
                game=game_title(r.game),
                player=r.player,
                total=r.total,
                games=r.games,
                wins=r.wins,
            )  # fmt: skip
            for r in rows
        ] or [self._t("no_scores")]
        return screen

    def _player_lines(self, player: str) -> list[str]:
        stats = self.store.stats(player)
        lines = [self._t("player_stats", player=player, games=stats["games"], wins=stats["wins"])]
        for game, entry in stats["by_game"].items():
            average = f"{entry['average']:.1f}"
            if self.language == "fr":
                average = average.replace(".", ",")
            lines.append(
                self._t("player_game", game=game_title(game), **{**entry, "average": average})
            )
        for row in reversed(self.store.history(player)[-6:]):
            result = self._t("won" if row.winner else "lost")
            lines.append(f"#{row.game_id} {game_title(row.game)} : {row.score} ({result}) — "
                         + ", ".join(row.opponents))  # fmt: skip
        return lines

    def _tap_player(self, name: str) -> None:
        if name not in self.store.known_players():
            self._say(f"no player {name!r}", True)
            return
        self.scores_player = "" if name == self.scores_player else name
