"""Each game's table interaction in its own module: `table_for(game)` gives the one to use.

Adding a game to the companion = one engine module in engines/ and one module here.
"""

from __future__ import annotations

from companion.tables.base import Choice, DiceRequest, Table
from companion.tables.roudalon import RoudalonTable
from companion.tables.sequence import SequenceTable
from companion.tables.strategix import StrategixTable
from companion.tables.struggle import StruggleTable
from companion.tables.traverse import TraverseTable

TABLES: dict[str, type[Table]] = {
    table.game: table
    for table in (StruggleTable, TraverseTable, StrategixTable, SequenceTable, RoudalonTable)
}


def table_for(game: str) -> Table:
    """The table interaction of `game` (the default one for a game without its own module)."""
    return TABLES.get(game, Table)()


__all__ = ["Choice", "DiceRequest", "Table", "table_for"]
