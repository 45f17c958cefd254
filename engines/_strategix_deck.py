"""The Stratégix deck and hands: what is dealt, a hand counted, sorted or taken from, a deal read
from text or drawn at random, and the cards the R11 exchange passes."""

from __future__ import annotations

import random

from engines._strategix_formulas import (
    CARD_CODES,
    LETTERS,
    PETARD,
    STAR,
    Play,
    real_letters,
    star_count,
)
from engines.core import Action, IllegalActionError, NotationError
from engines.messages import msg

STARS, PETARDS, COPIES = 7, 3, 2
HAND_SIZE = {2: 20, 3: 20, 4: 15}
REMOVED_TWO_PLAYERS = 20
FULL_DECK = PETARD * PETARDS + STAR * STARS + "".join(letter * COPIES for letter in LETTERS)
_SET_ASIDE_TWO_PLAYERS = PETARD * PETARDS + STAR * STARS + "ZZ"  # R1


def hand_counts(hand: str) -> tuple[list[int], int, int]:
    """Letter counts (B..Z), stars and pétards of a hand string."""
    counts = [0] * len(LETTERS)
    for card in hand:
        if card in LETTERS:
            counts[LETTERS.index(card)] += 1
    return counts, hand.count(STAR), hand.count(PETARD)


def remove_cards(hand: str, cards: str) -> str:
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    return "".join(remaining)


def sorted_cards(cards: str) -> str:
    return "".join(sorted(cards, key=CARD_CODES.index))


def cards_of(play: Play) -> str:
    """The physical cards a play takes from a hand, as card codes."""
    return "".join(LETTERS[i] for i in real_letters(play)) + STAR * star_count(play)


def best_card(hand: str) -> str:
    """Pétard, else star, else the highest letter (R11)."""
    for card in (PETARD, STAR):
        if card in hand:
            return card
    return max(hand, key=LETTERS.index)


def worst_card(hand: str) -> str:
    """The lowest letter; a hand without letters gives a star, then a pétard (our choice)."""
    letters = [card for card in hand if card in LETTERS]
    if letters:
        return min(letters, key=LETTERS.index)
    return STAR if STAR in hand else PETARD


def parse_deal(body: str, players: tuple[str, ...]) -> Action:
    """Read `<hand> / <hand> …` (and `/ out <20 cards>` for two players) into a `deal` action."""
    parts = [part.strip().upper() for part in body.split("/")]
    count = len(players)
    out = ""
    if count == 2:
        if len(parts) != 3 or not parts[2].startswith("OUT"):
            raise NotationError("strategix.deal_two")
        out = "".join(parts.pop()[3:].split())
    hands = ["".join(part.split()) for part in parts]
    if len(hands) != count:
        raise NotationError("strategix.deal_hands", n=count)
    for cards in [*hands, out]:
        bad = set(cards) - set(CARD_CODES)
        if bad:
            raise NotationError("strategix.card_code", text=sorted(bad)[0])
    _check_deal(hands, out, players)
    ordered, out = [sorted_cards(hand) for hand in hands], sorted_cards(out)
    notation = "deal " + " / ".join(ordered)
    if out:
        notation += " / out " + out
    return Action(notation, msg("strategix.said.deal"), (tuple(ordered), out))


def _check_deal(hands: list[str], out: str, players: tuple[str, ...]) -> None:
    size = HAND_SIZE[len(players)]
    for player, hand in enumerate(hands):
        if len(hand) != size:
            raise IllegalActionError(
                "strategix.hand_size", n=size, name=players[player], got=len(hand)
            )
    if out and (len(out) != REMOVED_TWO_PLAYERS or set(out) & set(_SET_ASIDE_TWO_PLAYERS)):
        raise IllegalActionError("strategix.out_cards")
    if sorted("".join(hands) + out) != sorted(FULL_DECK):
        raise IllegalActionError("strategix.not_the_deck")


def drawn_deal(rng: random.Random, count: int) -> str:
    """A shuffled deal for `count` players, written as the body of a `deal` action."""
    deck = list(FULL_DECK)
    out: list[str] = []
    if count == 2:
        letters = [card for card in deck if card not in _SET_ASIDE_TWO_PLAYERS]
        rng.shuffle(letters)
        out, kept = letters[:REMOVED_TWO_PLAYERS], letters[REMOVED_TWO_PLAYERS:]
        deck = kept + list(_SET_ASIDE_TWO_PLAYERS)
    rng.shuffle(deck)
    size = HAND_SIZE[count]
    hands = ["".join(deck[i * size : (i + 1) * size]) for i in range(count)]
    return " / ".join(hands) + (" / out " + "".join(out) if out else "")
