"""Dice at the table: the reading proposed, corrected by touch, confirmed; a throw asked of
the simulated camera; Struggle's re-throws from the hand.

A mixin of the controller: the proposal and the die being corrected live on the controller,
which plays the confirmed roll through `play`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.events import Settled
from companion.tables import DiceRequest
from companion.tables.base import D6_FACES, POKER_FACES
from display.i18n import text
from display.model import DieMark


@dataclass
class DiceProposal:
    """The faces read for the roll the engine waits for, as the players correct them."""

    faces: list[str | None]
    centers: list[tuple[float, float] | None]  # None: a die entered by hand
    quads: list[tuple[tuple[float, float], ...] | None]
    corrected: set[int] = field(default_factory=set)
    image: Any = None  # the settled frame the faces were read on

    def complete(self, wanted: int) -> bool:
        return len(self.faces) == wanted and all(f is not None for f in self.faces)


class DiceEntry:
    """Readings, corrections, throws and re-throws (mixed into the Controller)."""

    language: str
    proposal: DiceProposal | None
    picking: int | None
    rethrow: set[int]
    seen: list[DieMark]
    image: Any
    can_throw: bool
    throw_wanted: DiceRequest | None
    last_roll: DiceProposal | None

    keep_examples: Callable[[DiceProposal, str], None]  # companion.examples_settings

    def _settled(self, event: Settled) -> None:
        if event.image is not None:
            self.image = event.image
        dice = list(getattr(event.reading, "dice", ()))
        self.seen = [
            DieMark(i, _center(d.center), _quad(d.quad), _label(d.value))
            for i, d in enumerate(dice)
        ]
        request = self.dice_request()
        if request is None:
            return
        self.proposal = DiceProposal(
            faces=[None if d.value is None else str(d.value) for d in dice],
            centers=[_center(d.center) for d in dice],
            quads=[_quad(d.quad) for d in dice],
            image=event.image,
        )
        self.picking = None
        self._describe_proposal(request)

    def _describe_proposal(self, request: DiceRequest) -> None:
        proposal = self.proposal
        assert proposal is not None
        if len(proposal.faces) != request.count:
            self._say(
                text(self.language, "roll_count", want=request.count, seen=len(proposal.faces)),
                True,
            )
        elif None in proposal.faces:
            self._say(text(self.language, "roll_unread"), True)
        else:
            self._say(text(self.language, "roll_seen", faces=" ".join(proposal.faces)))

    # ----- dice -----------------------------------------------------------------------------

    def _tap_die(self, arg: str) -> None:
        if self.proposal is None and arg == "add" and self.dice_request() is not None:
            self.proposal = DiceProposal([], [], [])  # no reading: enter the dice by hand
        if self.proposal is None:
            self._say(text(self.language, "need_roll_first"), True)
            return
        if arg == "add":
            self.picking = len(self.proposal.faces)
        elif arg == "remove":
            self._remove_die()
        elif arg.isdigit() and int(arg) < len(self.proposal.faces):
            self.picking = int(arg)
        else:
            self._not_here(f"die:{arg}")
            return
        if self.picking is not None:
            self._say(text(self.language, "pick_face", n=self.picking + 1))

    def _remove_die(self) -> None:
        proposal = self.proposal
        assert proposal is not None
        index = self.picking if self.picking is not None else len(proposal.faces) - 1
        if not 0 <= index < len(proposal.faces):
            return
        for values in (proposal.faces, proposal.centers, proposal.quads):
            del values[index]
        proposal.corrected = {i - (i > index) for i in proposal.corrected if i != index} | {-1}
        self.picking = None
        self._describe_proposal(self.dice_request() or DiceRequest("d6", 0))

    def _tap_face(self, face: str) -> None:
        request = self.dice_request()
        if self.proposal is None or self.picking is None or request is None:
            self._say(text(self.language, "need_roll_first"), True)
            return
        allowed = POKER_FACES if request.kind == "poker" else D6_FACES
        if face not in allowed:
            self._not_here(f"face:{face}")
            return
        proposal, index = self.proposal, self.picking
        if index == len(proposal.faces):
            proposal.faces.append(face)
            proposal.centers.append(None)
            proposal.quads.append(None)
        else:
            proposal.faces[index] = face
        proposal.corrected.add(index)
        self.picking = None
        self._describe_proposal(request)

    def _tap_confirm(self, _: str) -> None:
        self._confirm()

    def _confirm(self) -> None:
        request = self.dice_request()
        if request is None:
            self._play_single()
            return
        if self.proposal is None or not self.proposal.complete(request.count):
            self._say(text(self.language, "need_roll_first"), True)
            return
        corrected = len(self.proposal.corrected)
        confirmed = self.proposal
        if self.play("roll " + " ".join(self.proposal.faces), corrected):
            self.last_roll = confirmed
            self.keep_examples(confirmed, request.kind)

    def _play_single(self) -> None:
        """Confirm with a move shown to confirm, or pieces touched down to one move: play it."""
        state = self.state
        if state is not None and getattr(self, "guess", ""):
            self.play(self.guess)  # a move shown to confirm (a hint's choice, a square's card)
            return
        if state is None or not self.selected:
            return
        left = self.narrowed(state)
        if len(left) == 1:
            self.play(left[0].notation)

    # ----- Struggle re-throws ---------------------------------------------------------------

    def _tap_hand(self, index: str) -> None:
        hand = self.hand()
        if not index.isdigit() or int(index) >= len(hand):
            self._not_here(f"hand:{index}")
            return
        self.rethrow ^= {int(index)}
        self.selected = set()

    def _tap_reroll(self, _: str) -> None:
        self._reroll()

    def _tap_throw(self, _: str) -> None:
        self._throw()

    def _throw(self) -> bool:
        """Ask the (simulated) camera to throw the dice awaited; the old reading is dropped."""
        request = self.dice_request()
        if request is None or not self.can_throw:
            return False
        self.throw_wanted = request
        self.proposal, self.picking, self.seen = None, None, []
        self._say(self._t("throwing"))
        return True

    def _reroll(self) -> None:
        if self._throw():
            return
        hand = self.hand()
        if not hand:
            self._say(text(self.language, "need_roll_first"), True)
            return
        if not self.rethrow:
            self._say(text(self.language, "rethrow_pick"), True)
            return
        faces = [hand[i] for i in sorted(self.rethrow)]
        self.play("rethrow " + " ".join(faces))

    def hand(self) -> list[str]:
        state = self.state
        return [] if state is None else self.table.hand(state)

    def _dice_marks(self) -> list[DieMark]:
        proposal = self.proposal
        if proposal is None:
            return list(self.seen)
        return [
            DieMark(
                i,
                proposal.centers[i],
                proposal.quads[i],
                _label(face),
                i in proposal.corrected,
                i == self.picking,
            )  # fmt: skip
            for i, face in enumerate(proposal.faces)
        ]


def _label(value: Any) -> str:
    return "?" if value is None else str(value)


def _center(center: Any) -> tuple[float, float]:
    return (float(center[0]), float(center[1]))


def _quad(quad: Any) -> tuple[tuple[float, float], ...] | None:
    if quad is None:
        return None
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(-1, 2))
