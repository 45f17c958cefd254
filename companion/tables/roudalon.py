"""Le Roudalon at the table: a roll-off with two d6, then stakes, throws and alliances."""

from __future__ import annotations

from dataclasses import replace

import engines
from companion.tables.base import Choice, Table
from display.i18n import text
from engines.roudalon import DICE_OWNED, MAX_FACE


class RoudalonTable(Table):
    game = "roudalon"

    def roller(self, state: engines.State) -> int | None:
        view = state.view(None)
        if view.get("phase") == "rolloff":
            pending = [seat for seat, total in view.get("rolloff", []) if total is None]
            return pending[0] if pending else None
        if view.get("phase") == "roll":  # an ally's dice: the ally throws, not the turn's player
            return view["next_thrower"]
        return super().roller(state)

    def winners(self, state: engines.State) -> list[int]:
        """RULINGS Le Roudalon 7: a void game returns every stake; when every game played was
        void nobody won (the engine counts the players' equal totals as a tie of all)."""
        voids = state.view(None).get("void", [])
        return [] if voids and all(voids) else state.winners()

    def choices(self, state: engines.State, language: str) -> list[Choice]:
        """Throws and alliances before the six stakes: on a small panel they are on page 1."""
        found = [warned(choice, self.warning(state, choice.notation, language))
                 for choice in super().choices(state, language)]  # fmt: skip
        return sorted(found, key=lambda choice: choice.notation.startswith("stake"))

    def warning(self, state: engines.State, notation: str, language: str) -> str:
        """A stake that takes the pot beyond every die makes the game void (RULINGS Le
        Roudalon 7: more than 12 UM a player): said before it is made."""
        word, _, amount = notation.partition(" ")
        if word != "stake" or not amount.isdigit():
            return ""
        pot = state.view(None).get("pot", 0) + int(amount)
        voids = pot > MAX_FACE * DICE_OWNED * len(state.players)  # the engine's own bound
        return text(language, "rd_stake_voids") if voids else ""

    def waiting(self, state: engines.State, language: str) -> str:
        """During an alliance offer, who answers and to whom: "à vous de jouer" named the player
        answering while the panel marked the one who offered, and said nothing of an answer."""
        view = state.view(None)
        if view.get("phase") != "offer" or view.get("offered_to") is None or state.is_over:
            return super().waiting(state, language)
        offering = view["alliance"][-1]  # the last ally offers it on, not the turn's player
        return text(language, "rd_answer", name=state.players[view["offered_to"]],
                    other=state.players[offering])  # fmt: skip

    def turn_detail(self, state: engines.State, language: str) -> str:
        return self._total_reached(state, language)

    def dice_detail(self, state: engines.State, language: str) -> str:
        return self._total_reached(state, language)

    @staticmethod
    def _total_reached(state: engines.State, language: str) -> str:
        """An alliance's running total against the pot: what is still needed, or, reached
        before the last ally, that the others still throw (RULINGS Le Roudalon 5: the total
        that counts is the one after every ally)."""
        view = state.view(None)
        if view.get("phase") not in ("throw", "roll") or not view.get("throws"):
            return ""
        total, pot = view["running_total"], view["pot"]
        if total < pot:  # what the allies still to throw need
            return " — " + text(language, "rd_to_go", total=total, pot=pot, left=pot - total)
        return " — " + text(language, "rd_total_after_all", total=total)


def warned(choice: Choice, warning: str) -> Choice:
    return replace(choice, label=f"{choice.label} — {warning}") if warning else choice
