"""The scores screens: a section per game (totals per player), the game in progress's running
scores, and a player's page with drawn charts (one per game: its scores game after game, in
its unit).

The screen reads the store and keeps which player, which page of players and which line are
shown. Long lists scroll: the renderer draws from `scroll` and its pager and drags give `scroll:N`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.persistence.score_queries import TotalRow
from companion.screen_base import Handler, ScreenName, ScreenObject
from display.i18n import decimal, game_title, text
from display.model import Screen, Target

EXPORT_NAME = "scores.csv"
MEDIA_ROOT = Path("/media")
PLAYERS_SHOWN = 8  # player buttons a page of them shows
CHART_GAMES = 24  # the newest games on a player's chart
# Games whose wins add up over an evening, not their scores (a Sequence score is the
# sequences made: two for the loser would read as the winner).
WINS_COUNT = frozenset({"traverse", "sequence"})


class ScoresScreen(ScreenObject):
    """The scorebook: totals, the running game, a player's page."""

    name: ScreenName = "scores"
    player = ""  # whose history is shown ("" = the totals)
    scroll = 0  # the line the sections are shown from
    players_page = 0
    media_root = MEDIA_ROOT  # where Raspberry Pi OS mounts USB sticks

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {"export": self.export, "player": self.choose_player,
                "players": self.next_players, "scroll": self.scroll_to}  # fmt: skip

    def draw(self) -> Screen:
        screen = Screen("scores", self.t("scores"))
        screen.options = self._player_buttons()
        screen.actions = [Target("export:", self.t("export"))]
        screen.scroll = self.scroll
        if self.player:
            screen.sections = self._player_sections(self.player)
            screen.chart = self._player_chart(self.player)
            return screen
        screen.sections = self._running_section() + self._total_sections()
        if not screen.sections:
            screen.sections = [("", [self.t("no_scores")])]
        return screen

    def _player_buttons(self) -> list[Target]:
        players = self.view.store.scored_players()
        page = self.players_page % max(1, -(-len(players) // PLAYERS_SHOWN))
        shown = players[page * PLAYERS_SHOWN : (page + 1) * PLAYERS_SHOWN]
        buttons = [
            Target(f"player:{name}", name, "selected" if name == self.player else "normal")
            for name in shown
        ]
        if len(players) > PLAYERS_SHOWN:
            buttons.append(Target("players:next", self.t("more_players_page"), "normal"))
        return buttons

    def _running_section(self) -> list[tuple[str, list[str]]]:
        """The game being played: its scores so far."""
        session = self.view.session
        if session is None or session.record.status != "playing":
            return []
        state = session.state
        scores = ", ".join(f"{n} {s}" for n, s in zip(state.players, state.scores(), strict=True))
        title = self.t("running", game=game_title(session.record.game, self.view.language))
        return [(title, [scores])]

    def _total_sections(self) -> list[tuple[str, list[str]]]:
        sections: dict[str, list[str]] = {}
        for r in sorted(self.view.store.totals(), key=_standing):
            if r.game in WINS_COUNT:  # a game's score (sequences made) is not what adds up
                line = text(self.view.language, "total_wins_line", player=r.player,
                            games=r.games, wins=r.wins)  # fmt: skip
            else:
                line = self.t("total_line", player=r.player, total=r.total, games=r.games,
                               wins=r.wins)  # fmt: skip
            sections.setdefault(game_title(r.game, self.view.language), []).append(line)
        return list(sections.items())

    def _player_sections(self, player: str) -> list[tuple[str, list[str]]]:
        stats = self.view.store.stats(player)
        head = self.t("player_stats", player=player, games=stats["games"], wins=stats["wins"])
        sections = []
        for game, entry in stats["by_game"].items():
            average = decimal(entry["average"], self.view.language)
            game_name = game_title(game, self.view.language)
            line = self.t("player_game", game=game_name, **{**entry, "average": average})
            sections.append(line)
        recent = []
        for row in reversed(self.view.store.history(player)[-20:]):
            result = self.t("won" if row.winner else "lost")
            recent.append(self.t("recent_line", game=game_title(row.game, self.view.language),
                                  number=row.game_id, score=row.score, result=result,
                                  opponents=", ".join(row.opponents)))  # fmt: skip
        return [(head, sections), (self.t("recent_games"), recent)]

    def _player_chart(self, player: str) -> dict[str, Any]:
        """What the charts draw: one chart per game (each game's scores have their own unit),
        its scores game after game, won or not."""
        language = self.view.language
        history = self.view.store.history(player)[-CHART_GAMES:]
        games: dict[str, dict[str, Any]] = {}
        for row in history:
            if row.game not in games:
                games[row.game] = {
                    "game": row.game,
                    "title": game_title(row.game, language),
                    "unit": score_unit(row.game, language),
                    "scores": [],
                }
            games[row.game]["scores"].append((row.score, row.winner))
        return {
            "title_scores": self.t("chart_scores"),
            "legend_won": text(language, "chart_won"),
            "empty": self.t("no_scores"),
            "games": list(games.values()),
        }

    def export(self, _: str) -> None:
        """The scores as CSV on every USB stick plugged in, else in the state directory (then
        reached over the network: the message names the file)."""
        sticks = usb_sticks(self.media_root)
        for stick in sticks:
            try:
                rows = self.view.store.export_csv(stick / EXPORT_NAME)
            except OSError:
                continue  # a stick read-only or pulled out: the next, or the state directory
            self.view.say(self.t("exported_usb", n=rows, stick=stick.name))
            return
        path = self.view.store.state_dir / EXPORT_NAME
        rows = self.view.store.export_csv(path)
        self.view.say(self.t("exported", n=rows, path=path))

    def choose_player(self, name: str) -> None:
        if name not in self.view.store.scored_players():
            self.view.not_here(f"player:{name}")
            return
        self.player = "" if name == self.player else name
        self.scroll = 0

    def next_players(self, _: str) -> None:
        self.players_page += 1

    def scroll_to(self, line: str) -> None:
        """`scroll:N`: the scorebook shown from its line N (the pager, or a drag)."""
        if line.isdigit():
            self.scroll = int(line)


def score_unit(game: str, language: str) -> str:
    """What a game's score counts."""
    return {
        "struggle": text(language, "chart_unit.struggle"),
        "traverse": text(language, "chart_unit.traverse"),
        "strategix": text(language, "chart_unit.strategix"),
        "sequence": text(language, "chart_unit.sequence"),
        "roudalon": text(language, "chart_unit.roudalon"),
    }.get(game, "")


def _standing(row: TotalRow) -> tuple[str, int]:
    """Sections in the store's order; in a game where wins count, most wins first."""
    return row.game, -row.wins if row.game in WINS_COUNT else 0


def usb_sticks(root: Path) -> list[Path]:
    """The removable media mounted under `root` (/media/<user>/<label> or /media/<label>)."""
    try:
        found = [p for p in root.iterdir() if p.is_dir()]
        found += [q for p in found if not os.path.ismount(p) for q in p.iterdir() if q.is_dir()]
    except OSError:
        return []
    return sorted(p for p in found if os.path.ismount(p))
