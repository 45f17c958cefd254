"""Struggle at the table: poker dice, re-throws from the hand, pawns touched on the track."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import engines
from companion.tables.base import Choice, DiceRequest, Table
from display.i18n import face_letter, face_letters, say, text
from display.model import Target, is_mark, mark_id, marked_piece
from engines.dice import face_message

PAWNS = ("K", "Q", "J", "10", "9")
BLOCKED = ("black", "occupied")  # the kinds of a move that leaves its pawn where it stands
MOVE = re.compile(r"\b(K|Q|J|10|9)\+(\d+)")  # a pawn and its squares in a play's notation
ORDER = re.compile(r"\b(?:K|Q|J|10|9)(?: (?:K|Q|J|10|9)){4}\b")  # an objective card's order


class StruggleTable(Table):
    game = "struggle"

    def turn_detail(self, state: engines.State, language: str) -> str:
        view = state.view(None)
        if self.revealing(state):
            return " — " + text(language, "objective_wait")
        if not self.hand(state) or "throws" not in view:
            return ""
        kept = face_letters(language, view.get("kept", [])) or text(language, "kept_none")
        return " — " + text(language, "throw_count", n=view["throws"], kept=kept)

    def waiting_dice(self, state: engines.State, request: DiceRequest, language: str) -> str:
        """The game's first throw at a table: the objective cards are drawn before it."""
        said = super().waiting_dice(state, request, language)
        view = state.view(None)
        first = not view.get("last_play") and view.get("throws") == 0
        if state.game.mode == "table" and first and not any(view.get("squares", {}).values()):
            if self.robots:  # dealt a real card too, face down, turned over at the end
                robots = ", ".join(state.players[seat] for seat in sorted(self.robots))
                return f"{said} — {text(language, 'struggle.draw_cards_robot', robots=robots)}"
            return f"{said} — {text(language, 'struggle.draw_cards')}"
        return said

    def robot_entry(self, state: engines.State, language: str) -> str:
        """At a table a robot's objective card is a real one, dealt face down beside the screen:
        a person turns it over and types its order for the robot."""
        if state.game.mode != "table" or not self.revealing(state):
            return ""
        return text(language, "struggle.robot_card_enter", name=state.players[state.actor])

    def result(self, state: engines.State, language: str) -> tuple[str, dict[str, Any]]:
        """The pawns' arrival order, and each player's objective card with the points it scored:
        the game-over screen showed only the last card revealed and the totals."""
        view = state.view(None)
        boxes, objectives = view.get("boxes", {}), view.get("objectives", [])
        if len(boxes) < len(PAWNS) or None in objectives:
            return "", {}
        arrival = face_letters(language, sorted(boxes, key=lambda pawn: boxes[pawn]))
        cards = [
            text(
                language,
                "struggle.result_card",
                name=name,
                order=face_letters(language, order),
                n=points,
            )
            for name, order, points in zip(state.players, objectives, view["scores"], strict=True)
        ]  # " ; " parts: a line each where they fit
        return " ; ".join([text(language, "struggle.result", arrival=arrival), *cards]), {}

    def check_roll(self, state: engines.State, name: str, language: str) -> str:
        """A reading that more throws may follow: the dice to throw again are touched once it
        is confirmed (a newcomer touched a die to throw it again and got the face picker)."""
        if self.throws_follow(state):
            return text(language, "struggle.check_roll_rethrow", name=name)
        return super().check_roll(state, name, language)

    def pick_face(self, state: engines.State, language: str) -> str:
        if self.throws_follow(state):
            return text(language, "struggle.pick_face_rethrow")
        return super().pick_face(state, language)

    @staticmethod
    def throws_follow(state: engines.State) -> bool:
        """The throw awaited is not the turn's third: its dice may be thrown again."""
        return state.view(None).get("throws", 2) < 2

    def waiting_keeping(self, state: engines.State, keep: list[str], language: str) -> str:
        name = state.players[state.actor]
        kept = face_letters(language, keep) or text(language, "kept_none")
        detail = text(language, "throw_count", n=state.view(None)["throws"], kept=kept)
        return text(language, "turn_name", name=name) + " — " + detail

    def plain(self, reason: str, notation: str, language: str) -> str:
        """An objective's order and a play's moves quoted by the engine said with the pawns'
        names ("10+2": "Dix +2")."""
        reason = super().plain(reason, notation, language)
        reason = MOVE.sub(lambda m: f"{pawn_names([m[1]], language)} +{m[2]}", reason)
        return ORDER.sub(lambda m: pawn_names(m.group(0).split(), language), reason)

    def offered(self, state: engines.State) -> list[engines.Action]:
        if self.revealing(state):
            return []  # typed on the keys, not picked from 120 orders
        return [a for a in super().offered(state) if not a.notation.startswith("rethrow")]

    def choices(self, state: engines.State, language: str) -> list[Choice]:
        """The moves, a choice that leaves every pawn where it stands last: a newcomer took the
        first button for the only one and wasted the turn."""
        found = super().choices(state, language)
        plays = found and not state.is_chance and not self.revealing(state)
        if plays and not any(self.moves_a_pawn(state, c.notation) for c in found):
            # compulsory play with every die blocked: said as why nothing moves (a robot that
            # "played no pawn" read as one declining the hand, which the rules forbid)
            return [replace(c, label=self._none_can_move(c.label, language)) for c in found]
        return sorted(found, key=lambda c: (not self.moves_a_pawn(state, c.notation),
                                            self.held_back(c, c.pieces)))  # fmt: skip

    def held_back(self, choice: Choice, pieces: frozenset[str]) -> int:
        """The pawns of `pieces` the move names but leaves where they stand (blocked)."""
        named = {touched_pawn(piece) for piece in pieces} & set(self.pieces_named(choice))
        moved = set(choice.preview.get("squares", {})) | set(choice.preview.get("boxes", {}))
        return len(named - moved)

    @staticmethod
    def pieces_named(choice: Choice) -> list[str]:
        return [token.split("+")[0] for token in choice.notation.split() if "+" in token]

    @staticmethod
    def _none_can_move(label: str, language: str) -> str:
        nothing = text(language, "st_nothing")
        why = label.removeprefix(nothing).removeprefix(": ").removeprefix("\u00a0: ")
        if why == text(language, "struggle.said.pass"):  # no pawn named: no reason to give
            return text(language, "st_none_can_move_bare")
        return text(language, "st_none_can_move", why=why) if why else label

    @staticmethod
    def moves_a_pawn(state: engines.State, notation: str) -> bool:
        after = state.clone()
        after.apply(notation, validate=False)
        before_view, after_view = state.view(None), after.view(None)
        return any(before_view.get(k) != after_view.get(k) for k in ("squares", "boxes"))

    def label(self, action: engines.Action, language: str) -> str:
        """What the move does, short: each pawn and where it goes, or that it is blocked; a
        choice moving no pawn says it passes."""
        data = action.data if isinstance(action.data, tuple) and len(action.data) == 2 else None
        outcomes = getattr(data[1], "outcomes", None) if data else None
        if not outcomes:
            return say(language, action)
        aces = getattr(data[1], "aces", {}) if data else {}
        said = " · ".join(self._outcome(o, aces.get(o[0], 0), language) for o in outcomes)
        if all(kind in BLOCKED for _, _, (kind, _) in outcomes):
            return text(language, "st_nothing_why", why=said)
        return said

    def said(self, action: engines.Action, language: str) -> str:
        """A play said as on its button: the last move and undo lines word it as the list."""
        return self.label(action, language)

    @staticmethod
    def _outcome(outcome: tuple[str, int, tuple[str, Any]], aces: int, language: str) -> str:
        pawn, _, (kind, detail) = outcome
        name = say(language, face_message(pawn))
        if aces:  # each die's use said: "Roi + As : impasse", not the ace lost in "Roi"
            one = aces == 1
            name = (text(language, "st_with_ace", pawn=name) if one
                    else text(language, "st_with_aces", pawn=name, n=aces))  # fmt: skip
        if kind == "move":
            return text(language, "st_move", pawn=name, n=detail)
        if kind == "take":
            square, victim, back = detail
            return text(language, "st_take", pawn=name, n=square,
                        victim=say(language, face_message(victim)), back=back)  # fmt: skip
        if kind in ("arrive", "arrive-last"):
            box = detail if kind == "arrive" else detail[0]
            return text(language, "st_arrive", pawn=name, box=box)
        # blocked: said before it is chosen (a newcomer learnt it only once played)
        return text(language, "st_blocked_black" if kind == "black" else "st_blocked", pawn=name)

    def pieces(self, state: engines.State, notation: str) -> frozenset[str]:
        moved = [token.split("+")[0] for token in notation.split() if "+" in token]
        return frozenset(f"pawn:{pawn}" for pawn in moved if pawn in PAWNS)

    def preview(self, state: engines.State, notation: str) -> dict[str, Any]:
        after = state.clone()
        after.apply(notation, validate=False)
        view, before = after.view(None), state.view(None)
        named = {piece.removeprefix("pawn:") for piece in self.pieces(state, notation)}
        moved = {p for p in named if view["squares"].get(p) != before["squares"].get(p)}
        return {
            "squares": {p: s for p, s in view["squares"].items() if p in moved},
            "boxes": {p: b for p, b in view["boxes"].items() if p in moved},
        }

    def piece_name(self, state: engines.State, piece: str, language: str) -> str:
        return say(language, face_message(touched_pawn(piece)))

    def marks(self, preview: dict[str, Any]) -> frozenset[str]:
        """A ring on each square a pawn of the move ends on (the start and boxes unringed)."""
        return frozenset(mark_id(f"pawn:{p}", s) for p, s in preview["squares"].items() if s)

    def preview_of(self, preview: dict[str, Any], pieces: set[str]) -> dict[str, Any]:
        """Only the touched pawns' destinations: rings for the others' read as theirs."""
        pawns = {touched_pawn(piece) for piece in pieces}
        return {key: {p: at for p, at in marks.items() if p in pawns}
                for key, marks in preview.items()}  # fmt: skip

    def rethrowing(self, state: engines.State) -> bool:
        view = state.view(None)
        return view.get("phase") == "roll" and bool(view.get("throws"))

    @staticmethod
    def revealing(state: engines.State) -> bool:
        """Each player says the arrival order on their objective card."""
        return state.view(None).get("phase") == "reveal"

    def keyboard(self, state: engines.State, mode: str) -> bool:
        return mode == "table" and isinstance(state.actor, int) and self.revealing(state)

    def keys(self, state: engines.State, language: str) -> list[Target]:
        return [Target(f"key:{p}", face_letter(language, p)) for p in PAWNS]

    def spent_keys(self, entry: str) -> set[str]:
        """A pawn stands once on an objective card: its key is spent once typed."""
        return set(entry.split()) & set(PAWNS)

    def entry_words(self, state: engines.State, entry: str, language: str) -> str:
        return face_letters(language, entry.split())

    def entry_notation(self, state: engines.State, entry: str) -> str:
        return "objective " + super().entry_notation(state, entry)

    def hand(self, state: engines.State) -> list[str]:
        if state.is_chance or state.is_over:
            return []
        if not any(a.notation.startswith("rethrow") for a in state.legal_actions()):
            return []
        return list(state.view(None).get("hand", []))


def touched_pawn(piece: str) -> str:
    """The pawn a touch was on: "pawn:K", or its ring "at:pawn:K@6"."""
    if is_mark(piece):
        piece = marked_piece(piece)
    return piece.removeprefix("pawn:")


def pawn_names(pawns: list[str], language: str) -> str:
    return ", ".join(say(language, face_message(pawn)) for pawn in pawns)
