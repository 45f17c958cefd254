"""The advisor: legal, ranked advice from the acting player's view only, with exact figures."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

import advisor
import engines
from advisor import roudalon as roudalon_advisor
from advisor import sequence as sequence_advisor
from advisor import strategix as strategix_advisor
from advisor import struggle as struggle_advisor
from advisor.core import REASONS, wilson_interval
from engines.core import CHANCE

REPO = Path(__file__).resolve().parents[1]
PLAYERS = {"struggle": 3, "traverse": 2, "strategix": 3, "sequence": 2, "roudalon": 4}


def position(name: str, seed: int, moves: int, players: int | None = None):
    """A position after `moves` random actions, with a player to act."""
    count = players or PLAYERS[name]
    state = engines.make_game(name, [f"P{i}" for i in range(count)], seed=seed).new_state()
    rng = random.Random(seed)
    played = 0
    while not state.is_over:
        if state.actor == CHANCE:
            state.play_chance()
            continue
        if played >= moves:
            return state
        state.apply(rng.choice(state.legal_actions()), validate=False)
        played += 1
    pytest.skip("the random game ended early")


@pytest.mark.parametrize("name", sorted(PLAYERS))
@pytest.mark.parametrize("seed", [1, 2])
def test_advice_ranks_every_legal_action_once(name: str, seed: int) -> None:
    state = position(name, seed, moves=2 + seed)
    choices = advisor.advise(state, iterations=30)
    legal = sorted(a.notation for a in state.legal_actions())
    assert sorted(c.notation for c in choices) == legal
    ranks = [rank_of(c) for c in choices]
    assert ranks == sorted(ranks, reverse=True)
    for choice in choices:
        assert choice.reason.code in REASONS
        choice.reason.text()  # every parameter its English default needs is there
        assert set(choice.to_dict()) == {"notation", "figure", "kind", "reason"}


def rank_of(choice: advisor.Choice) -> float:
    """What ranks a choice: its figure, or for Struggle (told by one pawn's chance to end in
    its box) the expected score of every pawn of the card."""
    return choice.reason.params.get("expected", choice.figure)


def test_no_advice_when_no_player_acts() -> None:
    state = engines.make_game("traverse", ["A", "B"]).new_state()
    assert state.actor == CHANCE
    assert advisor.advise(state) == []
    with pytest.raises(ValueError):
        advisor.best_action(state)


def _same_view_advice(state, twin, player: int) -> None:
    assert twin.view(player) == state.view(player)
    first = [c.to_dict() for c in advisor.advise(state, iterations=40)]
    second = [c.to_dict() for c in advisor.advise(twin, iterations=40)]
    assert first == second


@pytest.mark.parametrize("seed", [3, 4])
def test_sequence_advice_ignores_the_hidden_cards(seed: int) -> None:
    state = position("sequence", seed, moves=10)
    player = state.actor
    twin = sequence_advisor.determinise(state, player, random.Random(99))
    assert twin.hands != state.hands or twin.stock != state.stock
    _same_view_advice(state, twin, player)


@pytest.mark.parametrize("seed", [3, 4])
def test_strategix_advice_ignores_the_hidden_cards(seed: int) -> None:
    state = position("strategix", seed, moves=5, players=2)
    player = state.actor
    twin = strategix_advisor.determinise(state, player, random.Random(99))
    assert twin.hands != state.hands or twin.removed != state.removed
    _same_view_advice(state, twin, player)


def test_struggle_advice_ignores_the_other_objective_cards() -> None:
    state = position("struggle", 5, moves=4)
    player = state.actor
    twin = state.clone()
    others = [i for i in range(len(state.players)) if i != player]
    taken = set(state.objectives)
    spare = next(order for order in engines.struggle.OBJECTIVE_DECK if order not in taken)
    twin.objectives[others[0]] = spare
    assert twin.objectives != state.objectives
    _same_view_advice(state, twin, player)


def test_the_advisor_never_uses_the_game_seed() -> None:
    """The seed fixes the deck order: two games differing only by it look alike once dealt."""
    state = position("roudalon", 7, moves=3)
    twin = engines.loads(engines.dumps(state))
    assert [c.to_dict() for c in advisor.advise(state, iterations=50)] == [
        c.to_dict() for c in advisor.advise(twin, iterations=50)
    ]


# ----- exact figures -----------------------------------------------------------------------------


def _brute_sum(dice: int, total: int) -> Fraction:
    hits = sum(1 for faces in product(range(1, 7), repeat=dice) if sum(faces) == total)
    return Fraction(hits, 6**dice)


def test_roudalon_dice_chances_are_exact() -> None:
    assert roudalon_advisor.sum_chance(2, 9) == Fraction(4, 36)
    assert roudalon_advisor.sum_chance(2, 7) == Fraction(6, 36)
    assert roudalon_advisor.sum_chance(1, 7) == 0
    for dice in (1, 2, 3):
        for total in range(0, 20):
            assert roudalon_advisor.sum_chance(dice, total) == _brute_sum(dice, total)


def _brute_alliance(held: tuple[int, ...], pot: int) -> Fraction:
    """Every ally throws all their dice (the chance of that fixed choice)."""
    hits = 0
    dice = [d for d in held]
    for faces in product(range(1, 7), repeat=sum(dice)):
        running, ok, at = 0, True, 0
        for ally, count in enumerate(dice):
            running += sum(faces[at : at + count])
            at += count
            last = ally == len(dice) - 1
            if running > pot or (not last and running >= pot) or (last and running != pot):
                ok = False
                break
        hits += ok
    return Fraction(hits, 6 ** sum(dice))


def test_roudalon_alliance_chance_is_the_best_over_dice_counts() -> None:
    # One die each: the only choice there is, so the exact count applies.
    for pot in range(2, 13):
        assert roudalon_advisor.alliance_chance((1, 1), pot) == _brute_alliance((1, 1), pot)
    # Holding two, an ally may throw one: never worse than throwing both.
    for pot in range(3, 19):
        best = roudalon_advisor.alliance_chance((2, 1), pot)
        assert best >= _brute_alliance((2, 1), pot)
        assert best >= _brute_alliance((1, 1), pot)
    assert roudalon_advisor.alliance_chance((1, 1), 12) == Fraction(1, 36)


def test_roudalon_throw_figures_in_the_advice() -> None:
    state = position("roudalon", 11, moves=0)
    while "throw 1" not in [a.notation for a in state.legal_actions()]:
        state.apply("stake 1")
        while state.actor == CHANCE:
            state.play_chance()
    pot = state.view(None)["pot"]
    for choice in advisor.advise(state, iterations=20):
        if choice.notation == "throw 1":
            params = choice.reason.params
            assert Fraction(params["ways"], params["outcomes"]) == _brute_sum(1, pot)


def _brute_keep(hand: tuple[str, ...], target: tuple[str, ...], rethrows: int) -> Fraction:
    """Enumerate every face sequence of the re-thrown dice, throw after throw (the chance from a
    kept set depends on nothing else, so each is enumerated once)."""
    from collections import Counter
    from functools import cache

    wanted = Counter(target)

    @cache
    def chance(kept: tuple[str, ...], left: int) -> Fraction:
        if not +(wanted - Counter(kept)):
            return Fraction(1)
        if left == 0:
            return Fraction(0)
        free = 5 - len(kept)
        total = Fraction(0)
        for faces in product(engines.dice.POKER_FACES, repeat=free):
            useful = (Counter(kept) + Counter(faces)) & wanted
            total += chance(tuple(sorted(useful.elements())), left - 1)
        return total / 6**free

    useful = Counter(hand) & wanted
    return chance(tuple(sorted(useful.elements())), rethrows)


def test_struggle_chance_of_a_hand_after_two_rethrows() -> None:
    hand = ("9", "10", "J", "K", "K")
    # One more King from three dice, twice: 1 - (5/6)^6.
    assert struggle_advisor.keep_chance(hand, ("K", "K", "K"), 2) == 1 - Fraction(5, 6) ** 6
    for target, rethrows in ((("K", "K", "K"), 1), (("Q", "Q"), 2), (("K", "K", "A", "A"), 2)):
        expected = _brute_keep(hand, target, rethrows)
        assert struggle_advisor.keep_chance(hand, target, rethrows) == expected


def test_struggle_dice_outcomes_are_exact() -> None:
    for dice in range(0, 6):
        outcomes = struggle_advisor.outcomes(dice)
        assert abs(sum(chance for _, chance in outcomes) - 1) < 1e-12
    assert dict(struggle_advisor.outcomes(2))[("K", "K")] == pytest.approx(1 / 36)
    assert dict(struggle_advisor.outcomes(2))[("Q", "K")] == pytest.approx(2 / 36)


def test_struggle_expected_points_of_a_finished_race() -> None:
    boxes = {"K": "A", "Q": "B", "J": "C", "10": "D", "9": "E"}
    assert struggle_advisor.expected_points({}, boxes, 32, ("K", "Q", "J", "10", "9")) == 50
    assert struggle_advisor.expected_points({}, boxes, 32, ("Q", "K", "J", "10", "9")) == 30


def test_struggle_keeping_is_the_exact_expectation() -> None:
    """With one re-throw left, a keep's figure is the outcomes' chance-weighted best play."""
    state = position("struggle", 8, moves=0)
    assert state.throws == 1
    state.throws = 2  # one re-throw left
    objective = struggle_advisor.objective_of(state, state.actor)
    planner = struggle_advisor._Planner(state, objective)
    kept = state.hand[:3]
    expected = sum(
        chance * max(v for _, v in planner.plays(engines.dice.sort_faces(
            kept + thrown, engines.dice.POKER_FACES)))
        for thrown, chance in struggle_advisor.outcomes(2)
    )  # fmt: skip
    assert struggle_advisor.points(planner.kept_value(kept, 1)) == pytest.approx(expected)


def test_traverse_reach_chances() -> None:
    from advisor.traverse import reach_chance

    assert reach_chance(1) == pytest.approx(11 / 36)
    assert reach_chance(12) == pytest.approx(1 / 36)
    assert reach_chance(7) == pytest.approx(6 / 36)
    assert reach_chance(6) == pytest.approx(16 / 36)  # a die showing 6, or 1+5, 2+4, 3+3


def test_traverse_progress_never_prefers_stopping_short_of_the_arrival_box() -> None:
    """A pawn home counts more than the same pawn anywhere short of it, and a square further
    more than one less (in #27 a term for pawns a throw may bring home, tried with a pawn home
    counted 0, left one square short worth more than home: the advisor won 7 % of its games)."""
    from advisor.traverse import progress

    end = 11
    for position in range(end):
        short = bytes([position] + [end] * (end - 2))
        assert progress(bytes([end] * (end - 1)), end) > progress(short, end)
        if position:
            fewer = bytes([position - 1] + [end] * (end - 2))
            assert progress(short, end) > progress(fewer, end)


def test_wilson_interval() -> None:
    low, high = wilson_interval(60, 100)
    assert 0.50 < low < 0.51 and 0.69 < high < 0.70
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_engines_never_import_the_advisor() -> None:
    pattern = re.compile(r"^\s*(from|import)\s+(advisor|companion|display)\b", re.M)
    for path in (REPO / "engines").glob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path.name


def test_advisor_imports_only_engines() -> None:
    pattern = re.compile(r"^\s*(from|import)\s+(companion|display|vision|hardware)\b", re.M)
    for path in (REPO / "advisor").glob("*.py"):
        assert not pattern.search(path.read_text(encoding="utf-8")), path.name


# ----- Roudalon's chance of winning, Traverse's second ply ---------------------------------------


def _engine_win_chance(state, me: int, memo: dict) -> float:
    """The advised player's chance of winning, by expectimax over the engine itself: chance
    enumerated die by die, the others on the natural rule, `me` at its best (no alliance)."""
    from itertools import product as faces_of

    if state.is_over:
        winners = state.winners()
        return 1.0 / len(winners) if me in winners else 0.0
    view = state.view(None)
    key = (view["phase"], view["pot"], tuple(view["held"]), view["current"], state.dice_to_roll)
    if key in memo:
        return memo[key]
    if state.actor == CHANCE:
        rolls = list(faces_of(range(1, 7), repeat=state.dice_to_roll))
        value = sum(_after(state, f"roll {' '.join(map(str, r))}", me, memo) for r in rolls)
        value /= len(rolls)
    elif state.actor == me:
        legal = [a.notation for a in state.legal_actions() if a.notation != "offer"]
        value = max(_after(state, notation, me, memo) for notation in legal)
    else:
        dice = roudalon_advisor.natural_throw(view["held"][state.actor], view["pot"])
        legal = [a.notation for a in state.legal_actions()]
        wanted = f"throw {dice}" if dice and f"throw {dice}" in legal else legal[0]
        value = _after(state, wanted, me, memo)
    memo[key] = value
    return value


def _after(state, notation: str, me: int, memo: dict) -> float:
    after = state.clone()
    after.apply(notation, validate=False)
    return _engine_win_chance(after, me, memo)


def test_roudalon_win_table_agrees_with_expectimax_over_the_engine() -> None:
    options = {"stake_min": 5, "stake_max": 6}  # few pots: the engine's expectimax stays short
    game = engines.make_game("roudalon", ["A", "B", "C", "D"], options, seed=1)
    state = game.new_state()
    for roll in ("roll 6 6", "roll 1 1", "roll 1 1", "roll 1 1"):
        state.apply(roll)  # A starts and must stake
    table = roudalon_advisor.WinTable(4, 5, 6, offers=False)
    for amount in (5, 6):
        after = state.clone()
        after.apply(f"stake {amount}")
        expected = _engine_win_chance(after, 0, {})
        found = table.opening_stake(0, (1, 1, 1, 1), 0, None, amount)
        assert found == pytest.approx(expected, abs=1e-9)


def test_roudalon_stakes_are_weighed_by_the_chance_of_winning() -> None:
    state = engines.make_game("roudalon", ["A", "B", "C", "D"], seed=1).new_state()
    for roll in ("roll 6 6", "roll 1 1", "roll 1 1", "roll 1 1"):
        state.apply(roll)
    choices = advisor.advise(state)
    assert {c.kind for c in choices} == {"win"}
    assert all(0.0 <= c.figure <= 1.0 for c in choices)
    table = roudalon_advisor.win_table(4, 1, 6)
    best = max(table.opening_stake(0, (1, 1, 1, 1), 0, None, k) for k in range(1, 7))
    assert choices[0].figure == pytest.approx(best)


def test_traverse_second_ply_is_the_average_over_the_engines_throws() -> None:
    from advisor import traverse as traverse_advisor

    state = position("traverse", 5, moves=30)
    play = state.legal_actions()[0]
    state.apply(play)
    assert state.actor == CHANCE
    mover = 1 - state.view(None)["current"] if state.view(None)["current"] is not None else 0
    colours = ("red", "white")
    view = state.view(None)
    mine, theirs = bytes(view[colours[mover]]), bytes(view[colours[1 - mover]])
    expected = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            world = state.clone()
            world.apply(f"roll {d1} {d2}")
            best = max(
                traverse_advisor.worth(*_sides_after(world, action), state.end)
                for action in world.legal_actions()
            )
            expected -= (1 if d1 == d2 else 2) / 36 * best
    assert traverse_advisor.expectation(mine, theirs, state.end, True) == pytest.approx(expected)


def test_traverse_a_play_that_wins_comes_first() -> None:
    """Red 1 enters with 5 and wins; backing red 10 out of its box 2 then 3 hits two white
    pawns one square from home, which the weighing prefers: the game ends first."""
    from advisor import traverse as traverse_advisor
    from engines._traverse_plays import play_out

    state = engines.make_game("traverse", ["A", "B"]).new_state()
    red, white = bytes((6,) + (11,) * 9), bytes((0,) * 5 + (10, 0, 0, 10, 0))
    state.positions, state.current, state.phase, state.dice = [red, white], 0, "play", b"\2\3"
    weighed = {a.notation: traverse_advisor.worth(*play_out(red, white, a.data[0], 11)[:2], 11)
               for a in state.legal_actions()}  # fmt: skip
    assert weighed["10-2 10-3"] > weighed["1+5"]
    assert advisor.advise(state, iterations=100)[0].notation == "1+5"


def test_traverse_own_next_throw_is_the_average_over_the_engines_throws() -> None:
    """With few pawns of its own out the mover's next throw is searched too: for each of the
    opponent's throws its best reply by the weighing, then for each of the mover's throws the
    mover's best play by the weighing, averaged; the same walk through the engine's own rolls
    and legal plays gives the same figure."""
    from advisor import traverse as traverse_advisor

    end = 11
    mine = bytes((end, 3, end, end, 9, end, end, end, end, end))  # red to have moved: 2 out
    theirs = bytes((0, 4, end, 7, 2, end, 10, 0, end, 5))
    state = engines.make_game("traverse", ["A", "B"]).new_state()
    state.positions, state.current, state.phase = [mine, theirs], 1, "roll"
    expected = 0.0
    for d1, d2, chance in traverse_advisor.THROWS:
        world = state.clone()
        world.apply(f"roll {d1} {d2}")
        reply = max(world.legal_actions(),
                    key=lambda a: traverse_advisor.worth(*_sides_after(world, a), end))  # fmt: skip
        world.apply(reply)
        after = world.view(None)
        if after["winner"] is not None:
            expected -= chance * traverse_advisor.worth(*_sides_after_view(after, 1), end)
            continue
        for e1, e2, own_chance in traverse_advisor.THROWS:
            own = world.clone()
            own.apply(f"roll {e1} {e2}")
            best = max(_own_value(own, action, end) for action in own.legal_actions())
            expected += chance * own_chance * best
    figure = traverse_advisor.expectation(mine, theirs, end, True, own_throw=True)
    assert figure == pytest.approx(expected)
    assert figure != pytest.approx(traverse_advisor.expectation(mine, theirs, end, True))


def _own_value(world, action, end: int) -> float:
    from advisor import traverse as traverse_advisor

    return traverse_advisor.worth(*_sides_after(world, action), end)


def _sides_after_view(view, mover: int):
    colours = ("red", "white")
    return bytes(view[colours[mover]]), bytes(view[colours[1 - mover]])


def _sides_after(world, action):
    from engines._traverse_plays import play_out

    play, (mine, theirs), _, _ = action.data
    after_mine, after_theirs, _ = play_out(mine, theirs, play, world.end)
    return after_mine, after_theirs


def test_struggle_hint_chance_is_the_exact_average_over_the_dice() -> None:
    """A re-throw's pawn chance (that it ends in the box the card gives it) is the average over
    all 36 ways two re-thrown dice fall, each hand then played at its best score, replayed here
    through the engine itself; its figure is the expected score it is ranked by."""
    state = position("struggle", 8, moves=0)
    state.throws = 2  # one re-throw left
    objective = struggle_advisor.objective_of(state, state.actor)
    thrown = state.hand[3:]
    notation = "rethrow " + " ".join(thrown)
    choice = next(c for c in advisor.advise(state) if c.notation == notation)
    assert choice.kind == "points" and choice.figure == pytest.approx(
        choice.reason.params["expected"], abs=0.05
    )
    rank = objective.index(choice.reason.params["pawn"])
    assert choice.reason.params["box"] == "ABCDE"[rank]
    total = Fraction(0)
    for faces in product(engines.dice.POKER_FACES, repeat=len(thrown)):
        after = state.clone()
        after.apply(notation)
        after.apply("roll " + " ".join(faces))
        best = max(
            (struggle_chances(after, action, objective) for action in after.legal_actions()),
            key=sum,
        )
        total += Fraction(best[rank]) / 6 ** len(thrown)
    assert choice.reason.params["chance"] == pytest.approx(float(total), abs=1e-4)


def struggle_chances(state, action, objective) -> tuple[float, ...]:
    played = state.clone()
    played.apply(action, validate=False)
    view = played.view(None)
    track = len(view["track"])
    return struggle_advisor.placed_chances(view["squares"], view["boxes"], track, objective)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_traverse_hit_chances_agree_with_the_engines_reach(seed: int) -> None:
    """The advisor's written-out test of who can hit whom is the engine's `reach`."""
    from advisor import traverse as traverse_advisor
    from engines._traverse_plays import reach

    state = position("traverse", seed, moves=40 + 10 * seed)
    view = state.view(None)
    end = state.end
    for mine, theirs in ((view["red"], view["white"]), (view["white"], view["red"])):
        mine, theirs = bytes(mine), bytes(theirs)
        expected = 0.0
        for pawn, at in enumerate(mine):
            if not 0 < at < end:
                continue
            delta = pawn + 1 - theirs[at - 1]
            if delta and abs(delta) <= 12 and reach(theirs, mine, at - 1, delta, end) == pawn:
                expected += traverse_advisor.reach_chance(abs(delta)) * at
        assert traverse_advisor.exposure(mine, theirs, end)[0] == pytest.approx(expected)
