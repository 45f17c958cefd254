"""The scores screens: a section per game (totals per player), the game in progress's running
scores, and a player's page with drawn charts (their scores game after game, wins per game).

A mixin of the controller (it reads the store and keeps which player and which line are shown).
Long lists scroll: the renderer draws from `scroll` and its pager and drags give `scroll:N`.
"""

from __future__ import annotations

from typing import Any

from display.i18n import decimal, game_title, text
from display.model import Screen, Target

PLAYERS_SHOWN = 8  # player buttons a page of them shows
CHART_GAMES = 24  # the newest games on a player's chart


class ScoresScreens:
    """The scorebook: screens and touches (mixed into the Controller)."""

    language: str
    store: Any
    scores_player: str
    session: Any

    def _screen_scores(self) -> Screen:
        screen = Screen("scores", self._t("scores"))
        screen.options = self._player_buttons()
        screen.actions = [Target("export:", self._t("export"))]
        screen.scroll = getattr(self, "scores_scroll", 0)
        if self.scores_player:
            screen.sections = self._player_sections(self.scores_player)
            screen.chart = self._player_chart(self.scores_player)
            return screen
        screen.sections = self._running_section() + self._total_sections()
        if not screen.sections:
            screen.sections = [("", [self._t("no_scores")])]
        return screen

    def _player_buttons(self) -> list[Target]:
        players = self.store.known_players()
        page = getattr(self, "players_page", 0) % max(1, -(-len(players) // PLAYERS_SHOWN))
        shown = players[page * PLAYERS_SHOWN : (page + 1) * PLAYERS_SHOWN]
        buttons = [
            Target(f"player:{name}", name, "selected" if name == self.scores_player else "quiet")
            for name in shown
        ]
        if len(players) > PLAYERS_SHOWN:
            buttons.append(Target("players:next", self._t("more_players_page"), "normal"))
        return buttons

    def _running_section(self) -> list[tuple[str, list[str]]]:
        """The game being played: its scores so far."""
        session = self.session
        if session is None or session.record.status != "playing":
            return []
        state = session.state
        scores = ", ".join(f"{n} {s}" for n, s in zip(state.players, state.scores(), strict=True))
        title = self._t("running", game=game_title(session.record.game, self.language))
        return [(title, [scores])]

    def _total_sections(self) -> list[tuple[str, list[str]]]:
        sections: dict[str, list[str]] = {}
        for r in self.store.totals():
            line = self._t("total_line", player=r.player, total=r.total, games=r.games,
                           wins=r.wins)  # fmt: skip
            sections.setdefault(game_title(r.game, self.language), []).append(line)
        return list(sections.items())

    def _player_sections(self, player: str) -> list[tuple[str, list[str]]]:
        stats = self.store.stats(player)
        head = self._t("player_stats", player=player, games=stats["games"], wins=stats["wins"])
        sections = []
        for game, entry in stats["by_game"].items():
            average = decimal(entry["average"], self.language)
            game_name = game_title(game, self.language)
            line = self._t("player_game", game=game_name, **{**entry, "average": average})
            sections.append(line)
        recent = []
        for row in reversed(self.store.history(player)[-20:]):
            result = self._t("won" if row.winner else "lost")
            recent.append(self._t("recent_line", game=game_title(row.game, self.language),
                                  score=row.score, result=result,
                                  opponents=", ".join(row.opponents)))  # fmt: skip
        return [(head, sections), (self._t("recent_games"), recent)]

    def _player_chart(self, player: str) -> dict[str, Any]:
        """What the charts draw: scores game after game, and games and wins per game."""
        history = self.store.history(player)[-CHART_GAMES:]
        stats = self.store.stats(player)["by_game"]
        return {
            "title_scores": self._t("chart_scores"),
            "title_wins": self._t("chart_wins"),
            "scores": [(row.game, row.score, row.winner) for row in history],
            "wins": [
                (game_title(g, self.language), e["games"], e["wins"]) for g, e in stats.items()
            ],
        }

    def _tap_export(self, _: str) -> None:
        path = self.store.state_dir / "scores.csv"
        rows = self.store.export_csv(path)
        self._say(text(self.language, "exported", n=rows, path=path))

    def _tap_player(self, name: str) -> None:
        if name not in self.store.known_players():
            self._not_here(f"player:{name}")
            return
        self.scores_player = "" if name == self.scores_player else name
        self.scores_scroll = 0

    def _tap_players(self, _: str) -> None:
        self.players_page = getattr(self, "players_page", 0) + 1

    def _tap_scroll(self, line: str) -> None:
        """`scroll:N`: the scorebook shown from its line N (the pager, or a drag)."""
        if line.isdigit():
            self.scores_scroll = int(line)
