"""Stratégix at the table: each play typed with its letter cards on the keys."""

from __future__ import annotations

from typing import Any

import engines
from companion.tables.base import Choice, Table
from display.i18n import say, signed, text
from display.model import Target
from engines.messages import Message

LETTER_KEYS = tuple("BCDEFGHIJKLMNOPQRSTUVWXYZ") + ("*", "+")
ALWAYS_OFFERED = ("pass", "petard")  # first in the moves, never pages away
ROUND_END_SECONDS = 12.0  # a round's end stays this long before a bot leads the next
PLAY_FIELDS = ("play", "group")  # an engine message's fields holding cards in notation


PLACES = {
    2: ("Dubolix", "Padbolix"),
    3: ("Dubolix", "Pernigagnix", "Padbolix"),
    4: ("Dubolix", "Ossilix", "Pernigagnix", "Padbolix"),
}  # the places' names, any language


def round_places(view: dict[str, Any], players: list[str], number: int, language: str) -> str:
    """Round `number` (from 0): each place's title, player and points, first to last."""
    points = view["round_points"][number]
    order = sorted(range(len(players)), key=lambda seat: -points[seat])  # R10: no ties
    return ", ".join(
        text(language, "strategix.place", title=place_title(title, language),
             name=players[seat], points=signed(points[seat]))
        for title, seat in zip(PLACES[len(players)], order, strict=True)
    )  # fmt: skip


def place_title(title: str, language: str) -> str:
    """A place's name from the rule book, with where it is in words ("first (Dubolix)") where
    the book's French names say nothing to the players."""
    return {
        "Dubolix": text(language, "strategix.title_dubolix"),
        "Ossilix": text(language, "strategix.title_ossilix"),
        "Pernigagnix": text(language, "strategix.title_pernigagnix"),
        "Padbolix": text(language, "strategix.title_padbolix"),
    }[title]


def round_begins(state: engines.State) -> bool:
    """A round after the first, before its first lead: the last round's end still to read."""
    view = state.view(None)
    seen = view["seen"]
    fresh = not (seen["stars"] or seen["petards"] or any(seen["letters"].values()))
    return not state.is_over and bool(view["last_order"]) and fresh and isinstance(state.actor, int)


def play_words(play: str, language: str) -> str:
    """Cards in notation ("N *=N + *=E F") in words: a star declared X is "a star (X)", as the
    board shows ★X ("a star for G, H, I" read as one star for three letters)."""
    groups = []
    for group in play.split("+"):
        cards = group.split()
        words = [text(language, "strategix.star_for", letter=card[2:]) if card.startswith("*=")
                 else card for card in cards]  # fmt: skip
        stars = any(card.startswith("*") for card in cards)
        groups.append((", " if stars else " ").join(words))
    return " + ".join(groups)


def cards_laid(notation: str) -> list[str]:
    """The hand's cards a notation lays ("play D *=E +" -> D, *; "petard" -> !), and for
    `star X` the star and the letter X it stands in for."""
    words = notation.replace("+", " ").split()
    if words[:1] == ["petard"]:
        return ["!"]
    if words[:1] == ["star"]:
        return ["*", *words[1:]]
    return ["*" if word.startswith("*") else word for word in words if is_card(word)]


def is_card(word: str) -> bool:
    """A card in notation: a letter B-Z, or a star declared as one ("*=E")."""
    return word.startswith("*") or (len(word) == 1 and "B" <= word <= "Z")


def skipped_seat(state: engines.State, notation: str) -> int | None:
    """The seat a pétard or a copy of the formula to beat makes miss a turn, if any: the first
    still in the trick after the actor, when the turn goes past them."""
    seat, trick = state.actor, state.view(None).get("trick") or {}
    if not isinstance(seat, int) or not (trick.get("top") or notation == "petard"):
        return None
    after = state.clone()
    try:
        after.apply(notation)
    except engines.EngineError:
        return None
    left = after.view(None).get("trick") or {}
    if not left.get("top") or left.get("building") or left.get("stars_for"):
        return None  # the trick was taken, or the formula is still under way: nobody skipped
    count, counts = len(state.players), state.view(None).get("hand_counts") or []
    passed = trick.get("passed") or [False] * count
    for step in range(1, count):
        other = (seat + step) % count
        if counts[other] and not passed[other]:
            return other if other != after.actor else None
    return None


