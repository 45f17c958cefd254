"""The referee line protocol: one action, `undo`, `show` or `save` per line, one JSON reply each."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import engines
from engines.core import EngineError, State
from engines.messages import as_data

MAX_LINE = 1000
log = logging.getLogger(__name__)


class Referee:
    """Referees one game from text lines; chance is sampled by the engine when `auto_chance`."""

    def __init__(self, state: State, auto_chance: bool = False, viewer: int | None = None) -> None:
        self.state = state
        self.auto_chance = auto_chance
        self.viewer = viewer  # whose hidden information `show` reveals (None: a spectator)
        self._line_sizes: list[int] = []  # actions applied per accepted line, for undo
        self._opening = self._run_chance() if auto_chance else []

    def handle(self, line: str) -> dict[str, Any]:
        if len(line) > MAX_LINE:
            return self.reply(error=f"line too long ({len(line)} characters, at most {MAX_LINE})")
        text = " ".join(line.split())
        if not text:
            return self.reply(error="empty line: send an action, undo, show or save")
        command = text.lower()
        if command.split()[0] == "show":
            return self._show(text.split()[1:])
        if command == "save":
            return self.reply(save=engines.saves.to_dict(self.state))
        if command == "undo":
            return self._undo()
        if command == "advise":
            return self._advise()
        return self._play(text)

    def _show(self, words: list[str]) -> dict[str, Any]:
        """The position as `show PLAYER` (or the referee's viewer) may see it, under "view"."""
        viewer = self.viewer
        if words:
            viewer = find_player(self.state, " ".join(words))
            if viewer is None:
                names = ", ".join(f"{i} {name}" for i, name in enumerate(self.state.players))
                return self.reply(error=f"show: no player {' '.join(words)!r} ({names})")
        applied = self._opening if not self._line_sizes else []
        return self.reply(applied=applied, view=self.state.view(viewer), viewer=viewer)

    def _play(self, text: str) -> dict[str, Any]:
        try:
            action = self.state.apply(text)
        except EngineError as error:
            return self.reply(error=str(error))
        applied = [action.notation] + self._run_chance()
        self._line_sizes.append(len(applied))
        return self.reply(applied=applied)

    def _undo(self) -> dict[str, Any]:
        if not self._line_sizes:
            return self.reply(error="nothing to undo")
        taken_back = [self.state.undo().notation for _ in range(self._line_sizes.pop())]
        return self.reply(undone=taken_back)

    def _advise(self) -> dict[str, Any]:
        """The advisor's ranked choices for the acting player (see docs/referee.md)."""
        import advisor

        if not isinstance(self.state.actor, int):
            return self.reply(error="no player is to act: nothing to advise")
        return self.reply(choices=[choice.to_dict() for choice in advisor.advise(self.state)])

    def _run_chance(self) -> list[str]:
        sampled = []
        while self.auto_chance and self.state.is_chance:
            sampled.append(self.state.play_chance().notation)
        return sampled

    def reply(self, error: str | None = None, **extra: Any) -> dict[str, Any]:
        state = self.state
        reply: dict[str, Any] = {"ok": error is None}
        if error is not None:
            reply["error"] = error
        reply.update(
            actor=state.actor,
            legal=[a.notation for a in state.legal_actions()],
            over=state.is_over,
            scores=state.scores(),
        )
        same = state.equivalent_notations()
        if same:  # one choice per position reached: the other notations that reach it
            reply["equivalent"] = same
        notes = state.legal_notes()
        if notes:  # what the legal list cannot say: plays too many to list, moves left out
            reply["notes"] = [{**as_data(note), "text": str(note)} for note in notes]
        if state.is_chance:
            reply["expects"] = state.chance_hint()
        if state.is_over:
            reply["winners"] = state.winners()
        reply.update(extra)
        return reply

    def run(self, lines: Iterable[str | bytes]) -> Iterator[str]:
        for line in lines:
            yield json.dumps(self.answer(line), ensure_ascii=False)

    def answer(self, line: str | bytes) -> dict[str, Any]:
        """`handle` behind the boundary: whatever goes wrong is a one-line refusal, and the
        position is the one before the line (an unexpected error's partial work is undone)."""
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as error:
                return self._refusal(f"line is not valid UTF-8 (byte {error.start + 1})")
        played, sizes = len(self.state.history), list(self._line_sizes)
        try:
            return self.handle(line.rstrip("\r\n"))
        except RecursionError:
            problem = "input nested too deeply"
        except Exception as error:  # the boundary: a bug must not cost the game in progress
            log.debug("referee: %r raised", line, exc_info=True)
            detail = str(error).splitlines()[0] if str(error) else ""
            problem = (
                f"cannot handle this line ({type(error).__name__}{': ' * bool(detail)}{detail})"
            )
        while len(self.state.history) > played:
            self.state.undo()
        self._line_sizes = sizes
        return self._refusal(problem)

    def _refusal(self, problem: str) -> dict[str, Any]:
        try:
            return self.reply(error=problem)
        except Exception:  # the position itself cannot be described: say so, still one line
            log.debug("referee: reply failed", exc_info=True)
            return {"ok": False, "error": problem}


def find_player(state: State, who: str) -> int | None:
    """A player by seat number (0 = first named) or by name (any case), or None."""
    names = [name.lower() for name in state.players]
    if who.isascii() and who.isdecimal() and int(who) < len(names):
        return int(who)
    return names.index(who.lower()) if who.lower() in names else None


def parse_options(pairs: list[str]) -> dict[str, str]:
    """`KEY=VALUE` pairs; `KEY=@PATH` reads the value from a file (e.g. a board description)."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option wants KEY=VALUE, got {pair!r}")
        if value.startswith("@"):
            path = Path(value[1:])
            try:
                value = path.read_text(encoding="utf-8")
            except OSError as error:
                raise ValueError(f"--option {key}: cannot read {path}: {error.strerror}") from None
        options[key.strip()] = value
    return options
