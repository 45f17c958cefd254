"""Sequence at the table: the card played typed on the keys, then its square touched."""

from __future__ import annotations

import re
from typing import Any

import engines
from companion.tables.base import Table
from display.i18n import text
from display.model import Target

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ONE_EYED = ("JH", "JS")  # they remove a chip instead of placing one
CARD = re.compile(r"\b(?:[2-9TAJQK]|10)[SHDC]\b")
PLAY = re.compile(r"(?:dead)?(?P<card>[2-9TAJQK][SHDC])(?:(?:@|-?x)(?P<square>[a-j]\d+))?")


class SequenceTable(Table):
    game = "sequence"
    moves_beside_board = True

    def waiting_chance(self, state: engines.State, language: str) -> str:
        return text(language, "who_deals")

    def keyboard(self, state: engines.State, mode: str) -> bool:
        return mode == "table" and isinstance(state.actor, int)

    def offered(self, state: engines.State) -> list[engines.Action]:
        if not state.is_chance and state.game.mode == "table":
            return []  # a card typed, then its square touched: not 300 moves on pages
        return super().offered(state)

    def reached(self, state: engines.State, action: engines.Action) -> str:
        return action.notation  # every card played from the hand is the players' own choice

    def pieces(self, state: engines.State, notation: str) -> frozenset[str]:
        """The card played (from the hand) and the square it takes or frees."""
        found = PLAY.fullmatch(notation.replace(" ", ""))
        if found is None:
            return frozenset()
        card, square = found.group("card"), found.group("square")
        return frozenset({f"card:{card}"} | ({f"square:{square}"} if square else set()))

    def hand_cards(self, state: engines.State, seat: int) -> list[str]:
        hands = state.view(seat).get("hands") or []
        return list(hands[seat] or []) if seat < len(hands) else []

    def plays_on_touch(self, piece: str) -> bool:
        return piece.startswith("square:")

    def outcome(
        self, before: engines.State, action: engines.Action, after: engines.State, language: str
    ) -> str:
        """A play that completes a sequence says so, with the team's count and the target."""
        said = super().outcome(before, action, after, language)
        made = completed_sequence(after)
        if made is None or not isinstance(before.actor, int):
            return said
        view = after.view(None)
        count = view["team_sequences"][made["team"]]
        done = text(language, "sequence.completed", name=before.players[before.actor], n=count,
                    target=view["target"])  # fmt: skip
        return f"{said} — {done}"

    def marked(self, state: engines.State) -> dict[str, Any]:
        """The sequence the last play completed, marked on the board until the next play."""
        made = completed_sequence(state)
        return {"squares": list(made["squares"])} if made else {}

    def result(self, state: engines.State, language: str) -> tuple[str, dict[str, Any]]:
        """The winning team, its players and its sequences (marked on the board), and every
        team's count of sequences."""
        view = state.view(None)
        winner = view.get("winner_team")
        if winner is None:
            return "", {}
        names = ", ".join(p for p, team in zip(state.players, view["team_of"], strict=True)
                          if team == winner)  # fmt: skip
        lines = [s["squares"] for s in view["sequences"] if s["team"] == winner]
        counts = ", ".join(text(language, "sequence.team_count", n=team + 1, count=count)
                           for team, count in enumerate(view["team_sequences"]))  # fmt: skip
        said = text(language, "sequence.result", n=winner + 1, names=names, counts=counts,
                    lines=", ".join(f"{line[0]}–{line[-1]}" for line in lines))  # fmt: skip
        return said, {"squares": [square for line in lines for square in line]}

    def preview(self, state: engines.State, notation: str) -> dict[str, Any]:
        pieces = self.pieces(state, notation)
        squares = [p.removeprefix("square:") for p in pieces if p.startswith("square:")]
        return {"squares": squares}

    def keys(self, state: engines.State, language: str) -> list[Target]:
        keys = [Target(f"key:{r}", "10" if r == "T" else r) for r in RANKS]
        keys += [Target(f"key:{s}", f"{SUIT_SYMBOLS[s]}\u00a0{s}") for s in SUITS]
        keys.append(Target("entry:dead", text(language, "dead_card")))
        return keys

    def type_key(self, state: engines.State, entry: str, key: str) -> tuple[str, str]:
        if key in RANKS:
            return key, "pick_suit"
        if entry and entry[-1] in RANKS:
            return entry + key, "pick_square"
        return entry, "pick_rank"

    def guess_label(self, state: engines.State, notation: str, language: str) -> str:
        """The card and its square, short enough for one button of three ("5♥ en e5")."""
        card = CARD.search(notation)
        square = notation.rpartition("@")[2] if "@" in notation else notation.rpartition(" ")[2]
        if card is None or not square:
            return super().guess_label(state, notation, language)
        rank, suit = card.group(0)[:-1], card.group(0)[-1]
        symbol = ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit]
        removes = "-x" in notation
        said = text(language, "sequence.guess_remove" if removes else "sequence.guess_place",
                    card=symbol, square=square)  # fmt: skip
        return said

    def entry_notation(self, state: engines.State, entry: str) -> str:
        return ""  # a card typed is a play once its square is touched

    def entry_missing(self, state: engines.State, entry: str, language: str) -> str:
        if entry and entry[-1] in SUITS:
            return text(language, "pick_square_for", card=card_words(entry, language))
        return text(language, "pick_suit" if entry else "pick_rank")

    def square_play(self, entry: str, square: str) -> str:
        return f"{entry}-x {square}" if entry[:2] in ONE_EYED else f"{entry}@{square}"

    def plain(self, reason: str, notation: str, language: str) -> str:
        """Card codes in an engine's words named in full ("2S" -> "2 de pique")."""
        reason = super().plain(reason, notation.replace("-x ", "x"), language)
        reason = super().plain(reason, notation, language)
        return CARD.sub(lambda m: card_words(m.group(0), language), reason)

    def square_refusal(self, state: engines.State, square: str, language: str) -> str:
        column, row = "abcdefghij".find(square[:1]), square[1:]
        if column >= 0 and row.isdigit() and 1 <= int(row) <= 10:
            view = state.view(None)
            if view["cards"][int(row) - 1][column] == "XX":
                return text(language, "square_corner")
            if view["chips"][int(row) - 1][column] is not None:
                return text(language, "square_taken")
        return text(language, "enter_play")

    def square_guess(self, state: engines.State, square: str) -> str:
        """An empty square: its own card played on it (a jack is typed: it goes anywhere)."""
        column, row = "abcdefghij".find(square[:1]), square[1:]
        if column < 0 or not row.isdigit() or not 1 <= int(row) <= 10:
            return ""
        view = state.view(None)
        card = view["cards"][int(row) - 1][column]
        if card == "XX" or view["chips"][int(row) - 1][column] is not None:
            return ""
        return f"{card}@{square}"

    def entry_words(self, state: engines.State, entry: str, language: str) -> str:
        return card_words(entry, language)


def card_words(card: str, language: str) -> str:
    """`7D` -> "7 de carreau" / "7 of diamonds"; a rank alone is named alone."""
    if not card:
        return ""
    card = card.replace("10", "T")
    rank = text(language, f"rank_{card[0]}")
    if len(card) < 2 or card[1] not in SUITS:
        return rank
    return text(language, "card_of", rank=rank, suit=text(language, f"suit_{card[1]}"))


def completed_sequence(state: engines.State) -> dict[str, Any] | None:
    """The sequence the last play completed ({"team", "squares"}), or None: a chip placed on a
    square of a sequence completed it (a chip in a sequence is never removed)."""
    if not state.history:
        return None
    found = PLAY.fullmatch(state.history[-1].notation.replace(" ", ""))
    square = found.group("square") if found else None
    if square is None or "x" in state.history[-1].notation:
        return None
    made = [s for s in state.view(None).get("sequences", []) if square in s["squares"]]
    return made[-1] if made else None
