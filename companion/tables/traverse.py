"""Traverse at the table: two d6, a roll-off, pawns touched on the grid to narrow the moves."""

from __future__ import annotations

import re
from typing import Any

import engines
from companion.tables.base import Table
from display.model import mark_id

STEP = re.compile(r"(\d+)([+-])(\d+)")


class TraverseTable(Table):
    game = "traverse"

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
