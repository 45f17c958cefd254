"""Stratégix in full mode: the book's examples and every RULINGS (Stratégix) point as a test."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from display.i18n import say
from engines._strategix_deck import best_card, worst_card
from engines._strategix_formulas import (
    LETTERS,
    PAIRS,
    RUNS,
    SINGLE,
    canonical,
    make_group,
    parse_play,
    play_text,
    respelled,
    shape_of,
    strength,
)
from engines.core import CHANCE, IllegalActionError, NotationError
from engines.strategix import FULL_DECK, Strategix, StrategixState

NAMES = ("Ana", "Bob", "Cleo", "Dan")
RUN_B_TO_U = "BCDEFGHIJKLMNOPQRSTU"


def deal_text(count: int, hands: dict[int, str]) -> str:
    """A deal giving the listed players these (full) hands and the others the rest of the deck."""
    size = {2: 20, 3: 20, 4: 15}[count]
    rest = Counter(FULL_DECK) - Counter("".join(hands.values()))
    order = sorted(rest.elements(), key=lambda c: (c in LETTERS and c != "Z", c))
    full = dict(hands)
    for player in range(count):
        if player not in full:
            full[player], order = "".join(order[:size]), order[size:]
    text = "deal " + " / ".join(full[p] for p in range(count))
    return text + (" / out " + "".join(order) if count == 2 else "")


def dealt(count: int, hands: dict[int, str], first: int = 0) -> StrategixState:
    state = Strategix(list(NAMES[:count]), seed=1).new_state()
    state.apply(f"first {first}")
    state.apply(deal_text(count, hands))
    return state


def short_hands(count: int, hands: dict[int, str], first: int = 0) -> StrategixState:
    """A seeded deal, then the listed players' hands replaced by these few cards (a test
    shortcut for trick rules: the rest of their cards are simply out of the picture)."""
    state = Strategix(list(NAMES[:count]), seed=1).new_state()
    state.apply(f"first {first}")
    state.play_chance()
    for player, cards in hands.items():
        state.hands[player] = "".join(sorted(cards, key="!*BCDEFGHIJKLMNOPQRSTUVWXYZ".index))
        state.counts[player] = len(cards)
    return state


def play_all(state: StrategixState, *actions: str) -> None:
    for action in actions:
        state.apply(action)


# ----- the deck and the deal (R1) --------------------------------------------------------------


def test_the_deck_has_60_cards_7_stars_3_petards_and_two_of_each_letter() -> None:
    deck = Counter(FULL_DECK)
    assert len(FULL_DECK) == 60 and deck["*"] == 7 and deck["!"] == 3
    assert all(deck[letter] == 2 for letter in LETTERS) and "A" not in deck


@pytest.mark.parametrize(("count", "size"), [(2, 20), (3, 20), (4, 15)])
def test_a_sampled_deal_gives_each_player_their_cards(count: int, size: int) -> None:
    state = Strategix(list(NAMES[:count]), seed=7).new_state()
    state.apply("first 0")
    assert state.actor == CHANCE and state.phase == "deal"
    state.play_chance()
    assert state.counts == [size] * count
    cards = Counter("".join(state.hands))
    if count == 2:
        out = Counter(state.removed)
        assert len(state.removed) == 20 and not set(out) & {"*", "!", "Z"}
        assert cards["*"] == 7 and cards["!"] == 3 and cards["Z"] == 2
        assert cards + out == Counter(FULL_DECK)
    else:
        assert cards == Counter(FULL_DECK)


def test_deals_that_are_not_the_deck_are_refused_with_a_reason() -> None:
    state = Strategix(["Ana", "Bob", "Cleo"], seed=1).new_state()
    state.apply("first 0")
    good = deal_text(3, {})
    with pytest.raises(IllegalActionError, match="20 cards"):
        state.apply(good.replace(" / ", "B / ", 1))
    swapped = good.replace("Z", "Y", 1)
    with pytest.raises(IllegalActionError, match="not the Stratégix deck"):
        state.apply(swapped)
    with pytest.raises(NotationError, match="card code"):
        state.apply(good.replace("B", "A", 1))
    two = Strategix(["Ana", "Bob"], seed=1).new_state()
    two.apply("first 0")
    with pytest.raises(NotationError, match="out"):
        two.apply("deal " + "B" * 20 + " / " + "C" * 20)


def test_two_players_never_remove_stars_petards_or_z() -> None:
    state = Strategix(["Ana", "Bob"], seed=1).new_state()
    state.apply("first 0")
    hands = "VWXYVWXYZZ*******!!!"
    text = f"deal {RUN_B_TO_U} / {hands} / out {RUN_B_TO_U}"
    state.apply(text)
    bad = Strategix(["Ana", "Bob"], seed=1).new_state()
    bad.apply("first 0")
    with pytest.raises(IllegalActionError, match="B to Y"):
        bad.apply(f"deal {RUN_B_TO_U} / VWXYVWXYZU*******!!! / out BCDEFGHIJKLMNOPQRSTZ")


# ----- formulas and strength (R2, R3, R13) ----------------------------------------------------


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    [
        ("G H I", "M N O"),
        ("J K L M + U V W X", "K L M N + T U V W"),
        ("F F + O O + T T + X X", "H H + K K + M M + U U"),
    ],  # fmt: skip
)
def test_the_books_three_strength_examples(weaker: str, stronger: str) -> None:
    assert strength(parse_play(weaker)) < strength(parse_play(stronger))
    hands = {0: weaker.replace(" ", "").replace("+", "") + "!",
             1: stronger.replace(" ", "").replace("+", "") + "!"}  # fmt: skip
    state = short_hands(3, hands)
    state.apply(f"play {weaker}")
    state.apply(f"play {stronger}")  # the stronger formula follows
    assert state.top[0] == 1
    other = short_hands(3, {0: hands[1], 1: hands[0]})
    other.apply(f"play {stronger}")
    with pytest.raises(IllegalActionError, match="too weak"):
        other.apply(f"play {weaker}")


def test_formula_kinds_are_read_from_the_cards() -> None:
    assert parse_play("C")[0].kind == SINGLE
    runs = parse_play("m n o + d e f")
    assert [g.text for g in runs] == ["D E F", "M N O"] and runs[0].kind == RUNS
    pairs = parse_play("T T + *=G G + P P")
    assert [g.text for g in pairs] == ["G *=G", "P P", "T T"] and pairs[0].kind == PAIRS
    assert parse_play("*=Z")[0].has_z


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("D E + F F", "pairs only"),
        ("D E F + M N", "same length"),
        ("C + D", "alone"),
        ("D E G", "neither a pair nor a run"),
        ("D D D", "neither"),
    ],  # fmt: skip
)
def test_cards_that_are_no_formula_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalActionError, match=reason):
        parse_play(text)


@pytest.mark.parametrize("text", ["*", "A", "D ? E", "D E +  + F G", "1"])
def test_garbled_cards_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_play(text)


def test_a_follow_must_be_the_same_formula() -> None:
    state = short_hands(3, {0: "DEFMNO!", 1: "DEFGHI!"})
    state.apply("play D E F + M N O")
    with pytest.raises(IllegalActionError, match="2 run"):
        state.apply("play D E F G")
    with pytest.raises(IllegalActionError, match="2 run"):
        state.apply("play G H I")
    state.apply("play D E F + G H I")  # same lowest letter D: as strong is enough
    assert state.top[0] == 1


def test_a_star_stands_for_any_letter_z_included() -> None:
    state = short_hands(3, {0: "*C", 1: "*D"})
    state.apply("play *=Y")
    assert state.top[0] == 0
    state.apply("play *=Z")  # a star declared Z wins the trick at once
    assert state.last_trick["winner"] == 1 and state.last_trick["by_z"]
    assert state.current == 1 and state.top is None


def test_full_mode_a_star_may_stand_for_a_letter_the_player_holds() -> None:
    state = short_hands(3, {0: "*D!"})
    legal = [a.notation for a in state.legal_actions()]
    assert "play *=D" not in legal and "star D" in legal  # R2: declared by a step first
    state.apply("star D")
    assert [a.notation for a in state.legal_actions()] == ["play *=D"]
    state.apply("play *=D")
    assert state.hands[0] == "!D"  # the real D is kept
    typed = short_hands(3, {0: "*D!"})
    with pytest.raises(IllegalActionError, match="you hold D.*'star D' first"):
        typed.apply("play *=D")  # what is accepted is what is listed: the step comes first
    with pytest.raises(IllegalActionError, match="'star D' first"):
        short_hands(3, {0: "*DE!"}).apply("play *=D E +")
    with pytest.raises(IllegalActionError, match="do not hold"):
        short_hands(3, {0: "*D!"}).apply("play Q")


def test_a_typed_formula_is_spelled_one_way_real_cards_first() -> None:
    state = short_hands(3, {0: "DE**!"})
    action = state.apply("play *=D E + D *=E")
    assert action.notation == "play D E + *=D *=E"  # same cards laid, same letters declared
    assert state.hands[0] == "!"


def test_a_star_for_a_held_letter_keeps_that_letter_out_of_the_rest_of_the_formula() -> None:
    state = short_hands(3, {0: "DDEE*!"})
    state.apply("play D E +")
    steps = [a.notation for a in state.legal_actions()]
    assert steps == ["+ D E", "+ E *=F", "star D", "star E"]
    state.apply("star D")
    assert [a.notation for a in state.legal_actions()] == ["+ *=D E"]
    state.apply("+ *=D E")
    state.apply("done")
    assert state.hands[0] == "!D" and state.trick[-1] == (0, "play D E + *=D E")


def test_star_steps_for_a_follow_need_a_group_that_beats_the_trick() -> None:
    state = short_hands(3, {0: "DE!", 1: "CDEF*!"})
    state.apply("play D E")
    steps = [a.notation for a in state.legal_actions()]
    assert {"star D", "star E", "star F"} <= set(steps) and "star C" not in steps
    state.apply("star F")
    assert [a.notation for a in state.legal_actions()] == ["play E *=F"]
    with pytest.raises(IllegalActionError, match="a star stands for F"):
        state.apply("pass")
    with pytest.raises(IllegalActionError, match="a star stands for F"):
        state.apply("play F G")  # a whole formula without the star said for F


# ----- building a formula group by group (full mode) ------------------------------------------


def test_a_lead_is_built_group_by_group_then_done() -> None:
    state = short_hands(3, {0: "DEFMNOST"})
    state.apply("play D E F +")
    assert state.view(None)["trick"]["building"] == "D E F"
    assert "pass" not in [a.notation for a in state.legal_actions()]
    state.apply("+ M N O")
    with pytest.raises(IllegalActionError, match="under way"):
        state.apply("pass")
    state.apply("done")
    assert state.top[0] == 0 and state.trick == [(0, "play D E F + M N O")]
    assert state.counts[0] == 2


def test_a_follow_is_complete_once_it_has_as_many_groups() -> None:
    state = short_hands(3, {0: "DEFMNO!", 1: "EFGNOP!"})
    state.apply("play D E F + M N O")
    steps = [a.notation for a in state.legal_actions()]
    assert "play E F G +" in steps and "play E F G" not in steps
    state.apply("play E F G +")
    assert [a.notation for a in state.legal_actions()] == ["+ N O P"]
    state.apply("+ N O P")
    assert state.top == (1, parse_play("E F G + N O P")) and state.current == 2


def test_a_group_that_cannot_be_completed_is_not_offered() -> None:
    state = short_hands(3, {0: "DEFMNO!", 1: "EFG!"})
    state.apply("play D E F + M N O")
    assert all(not a.notation.startswith("play") for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="cannot go on"):
        state.apply("play E F G +")


def test_a_whole_formula_can_be_typed_at_once_and_undone() -> None:
    state = short_hands(3, {0: "DEFMNO"})
    before = state.clone()
    state.apply("play m n o + d e f")
    assert state.history[-1].notation == "play D E F + M N O"
    state.undo()
    assert state == before


# ----- passing, exact copy, pétards, Z (R4–R8) -------------------------------------------------


def test_a_passed_player_is_out_of_the_trick() -> None:
    state = short_hands(3, {0: "CH!", 1: "EF", 2: "GK"})
    play_all(state, "play C", "pass", "play G", "play H")
    assert state.current == 2  # Bob passed: his turn is left out
    state.apply("pass")
    assert state.last_trick["winner"] == 0 and state.current == 0 and state.top is None


def test_the_leader_must_play() -> None:
    state = short_hands(3, {0: "CD"})
    assert "pass" not in [a.notation for a in state.legal_actions()]
    with pytest.raises(IllegalActionError, match="leader must play"):
        state.apply("pass")


def test_with_two_players_a_pass_gives_the_trick_to_the_other() -> None:
    state = dealt(2, {0: RUN_B_TO_U})
    state.apply("play B")
    state.apply("pass")
    assert state.last_trick["winner"] == 0 and state.current == 0 and state.top is None


def test_with_two_players_the_top_player_passing_still_wins_the_trick() -> None:
    state = short_hands(2, {0: "CH!", 1: "CK!"})
    state.apply("play C")
    state.apply("play C")  # the same letters: Ana is skipped, Bob is on top and to act again
    assert state.current == 1 and state.top[0] == 1
    state.apply("pass")  # R4 ends the trick; R8: the strongest formula (Bob's) wins it
    assert state.last_trick["winner"] == 1 and state.current == 1 and state.top is None


def test_the_same_letters_skip_the_next_player() -> None:
    state = short_hands(3, {0: "DEMN!", 1: "DEMN!"})
    state.apply("play D E + M N")
    state.apply("play D E + M N")
    assert state.current == 0  # Cleo is skipped, still in the trick
    assert not state.passed[2]


def test_a_star_declared_as_the_same_letter_is_an_exact_copy_too() -> None:
    state = short_hands(3, {0: "DE!", 1: "E*!"})
    state.apply("play D E")
    action = state.apply("play *=D E")
    assert "same letters" in say("en", action) and state.current == 0 and not state.passed[2]


def test_a_petard_cannot_lead_and_skips_the_next_player() -> None:
    state = short_hands(3, {0: "!C", 1: "!D"})
    with pytest.raises(IllegalActionError, match="never leads"):
        state.apply("petard")
    state.apply("play C")
    state.apply("petard")
    assert state.current == 0  # Cleo is skipped
    assert state.top == (0, parse_play("C"))  # the formula to beat is unchanged
    with pytest.raises(IllegalActionError, match="right after a pétard"):
        state.apply("petard")


def test_a_z_wins_at_once_even_when_leading() -> None:
    state = short_hands(3, {0: "YZC"})
    state.apply("play Y Z")
    assert state.last_trick == {"winner": 0, "by_z": True, "plays": [[0, "play Y Z"]]}
    assert state.current == 0 and state.top is None


def test_the_trick_goes_on_until_every_other_player_has_passed() -> None:
    state = short_hands(3, {0: "CD", 1: "!E", 2: "FG"})
    play_all(state, "play C", "petard")  # Cleo skipped; Ana, top, plays again
    assert state.current == 0
    state.apply("play D")
    assert state.current == 1
    play_all(state, "pass", "pass")
    assert state.last_trick["winner"] == 0


# ----- going out, places, points, exchange, rounds (R9–R12) -------------------------------------


def test_two_players_out_normally_is_dubolix() -> None:
    hands = {0: RUN_B_TO_U, 1: "VWXYVWXYZZ*******!!!"}
    state = Strategix(["Ana", "Bob"], seed=1).new_state()
    state.apply("first 0")
    state.apply(f"deal {hands[0]} / {hands[1]} / out {RUN_B_TO_U}")
    state.apply("play " + " ".join(RUN_B_TO_U))
    assert state.round_points == [[2, -2]] and state.scores() == [2, -2]
    assert state.round == 2 and state.phase == "deal"


def test_two_players_out_on_a_star_is_padbolix_and_the_other_dubolix() -> None:
    hands = {0: "BCDEFGHIJKLMNOPQRS**", 1: "VWXYVWXYZZ*****!!!TU"}
    state = Strategix(["Ana", "Bob"], seed=1).new_state()
    state.apply("first 0")
    state.apply(f"deal {hands[0]} / {hands[1]} / out BCDEFGHIJKLMNOPQRSTU")
    state.apply("play " + " ".join("BCDEFGHIJKLMNOPQRS") + " *=T *=U")
    assert state.last_order == [1, 0]  # Ana out on stars: Padbolix, Bob Dubolix
    assert state.round_points == [[-2, 2]] and state.round == 2
    state.play_chance()
    assert state.current == 0  # Padbolix leads round 2
    assert state.exchange[0] == 0 and state.exchange[2] == 1


def test_out_on_a_star_z_or_petard_is_padbolix_at_once() -> None:
    state = dealt(3, {0: "GHIJKLMNOPQRSTUVWXYZ"})
    state.apply("play " + " ".join("GHIJKLMNOPQRSTUVWXYZ"))  # holds Z: Padbolix
    assert state.bottom == [0] and state.places == []
    assert state.current == 1  # the trick was won by a player now out: the next one leads


def test_three_players_places_and_points() -> None:
    state = dealt(3, {0: RUN_B_TO_U, 1: RUN_B_TO_U})
    state.apply("play " + " ".join(RUN_B_TO_U))
    state.apply("play " + " ".join(RUN_B_TO_U))  # Bob out too: Cleo is last
    assert state.round_points == [[2, 0, -2]]


def test_four_players_places_points_and_the_exchange() -> None:
    hands = {0: "BCDEFGHIJKLMNOP", 1: "BCDEFGHIJKLMNOP", 2: "QRSTUVWXYZ!!!**",
             3: "QRSTUVWXYZ*****"}  # fmt: skip
    state = dealt(4, hands)
    run = "play " + " ".join("BCDEFGHIJKLMNOP")
    play_all(state, run, run)  # Ana then Bob out; Bob's copy skips Cleo
    assert state.current == 3
    state.apply("play *=L *=M *=N *=O *=P Q R S T U V W X Y Z")  # out on a Z: Padbolix
    assert state.round_points == [[4, 2, 0, -2]] and state.last_order == [0, 1, 2, 3]
    # Round 2: Padbolix (Dan) gives his best card, Dubolix (Ana) her worst; Dan leads.
    state.apply(deal_text(4, {0: "CDEFGHIJKLMNOPQ", 3: "!*ZBCDEFGHIJKLM"}))
    assert state.exchange == (3, "!", 0, "C")
    assert "!" in state.hands[0] and "C" in state.hands[3] and "!" not in state.hands[3]
    assert state.current == 3 and state.round == 2


def test_a_second_padbolix_goes_just_above_the_first() -> None:
    hands = {0: "QRSTUVWXYZ*****", 1: "BCDEFGHIJKLMN**", 2: "BCDEFGHIJKLMNOP"}
    state = dealt(4, hands)
    state.apply("play *=L *=M *=N *=O *=P Q R S T U V W X Y Z")  # out on a Z and stars
    assert state.bottom == [0] and state.current == 1
    state.apply("play B C D E F G H I J K L M N *=O *=P")  # out on stars
    assert state.bottom == [0, 1] and state.current == 2
    state.apply("play B C D E F G H I J K L M N O P")  # out normally: only Dan is left
    assert state.last_order == [2, 3, 1, 0] and state.round_points == [[-2, 0, 4, 2]]


def test_the_game_lasts_as_many_rounds_as_players_and_the_best_total_wins() -> None:
    rng = random.Random(4)
    state = Strategix(["Ana", "Bob", "Cleo"], seed=4).new_state()
    while not state.is_over:
        if state.is_chance:
            state.play_chance()
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert len(state.round_points) == 3 and state.round == 3
    assert state.scores() == [sum(points) for points in zip(*state.round_points, strict=True)]
    best = max(state.scores())
    assert state.winners() == [i for i, s in enumerate(state.scores()) if s == best]


# ----- views -----------------------------------------------------------------------------------


def test_views_hide_other_hands_and_are_json() -> None:
    state = short_hands(3, {0: "CDE"})
    mine, spectator = state.view(0), state.view(None)
    assert mine["hands"][0][:3] == ["C", "D", "E"] and mine["hands"][1] is None
    assert spectator["hands"] == [None, None, None]
    assert spectator["hand_counts"] == [3, 20, 20] and spectator["current"] == 0
    json.dumps(spectator)
    state.apply("play C")
    trick = state.view(None)["trick"]
    assert trick["top"] == {"player": 0, "play": "C", "strength": "C"}
    assert trick["formula"] == {"kind": "single", "groups": 1, "length": 1}
    assert state.view(None)["seen"]["letters"]["C"] == 1


def test_the_registry_finds_the_engine() -> None:
    assert "strategix" in engines.available_games()
    assert engines.game_class("Stratégix") is Strategix


# ----- the full-mode listing against brute force ---------------------------------------------

SMALL_LETTERS = "BCDEFG"
FOLLOW_TOPS = [None, "C", "C D", "C C", "C D + D E", "B B + D D", "B C D"]


def listed_plays(state: StrategixState) -> list[str]:
    """Every whole formula reached through the listed steps (play g, play g +, + h, star x, done),
    once per path: a play reached twice would be a duplicate in the listing."""
    found: list[str] = []
    for action in state.legal_actions():
        notation = action.notation
        if notation in ("pass", "petard"):
            continue
        if notation.startswith("play") and not notation.endswith("+") or notation == "done":
            found.append(play_text(action.data))
            continue
        after = state.clone()
        after.apply(action, validate=False)
        if after.building or after.locks:
            found += listed_plays(after)
        else:  # a follow completed by its last group
            laid = after.trick or after.last_trick["plays"]  # a Z ends the trick at once
            found.append(laid[-1][1].removeprefix("play "))
    return found


def brute_force_plays(hand: str, top: str | None) -> set[str]:
    """Every multiset of groups the hand can lay that the rules and full-mode spelling allow."""
    counts = [hand.count(letter) for letter in LETTERS]
    stars = hand.count("*")
    found = set()
    for kind, size in [(SINGLE, 1), (PAIRS, 2)] + [(RUNS, n) for n in range(2, len(hand) + 1)]:
        last = len(LETTERS) - (size - 1 if kind == RUNS else 0)
        masks = (0, 1) if kind == SINGLE else (0, 2, 3) if kind == PAIRS else range(1 << size)
        groups = [make_group(kind, start, size, mask) for start in range(last) for mask in masks]
        holdable = [g for g in groups if holds(counts, stars, (g,))]
        combos = [(g,) for g in holdable] if kind == SINGLE else multisets(holdable, counts, stars)
        for combo in combos:
            play = canonical(combo)
            if respelled(play) != play:
                continue
            if top is not None:
                wanted = parse_play(top)
                if shape_of(play) != shape_of(wanted) or strength(play) < strength(wanted):
                    continue
            found.add(play_text(play))
    return found


def holds(counts: list[int], stars: int, play) -> bool:
    used = Counter(letter for group in play for letter in group.uses)
    return all(counts[i] >= n for i, n in used.items()) and sum(g.nstars for g in play) <= stars


def multisets(items: list, counts: list[int], stars: int, start: int = 0, chosen: tuple = ()):
    """Multisets of groups the hand can pay for together (pruned as soon as it cannot)."""
    for index in range(start, len(items)):
        combo = (*chosen, items[index])
        if not holds(counts, stars, combo):
            continue
        yield combo
        yield from multisets(items, counts, stars, index, combo)


@settings(max_examples=30, deadline=None)
@given(
    letters=st.lists(st.sampled_from(SMALL_LETTERS), min_size=2, max_size=6),
    stars=st.integers(0, 2),
    top=st.sampled_from(FOLLOW_TOPS),
)
def test_the_listed_steps_reach_exactly_every_allowed_formula(letters, stars, top) -> None:
    kept = "".join(c for i, c in enumerate(letters) if letters[: i + 1].count(c) <= 2)
    hand = kept + "*" * stars + "!"  # the pétard keeps the player in the round
    state = short_hands(3, {0: hand})
    if top is not None:
        state.top = (1, parse_play(top))
    paths = listed_plays(state)
    assert len(paths) == len(set(paths)), "a play is reached by two paths"
    assert set(paths) == brute_force_plays(hand.replace("!", ""), top)


# ----- choices where the book is silent -------------------------------------------------------


def test_a_leader_holding_only_petards_passes_the_lead() -> None:
    state = short_hands(3, {0: "!!", 1: "CD", 2: "EF"})
    assert [a.notation for a in state.legal_actions()] == ["pass"]
    state.apply("pass")
    assert state.current == 1 and state.passed == [True, False, False]
    play_all(state, "play C", "play E", "pass")  # Ana sits this trick out
    assert state.last_trick["winner"] == 2 and state.current == 2


def test_when_nobody_left_can_lead_the_round_ends() -> None:
    state = short_hands(3, {0: "!", 1: "!!", 2: "!"})
    play_all(state, "pass", "pass", "pass")
    assert state.last_order == [0, 2, 1]  # fewer cards first, then turn order
    assert state.round_points == [[2, -2, 0]] and state.round == 2


def test_the_exchanged_cards_best_and_worst() -> None:
    assert [best_card(h) for h in ("BZ*!", "BZ*", "BYZ", "CB")] == ["!", "*", "Z", "C"]
    assert [worst_card(h) for h in ("!*DC", "!*", "!")] == ["C", "*", "!"]


def test_a_formula_under_way_survives_a_save() -> None:
    state = short_hands(3, {0: "DEFMNO!"})
    state.apply("play D E F +")
    # short_hands edits the deal, so replay the same steps on a real deal for the save check
    real = dealt(3, {0: "DEFMNOQRSTUVWXY*****"})
    real.apply("play D E F +")
    assert engines.loads(engines.dumps(real)) == real
    assert state.view(None)["trick"]["building"] == "D E F"


def test_out_on_a_petard_is_padbolix_too() -> None:
    state = short_hands(3, {0: "CD", 1: "!"})
    play_all(state, "play C", "petard")
    assert state.bottom == [1] and state.current == 0  # Cleo is skipped by the pétard


def test_the_referee_plays_it_in_both_modes() -> None:
    from companion.referee import Referee

    full = Referee(Strategix(["Ana", "Bob"], seed=3).new_state(), auto_chance=True)
    reply = full.handle("show")
    assert reply["ok"] and reply["actor"] in (0, 1) and reply["legal"]
    assert full.handle(reply["legal"][0])["ok"]
    table = Referee(Strategix(["Ana", "Bob"], mode="table").new_state())
    assert table.handle("first 1")["actor"] == 1
    refused = table.handle("play D D D")
    assert not refused["ok"] and "neither a pair nor a run" in refused["error"]
