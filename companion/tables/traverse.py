"""Traverse at the table: two d6, a roll-off, pawns touched on the grid to narrow the moves."""

from __future__ import annotations

import re
from typing import Any

import engines
from companion.advice import traverse_pawn
from companion.tables.base import Choice, Table
from display.i18n import text
from display.model import mark_id

STEP = re.compile(r"(\d+)([+-])(\d+)")
SAME_PAWN_AGAIN = re.compile(r"^((\S+ \d+) .*?, \S+ )\2 ")  # "Red 3 …, then Red 3 moves …"


class TraverseTable(Table):
    game = "traverse"

    def label(self, action: engines.Action, language: str) -> str:
        """A move's words, the pawn named once when it moves twice ("Rouge 3 avance de 6, puis
        recule de 2"): short enough for two a row at a readable size."""
        return SAME_PAWN_AGAIN.sub(r"\1", super().label(action, language))

    def roller(self, state: engines.State) -> int | None:
        view = state.view(None)
        if view.get("phase") == "rolloff":
            pending = [seat for seat, dice in enumerate(view.get("rolloff", [])) if dice is None]
            return pending[0] if pending else None
        return super().roller(state)

    def _colour(self, state: engines.State) -> str:
        colours = state.view(None).get("colours") or ["red", "white"]
        actor = state.actor if isinstance(state.actor, int) else 0
        return str(colours[actor])

    def pieces(self, state: engines.State, notation: str) -> frozenset[str]:
        colour = self._colour(state)
        return frozenset(f"pawn:{colour}{m.group(1)}" for m in STEP.finditer(notation))

    def preview(self, state: engines.State, notation: str) -> dict[str, Any]:
        colour = self._colour(state)
        after = state.clone()
        after.apply(notation, validate=False)
        places = after.view(None).get(colour, [])
        moved = sorted({int(m.group(1)) for m in STEP.finditer(notation)})
        return {"colour": colour, "pawns": {n: places[n - 1] for n in moved}}

    def marks(self, preview: dict[str, Any]) -> frozenset[str]:
        colour = preview["colour"]
        return frozenset(mark_id(f"pawn:{colour}{n}", at) for n, at in preview["pawns"].items())

    def preview_of(self, preview: dict[str, Any], pieces: set[str]) -> dict[str, Any]:
        """Only the touched pawns' destinations: a ring on every partner's first square read
        as moves of its own."""
        touched = {_pawn_number(p) for p in pieces if p.startswith("pawn:")}
        pawns = {n: at for n, at in preview["pawns"].items() if n in touched}
        return {**preview, "pawns": pawns}

    def group_keys(self, choice: Choice, selected: set[str]) -> list[str]:
        """A move goes under each pawn it moves not touched yet, by number: with every pawn on
        its start line a first roll has about a hundred moves, and a pawn moving only beside
        another still gets its line."""
        untouched = [p for p in choice.pieces if p.startswith("pawn:") and p not in selected]
        return sorted(untouched, key=_pawn_number)

    def seat_words(self, state: engines.State, seat: int, language: str) -> str:
        """The player and the colour they move: "Léa (Rouge)"."""
        colour = state.view(None)["colours"][seat]
        return f"{state.players[seat]} ({text(language, f'traverse.{colour}')})"

    def piece_name(self, state: engines.State, piece: str, language: str) -> str:
        colour = piece.removeprefix("pawn:").rstrip("0123456789")
        seat = state.view(None)["colours"].index(colour)
        return traverse_pawn(seat, _pawn_number(piece), language)

    def group_label(
        self, state: engines.State, piece: str, choices: list[Choice], language: str
    ) -> str:
        """The pawn and how far its moves take it: "Red 3: forward 2, 6, 8"."""
        view = state.view(None)
        number = _pawn_number(piece)
        colour = piece.removeprefix("pawn:").removesuffix(str(number))
        here = view[colour][number - 1]
        steps = {c.preview["pawns"][number] - here for c in choices if number in c.preview["pawns"]}
        forward = ", ".join(str(n) for n in sorted(n for n in steps if n > 0))
        back = ", ".join(str(-n) for n in sorted((n for n in steps if n < 0), reverse=True))
        pawn = self.piece_name(state, piece, language)
        if forward and back:
            return text(language, "traverse.line_both", pawn=pawn, forward=forward, back=back)
        if back:
            return text(language, "traverse.line_back", pawn=pawn, steps=back)
        return text(language, "traverse.line_forward", pawn=pawn, steps=forward or "0")


def _pawn_number(piece: str) -> int:
    return int("".join(ch for ch in piece if ch.isdigit()))