class StrategixTable(Table):
    game = "strategix"
    moves_beside_board = True
    always_listed = ALWAYS_OFFERED

    def waiting_chance(self, state: engines.State, language: str) -> str:
        return text(language, "who_youngest")

    def players_say(self, state: engines.State) -> bool:
        """Who leads the first round is the youngest (R12): asked even when the kiosk deals."""
        return state.view(None)["phase"] == "first"

    def person_named(self, state: engines.State, notation: str) -> int | None:
        """The youngest player ("first N"): a person (a bot has no age)."""
        seat = notation.removeprefix("first ")
        return int(seat) if self.players_say(state) and seat.isdigit() else None

    def outcome(
        self, before: engines.State, action: engines.Action, after: engines.State, language: str
    ) -> str:
        said = super().outcome(before, action, after, language)
        view = after.view(None)
        ended = len(view["round_points"])
        if ended == len(before.view(None)["round_points"]):
            return said
        places = round_places(view, after.players, ended - 1, language)
        ending = text(language, "strategix.game_end" if after.is_over else "strategix.round_end",
                      n=ended, places=places)  # fmt: skip
        return f"{said} — {ending}"

    def goes_on(self, state: engines.State, notation: str) -> bool:
        """`star X`, `play G +` and `+ G` steps leave the formula under way."""
        after = state.clone()
        try:
            after.apply(notation)
        except engines.EngineError:
            return False
        trick = after.view(None)["trick"]
        return after.actor == state.actor and bool(trick.get("building") or trick.get("stars_for"))

    def skips(self, state: engines.State, notation: str) -> bool:
        return skipped_seat(state, notation) is not None

    def hold_seconds(self, state: engines.State) -> float:
        return ROUND_END_SECONDS if round_begins(state) else 0.0

    def waiting(self, state: engines.State, language: str) -> str:
        """Before the first lead of rounds after the first: the card exchange (R11) first; while
        a formula is under way, that another group is to come (or Annuler takes it back)."""
        building = (state.view(None).get("trick") or {}).get("building")
        if building and isinstance(state.actor, int) and not state.is_over:
            finished = any(a.notation == "done" for a in state.legal_actions())
            return text(language, "strategix.more_or_done" if finished else "strategix.more",
                        name=state.players[state.actor], undo=text(language, "undo"))  # fmt: skip
        if not round_begins(state):
            return super().waiting(state, language)
        view = state.view(None)
        order = view["last_order"]
        names = {"dubolix": state.players[order[0]], "padbolix": state.players[order[-1]]}
        if view["mode"] == "full":  # the kiosk dealt and exchanged the cards
            return text(language, "strategix.exchanged", **names)
        return text(language, "strategix.exchange", **names)

    def said(self, action: engines.Action, language: str) -> str:
        message = action.message
        if not isinstance(message, Message) or not any(f in message.params for f in PLAY_FIELDS):
            return super().said(action, language)
        params = {key: play_words(value, language) if key in PLAY_FIELDS else value
                  for key, value in message.params.items()}  # fmt: skip
        if message.code == "strategix.said.add":  # the formula so far is on the table
            return text(language, "strategix.adds", name=params["name"], group=params["group"])
        return say(language, Message(message.code, params))

    def choices(self, state: engines.State, language: str) -> list[Choice]:
        found = super().choices(state, language)
        return sorted(found, key=lambda choice: choice.notation not in ALWAYS_OFFERED)

    def pieces(self, state: engines.State, notation: str) -> frozenset[str]:
        """The cards of the hand a step lays: its real letters, a star (declared as any letter),
        a pétard; `star X` lays a star for a letter held."""
        return frozenset(f"card:{card}" for card in cards_laid(notation))

    def hand_cards(self, state: engines.State, seat: int) -> list[str]:
        """The seat's hand less the cards of the formula it is building (they are on the table),
        each left as a gap (""): the other cards keep their place under the finger."""
        view = state.view(seat)
        hand = list((view.get("hands") or [None] * (seat + 1))[seat] or [])
        building = (view.get("trick") or {}).get("building") or ""
        if view.get("current") != seat:
            return hand  # another player's formula under way takes nothing from this hand
        for card in cards_laid(building):
            if card in hand:
                hand[len(hand) - 1 - hand[::-1].index(card)] = ""  # the last copy: the rest stay
        return hand

    def keyboard(self, state: engines.State, mode: str) -> bool:
        return mode == "table" and isinstance(state.actor, int)

    def keys(self, state: engines.State, language: str) -> list[Target]:
        keys = [Target(f"key:{k}", k) for k in LETTER_KEYS]
        return keys + [Target("play:pass", text(language, "pass")),
                       Target("play:petard", text(language, "petard"))]  # fmt: skip

    def type_key(self, state: engines.State, entry: str, key: str) -> tuple[str, str]:
        if key == "+":
            return (entry + " + ").replace("  ", " "), ""
        if entry.endswith("*") and key.isalpha():
            return entry + "=" + key, ""  # a star declared as this letter
        return (entry + " " + key).strip(), ""

    def entry_notation(self, state: engines.State, entry: str) -> str:
        entry = super().entry_notation(state, entry)
        if entry and entry not in ("pass", "petard"):
            return "play " + entry
        return entry

    def entry_words(self, state: engines.State, entry: str, language: str) -> str:
        return entry.replace("*=", "★").replace("*", "★")
