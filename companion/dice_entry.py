"""Dice at the table: the reading proposed, corrected by touch, confirmed; a throw asked of
the simulated camera; Struggle's re-throws from the hand."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.dice_proposal import DiceProposal
from companion.events import Settled
from companion.examples_settings import keep_examples
from companion.table_context import TableContext
from companion.tables import DiceRequest
from display.i18n import face_letter, face_letters, text
from display.model import DieMark
from engines.dice import D6_FACES, POKER_FACES


class DiceEntry:
    """Readings, corrections, throws and re-throws: a part of the table screen."""

    def __init__(self, table: TableContext) -> None:
        self.table = table
        self.view = table.view
        self.can_throw = False  # the camera throws dice itself (the simulated one)
        self.throw_wanted: DiceRequest | None = None  # the app asks the camera to throw these
        self.read_in: int | None = None  # the game (record id) whose dice the camera last read

    def settled(self, event: Settled) -> None:
        turn = self.table.turn
        if event.image is not None:
            self.view.image = event.image
        session = self.view.session
        self.read_in = None if session is None else session.record.id
        dice = list(getattr(event.reading, "dice", ()))
        turn.seen = [
            DieMark(i, _center(d.center), _quad(d.quad), self._label(d.value), unsure=_unsure(d))
            for i, d in enumerate(dice)
        ]
        request = self.table.dice_request()
        if request is None:
            return
        turn.proposal = DiceProposal(
            faces=[None if d.value is None else str(d.value) for d in dice],
            centers=[_center(d.center) for d in dice],
            quads=[_quad(d.quad) for d in dice],
            image=event.image,
            unsure={i for i, d in enumerate(dice) if _unsure(d)},
        )
        turn.picking, turn.throwing, turn.rethrow_asked = None, False, False
        self._describe(request)

    def _describe(self, request: DiceRequest) -> None:
        proposal = self.table.turn.proposal
        assert proposal is not None
        t = self.view.t
        if len(proposal.faces) != request.count:
            self.view.say(t("roll_count", want=request.count, seen=len(proposal.faces)), True)
        elif None in proposal.faces:
            self.view.say(t("roll_unread"), True)
        elif proposal.unsure:
            self.view.say(self.unsure_line(proposal), True)
        else:
            faces = face_letters(self.view.language, [f or "" for f in proposal.faces])
            self.view.say(t("roll_seen", faces=faces))

    def unsure_line(self, proposal: DiceProposal) -> str:
        """What the roll waits for: a touch on the die marked "?", named by its best guess."""
        index = proposal.first_unsure()
        assert index is not None
        return self.view.t("roll_unsure", face=self._label(proposal.faces[index]))

    # ----- touches on the dice --------------------------------------------------------------

    def die(self, arg: str) -> None:
        turn = self.table.turn
        if turn.proposal is None and arg == "add" and self.table.dice_request() is not None:
            turn.proposal = DiceProposal([], [], [])  # no reading: enter the dice by hand
        if turn.proposal is None:
            self.view.say(self.view.t("need_roll_first"), True)
            return
        if arg == "add":
            turn.picking = len(turn.proposal.faces)
        elif arg == "remove":
            self._remove_die(turn.proposal)
        elif arg.isdigit() and int(arg) < len(turn.proposal.faces):
            turn.picking = int(arg)
        else:
            self.view.not_here(f"die:{arg}")
            return
        session = self.view.session
        if turn.picking is not None and session is not None:
            self.view.say(session.table.pick_face(session.state, self.view.language))

    def _remove_die(self, proposal: DiceProposal) -> None:
        turn = self.table.turn
        index = turn.picking if turn.picking is not None else len(proposal.faces) - 1
        if not 0 <= index < len(proposal.faces):
            return
        for values in (proposal.faces, proposal.centers, proposal.quads):
            del values[index]
        proposal.corrected = {i - (i > index) for i in proposal.corrected if i != index} | {-1}
        proposal.unsure = {i - (i > index) for i in proposal.unsure if i != index}
        turn.picking = None
        self._describe(self.table.dice_request() or DiceRequest("d6", 0))

    def face(self, face: str) -> None:
        turn = self.table.turn
        request = self.table.dice_request()
        if turn.proposal is None or turn.picking is None or request is None:
            self.view.say(self.view.t("need_roll_first"), True)
            return
        if face not in (POKER_FACES if request.kind == "poker" else D6_FACES):
            self.view.not_here(f"face:{face}")
            return
        proposal, index = turn.proposal, turn.picking
        # the face the die already shows picked (an unsure die's guess, or a die checked):
        # settled, not a correction
        settled_as_read = index < len(proposal.faces) and proposal.faces[index] == face
        if index == len(proposal.faces):
            proposal.faces.append(face)
            proposal.centers.append(None)
            proposal.quads.append(None)
        else:
            proposal.faces[index] = face
        if not settled_as_read:
            proposal.corrected.add(index)
        proposal.unsure.discard(index)
        turn.picking = None
        self._describe(request)

    def settle(self, face: str) -> None:
        """A face typed on the keyboard: the die being corrected, else the first die marked ?,
        takes it (as a touch on the die, then on the face)."""
        proposal, turn = self.table.turn.proposal, self.table.turn
        if proposal is not None and turn.picking is None:
            turn.picking = proposal.first_unsure()
        if proposal is None or turn.picking is None:
            self.view.not_here(f"settle:{face}")
            return
        self.face(face)

    def confirm(self) -> None:
        """Confirm: the roll read, else the one move shown or narrowed down to."""
        request = self.table.dice_request()
        if request is None:
            self._play_single()
            return
        proposal = self.table.turn.proposal
        if proposal is None and self.table.turn.throwing:
            self.view.say(self.view.t("still_reading"), True)
            return
        if proposal is None or not proposal.complete(request.count):
            self.view.say(self.view.t("need_roll_first"), True)
            return
        if proposal.unsure:  # each die read below the sure line waits for a touch
            self.view.say(self.unsure_line(proposal), True)
            return
        if self.table.play("roll " + " ".join(f or "" for f in proposal.faces),
                           len(proposal.corrected)):  # fmt: skip
            session = self.view.session
            if session is not None:
                session.last_roll = proposal
            keep_examples(self.view.examples, proposal, request.kind)

    def _play_single(self) -> None:
        """Confirm with a move shown to confirm, or pieces touched down to one move: play it."""
        session, turn = self.view.session, self.table.turn
        if session is None:
            return
        if turn.guess:
            self.table.play(turn.guess)  # a hint's choice, a square's card, shown to confirm
            return
        if not turn.selected:
            return
        left = self.table.narrowed(session.state)
        if len(left) == 1:
            self.table.play(left[0].notation)

    # ----- throws and Struggle's re-throws --------------------------------------------------

    def hand_die(self, index: str) -> None:
        turn = self.table.turn
        if not index.isdigit() or int(index) >= len(self.table.hand()):
            self.view.not_here(f"hand:{index}")
            return
        turn.rethrow ^= {int(index)}
        turn.selected = set()

    def throw(self) -> bool:
        """Ask the (simulated) camera to throw the dice awaited; the old reading is dropped."""
        request = self.table.dice_request()
        if request is None or not self.can_throw:
            return False
        turn = self.table.turn
        self.throw_wanted = request
        turn.proposal, turn.picking, turn.seen, turn.throwing = None, None, [], True
        self.view.say(self.view.t("throwing"))
        return True

    def reroll(self) -> None:
        """Throw the dice awaited; in Struggle, the dice of the hand chosen, thrown at once. A
        reading with an unsure die is not dropped at once: R asks, a second R throws."""
        turn = self.table.turn
        if turn.proposal is not None and turn.proposal.unsure and not turn.rethrow_asked:
            turn.rethrow_asked = True
            face = self._label(turn.proposal.faces[turn.proposal.first_unsure() or 0])
            self.view.say(text(self.view.language, "unsure_rethrow_ask", face=face), True)
            return
        if self.throw():
            return
        hand, rethrow = self.table.hand(), self.table.turn.rethrow
        if not hand:
            waiting = self.table.dice_request() is not None
            self.view.say(self.view.t("need_roll_first" if waiting else "no_dice_wanted"), True)
        elif not rethrow:
            self.view.say(self.view.t("rethrow_pick"), True)
        elif self.table.play("rethrow " + " ".join(hand[i] for i in sorted(rethrow))):
            self.throw()  # the simulated camera throws them: no second touch on Lancer

    def _label(self, value: Any) -> str:
        """A die's face as the screen names it ("D" for a queen in French), "?" if unread."""
        return "?" if value is None else face_letter(self.view.language, str(value))

    def picture(self) -> np.ndarray | None:
        """The camera's picture while it shows this game's dice: none from a game before, nor
        while a new throw is awaited (the last throw's dice read as the throw awaited)."""
        session = self.view.session
        if session is None or self.read_in != session.record.id or self.awaited():
            return None
        return self.view.image

    def awaited(self) -> bool:
        """A throw is awaited and nothing of it is read yet."""
        return self.table.dice_request() is not None and self.table.turn.proposal is None

    def marks(self) -> list[DieMark]:
        turn = self.table.turn
        proposal = turn.proposal
        if proposal is None:
            return list(turn.seen)
        return [
            DieMark(
                i,
                proposal.centers[i],
                proposal.quads[i],
                self._label(face),
                i in proposal.corrected,
                i == turn.picking,
                i in proposal.unsure,
            )  # fmt: skip
            for i, face in enumerate(proposal.faces)
        ]


def _unsure(die: Any) -> bool:
    """Read, but below the sure line: shown with its best guess, settled by a touch."""
    return die.value is not None and not die.sure


def _center(center: Any) -> tuple[float, float]:
    return (float(center[0]), float(center[1]))


def _quad(quad: Any) -> tuple[tuple[float, float], ...] | None:
    if quad is None:
        return None
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(-1, 2))
