"""Le Roudalon at the table: a roll-off with two d6, then stakes, throws and alliances."""

from __future__ import annotations

import engines
from companion.tables.base import Table


class RoudalonTable(Table):
    game = "roudalon"

    def roller(self, state: engines.State) -> int | None:
        view = state.view(None)
        if view.get("phase") == "rolloff":
            pending = [seat for seat, total in view.get("rolloff", []) if total is None]
            return pending[0] if pending else None
        return super().roller(state)
