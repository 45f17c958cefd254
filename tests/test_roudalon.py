"""Le Roudalon rules (RULINGS Le Roudalon R1-R7), each a scripted sequence of actions and rolls."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display.i18n import say
from engines.core import CHANCE, IllegalActionError, NotationError, OptionError
from engines.roudalon import Roudalon, RoudalonState

A, B, C, D = 0, 1, 2, 3
FOUR = ["Ann", "Bob", "Cid", "Dee"]


def game(*lines: str, players: list[str] = FOUR, **options) -> RoudalonState:
    """A game where Ann wins the roll-off (12 against 2s), then `lines` are played."""
    state = Roudalon(players, options).new_state()
    play(state, "roll 6 6", *["roll 1 1"] * (len(players) - 1))
    return play(state, *lines)


def play(state: RoudalonState, *lines: str) -> RoudalonState:
    for line in lines:
        state.apply(line)
        state.check_invariants()
    return state


def legal(state: RoudalonState) -> list[str]:
    return [a.notation for a in state.legal_actions()]


# ----- set-up and roll-off (R1) -----------------------------------------------------------------


def test_four_or_six_players_only() -> None:
    assert Roudalon.player_counts() == (4, 6)
    Roudalon(FOUR)
    Roudalon([*FOUR, "Eve", "Fay"])
    with pytest.raises(OptionError, match="4 or 6 players"):
        Roudalon([*FOUR, "Eve"])
    with pytest.raises(OptionError, match="players"):
        Roudalon(["Ann", "Bob", "Cid"])


def test_each_player_starts_holding_one_die() -> None:
    state = Roudalon(FOUR).new_state()
    assert state.held == [1, 1, 1, 1] and state.pot == 0 and state.actor == CHANCE


def test_rolloff_highest_total_starts() -> None:
    state = play(Roudalon(FOUR).new_state(), "roll 1 2", "roll 4 5", "roll 2 2", "roll 3 5")
    assert state.current == B and state.actor == B and state.phase == "turn"


def test_rolloff_players_tied_on_top_roll_again() -> None:
    state = play(Roudalon(FOUR).new_state(), "roll 3 4", "roll 1 1", "roll 2 5", "roll 1 2")
    assert state.phase == "rolloff" and state.view()["rolloff"] == [[A, None], [C, None]]
    assert "Ann" in state.chance_hint()
    play(state, "roll 1 1", "roll 2 1")
    assert state.current == C


# ----- stakes (R2, R3) --------------------------------------------------------------------------


def test_first_turn_must_be_a_stake() -> None:
    state = game()
    assert legal(state) == [f"stake {k}" for k in range(1, 7)]
    with pytest.raises(IllegalActionError, match="first turn of a game must be a stake"):
        state.apply("throw 1")
    with pytest.raises(IllegalActionError, match="first turn of a game must be a stake"):
        state.apply("offer")
    with pytest.raises(IllegalActionError, match="no dice are awaited: Ann is to act"):
        state.apply("roll 3")


def test_stake_adds_to_the_pot_and_gives_a_die_back() -> None:
    state = game("stake 4")
    assert state.pot == 4 and state.staked == [4, 0, 0, 0] and state.held[A] == 2
    assert state.current == B  # play goes to the left
    play(state, "stake 1", "stake 1", "stake 1", "stake 2")
    assert state.held[A] == 2, "never more than the two dice a player owns"
    assert state.pot == 9 and state.staked == [6, 1, 1, 1]


def test_stake_range_option() -> None:
    state = game(stake_min=2, stake_max=3)
    assert legal(state) == ["stake 2", "stake 3"]
    with pytest.raises(IllegalActionError, match="from 2 to 3"):
        state.apply("stake 4")
    with pytest.raises(OptionError, match="the lowest stake 5 is above the highest 4"):
        Roudalon(FOUR, {"stake_min": 5, "stake_max": 4})
    with pytest.raises(OptionError, match="stake_max"):
        Roudalon(FOUR, {"stake_max": 0})


# ----- throws (R4) ------------------------------------------------------------------------------


def test_throw_hitting_the_pot_takes_it_and_ends_the_game() -> None:
    state = game("stake 3", "stake 2", "throw 1")
    assert state.actor == CHANCE and state.chance_hint().startswith("roll <1 face 1-6>")
    play(state, "roll 5")
    assert state.is_over and state.results == [(-3, -2, 5, 0)]
    assert state.scores() == [-3, -2, 5, 0] and state.winners() == [C]


def test_throw_both_dice_to_hit_the_pot() -> None:
    state = game("stake 6", "stake 3", "stake 2", "stake 1", "throw 2", "roll 6 6")
    assert state.is_over and state.results == [(6, -3, -2, -1)]


def test_a_miss_loses_the_dice_thrown() -> None:
    state = game("stake 3", "stake 2", "throw 1", "roll 4")
    assert state.held[C] == 0 and state.current == D and state.pot == 5
    play(state, "stake 1", "throw 1", "roll 1")  # Ann throws one of her two dice and misses
    assert state.held[A] == 1, "a player who threw one of two keeps the other"
    play(state, "throw 2", "roll 1 2")  # Bob misses with both
    assert state.held[B] == 0


def test_a_player_without_dice_can_only_stake_and_gets_one_back() -> None:
    state = game("stake 3", "stake 2", "throw 1", "roll 4", "stake 1", "stake 1", "stake 1")
    assert state.current == C and state.held[C] == 0
    assert legal(state) == [f"stake {k}" for k in range(1, 7)]
    with pytest.raises(IllegalActionError, match="holds no die"):
        state.apply("throw 1")
    play(state, "stake 2")
    assert state.held[C] == 1


def test_rolls_need_the_right_number_of_dice() -> None:
    state = allied("throw 2")
    with pytest.raises(NotationError, match="Ann threw 2 dice"):
        state.apply("roll 3")
    with pytest.raises(
        IllegalActionError, match=r"waiting for the dice: roll <2 faces 1-6> \(Ann's"
    ):
        state.apply("stake 2")
    assert state.apply("roll 4 1").notation == "roll 1 4"


# ----- alliances (R5) ---------------------------------------------------------------------------


def allied(*lines: str) -> RoudalonState:
    """Pot 10 after a round of stakes (everyone then holds two dice); Ann's turn again."""
    return game("stake 4", "stake 3", "stake 2", "stake 1", *lines)


def test_alliance_offer_goes_to_the_left_neighbour() -> None:
    state = allied("offer")
    assert state.actor == B and legal(state) == ["yes", "no"]
    assert say("en", state.legal_actions()[0]) == "Bob joins the alliance"
    with pytest.raises(IllegalActionError, match="must answer"):
        state.apply("throw 1")


def test_alliance_success_shares_the_pot_by_each_allys_dice() -> None:
    state = allied("offer", "yes", "close")
    assert state.actor == A
    play(state, "throw 2", "roll 3 4")  # running total 7
    assert state.actor == B and state.view()["running_total"] == 7
    play(state, "throw 1", "roll 3")  # 10: exactly the pot
    assert state.is_over
    assert state.results == [(7 - 4, 3 - 3, -2, -1)]


def test_alliance_extends_to_the_next_player_and_throws_go_clockwise() -> None:
    state = allied("offer", "yes", "offer", "yes")
    assert state.alliance == [A, B, C] and state.actor == C
    play(state, "close", "throw 1", "roll 2", "throw 1", "roll 3", "throw 2", "roll 1 4")
    assert state.is_over and state.results == [(2 - 4, 3 - 3, 5 - 2, -1)]


def test_alliance_failure_first_to_overshoot_loses_and_throwing_stops() -> None:
    state = allied("offer", "yes", "offer", "yes", "close", "throw 2", "roll 5 6")
    assert state.held == [0, 2, 2, 2], "Ann overshot 10 with 11: she loses both dice"
    assert state.phase == "turn" and state.current == B, "the turn passes to Ann's left"
    assert state.pot == 10 and not state.throws


def test_alliance_failure_short_of_the_pot_the_last_ally_loses() -> None:
    state = allied("offer", "yes", "close", "throw 1", "roll 2", "throw 2", "roll 1 1")
    assert state.held == [2, 0, 2, 2] and state.current == B


def test_alliance_overshoot_by_the_second_ally_spares_the_others() -> None:
    state = allied("offer", "yes", "offer", "yes", "close", "throw 1", "roll 6", "throw 1")
    play(state, "roll 5")  # 11 > 10: Bob loses his die, Cid does not throw
    assert state.held == [2, 1, 2, 2] and state.current == B


def test_refused_offer_leaves_the_player_throwing_alone() -> None:
    state = allied("offer", "no")
    assert state.actor == A and legal(state) == ["throw 1", "throw 2"]
    play(state, "throw 2", "roll 4 6")
    assert state.is_over and state.results == [(6, -3, -2, -1)]


def test_refusal_further_down_closes_the_alliance() -> None:
    state = allied("offer", "yes", "offer", "no")
    assert state.alliance == [A, B] and state.phase == "throw" and state.actor == A


def test_alliance_needs_dice_each_ally_holds_one() -> None:
    # Bob throws his only die... after losing it he cannot be offered an alliance.
    state = game("stake 3", "throw 1", "roll 1", "stake 2", "stake 1")
    assert state.held[B] == 0 and state.current == A
    assert "offer" not in legal(state)
    with pytest.raises(IllegalActionError, match="Bob, on the left, holds no die"):
        state.apply("offer")


def test_offer_cannot_come_back_round_to_the_first_player() -> None:
    state = allied("offer", "yes", "offer", "yes", "offer", "yes")
    assert state.alliance == [A, B, C, D] and legal(state) == ["close"]


# ----- void game (R7), results and totals (R6) --------------------------------------------------


def test_pot_beyond_every_players_two_dice_is_a_void_game() -> None:
    state = game("stake 49", stake_max=60)  # four players' two dice: 48 at most (clarified R7)
    assert state.is_over and state.voids == [True] and state.results == [(0, 0, 0, 0)]
    assert state.scores() == [0, 0, 0, 0]
    six = game("stake 72", players=[*FOUR, "Eve", "Fay"], stake_max=80)
    assert not six.is_over
    six = game("stake 73", players=[*FOUR, "Eve", "Fay"], stake_max=80)
    assert six.is_over and six.voids == [True]


def test_pot_up_to_every_players_two_dice_is_not_void() -> None:
    state = game("stake 48", stake_max=60)
    assert not state.is_over and state.pot == 48


def test_pot_beyond_the_dice_held_now_goes_on() -> None:
    # Clarified R7: pot 31 with five dice held (30 at most now) is not void, staking brings dice
    # back; nor after Bob loses his only die (four dice held, 24 at most).
    state = game("stake 31", stake_max=40)
    assert not state.is_over and sum(state.held) == 5
    state = game("stake 25", "throw 1", "roll 1", stake_max=30)
    assert state.held[B] == 0 and not state.is_over and state.pot == 25
    play(state, "stake 1")
    assert state.held[C] == 2 and not state.is_over


def test_results_add_up_over_several_games() -> None:
    state = game("stake 3", "stake 2", "throw 1", "roll 5", games=2)
    assert not state.is_over and state.phase == "rolloff" and state.pot == 0
    assert state.held == [1, 1, 1, 1] and state.totals == [-3, -2, 5, 0]
    assert state.view()["game_number"] == 2
    play(state, "roll 1 1", "roll 1 1", "roll 1 1", "roll 6 5")  # Dee starts game 2
    assert state.current == D and legal(state)[0] == "stake 1"
    play(state, "stake 4", "throw 1", "roll 4")  # Ann takes 4
    assert state.is_over and state.results[1] == (4, 0, 0, -4)
    assert state.totals == [1, -2, 5, -4] and state.winners() == [C]


def test_six_players_play_round_the_table() -> None:
    six = [*FOUR, "Eve", "Fay"]
    state = game("stake 1", "stake 1", "stake 1", "stake 1", "stake 1", players=six)
    assert state.current == 5
    play(state, "stake 1")
    assert state.current == A and state.held == [2] * 6


def test_view_shows_the_throwing_side() -> None:
    state = allied("offer", "yes", "close", "throw 1", "roll 3")
    view = state.view(None)
    assert view["alliance"] == [A, B] and view["next_thrower"] == B and view["throws"] == [[A, [3]]]
    assert view["pot"] == 10 and view["phase"] == "throw" and view == state.view(2)


# ----- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("auto_chance", [True, False])
def test_full_games_through_the_referee(auto_chance: bool) -> None:
    from companion.referee import Referee

    rng = random.Random(3)
    for seed in range(20):
        state = Roudalon(
            [*FOUR, "Eve", "Fay"][: rng.choice((4, 6))], {"games": 3}, seed
        ).new_state()
        referee = Referee(state, auto_chance=auto_chance)
        while not state.is_over:
            legal_now = referee.reply()["legal"]
            line = state.sample_chance().notation if state.is_chance else rng.choice(legal_now)
            assert referee.handle(line)["ok"]
            state.check_invariants()
        assert len(state.results) == 3 and sum(state.totals) == 0


def test_exact_total_before_the_last_ally_does_not_stop_the_throws() -> None:
    state = allied("offer", "yes", "close", "throw 2", "roll 4 6")
    assert not state.is_over and state.actor == B and state.view()["running_total"] == 10
    play(state, "throw 1", "roll 1")  # 11: Bob is the first past the pot
    assert state.held == [2, 1, 2, 2] and state.current == B and not state.is_over


@settings(max_examples=25, deadline=None)
@given(
    players=st.sampled_from([4, 6]),
    stake_range=st.tuples(st.integers(1, 8), st.integers(0, 8)),
    games=st.integers(1, 3),
    seed=st.integers(0, 10_000),
)
def test_random_matches_keep_the_books_balanced(players, stake_range, games, seed) -> None:
    low, extra = stake_range
    options = {"stake_min": low, "stake_max": low + extra, "games": games}
    state = Roudalon([*FOUR, "Eve", "Fay"][:players], options, seed).new_state()
    rng = random.Random(seed)
    while not state.is_over:
        pot_before = state.pot
        action = state.sample_chance() if state.is_chance else rng.choice(state.legal_actions())
        state.apply(action)
        state.check_invariants()
        if action.notation.startswith("stake") and state.pot:
            assert low <= state.pot - pot_before <= low + extra
    assert len(state.results) == games and sum(state.totals) == 0
    assert state.scores() == state.totals  # the last game's stakes, kept to be seen, count once
    assert state.view(None)["pot"] == sum(state.view(None)["staked"])
    for results, void in zip(state.results, state.voids, strict=True):
        assert not (void and any(results)), "a void game returns every stake"


# ----- audit: fair dice in full mode, words a player understands --------------------------------


def test_full_mode_throws_fair_independent_dice() -> None:
    state = allied("throw 2")
    doubles = 0
    for seed in range(3600):
        roll = Roudalon(FOUR, seed=seed).new_state().sample_chance()
        doubles += roll.data[0] == roll.data[1]
    assert 450 <= doubles <= 750, f"{doubles} doubles in 3600 roll-off rolls, expected about 600"
    assert len(state.sample_chance().data) == 2


def test_a_roll_with_the_wrong_number_of_dice_says_how_many_in_words() -> None:
    state = game("stake 3", "throw 1")
    assert state.chance_hint() == "roll <1 face 1-6> (Bob's throw)"
    with pytest.raises(NotationError, match="Bob threw 1 die: roll and its face, e.g. roll 4"):
        state.apply("roll 3 4")
    state = allied("throw 2")
    with pytest.raises(
        NotationError, match="Ann threw 2 dice: roll and their faces, e.g. roll 4 2"
    ):
        state.apply("roll 3")


def test_throw_descriptions_say_one_of_two_dice_or_the_only_die() -> None:
    state = allied()
    described = {a.notation: (say("fr", a), say("en", a)) for a in state.legal_actions()}
    assert described["throw 1"] == (
        "Ann lance un de ses deux dés (pot\u00a0: 10 UM)",
        "Ann throws one of their two dice (pot: 10 UM)",
    )
    assert described["throw 2"] == (
        "Ann lance ses deux dés (pot\u00a0: 10 UM)",
        "Ann throws both dice (pot: 10 UM)",
    )
    state = game("stake 3")
    described = {a.notation: (say("fr", a), say("en", a)) for a in state.legal_actions()}
    assert described["throw 1"] == (
        "Bob lance son dé (pot\u00a0: 3 UM)",
        "Bob throws their die (pot: 3 UM)",
    )


def test_closing_an_alliance_reads_naturally() -> None:
    state = allied("offer", "yes")
    close = state.legal_actions()[-1]
    assert say("fr", close) == "Alliance conclue (Ann, Bob)\u00a0: les lancers commencent"
    assert say("en", close) == "Alliance closed (Ann, Bob): the throws begin"


def test_refusals_speak_of_the_rules_not_of_ruling_numbers() -> None:
    state = game()
    for line in ("throw 1", "offer"):
        with pytest.raises(IllegalActionError) as error:
            state.apply(line)
        assert "(R" not in str(error.value)


def test_an_alliance_of_two_single_die_players_throws_two_dice() -> None:
    # Ann lost one of her two dice, Bob staked his lost die back: one die each, two in all.
    state = game("stake 3", "throw 1", "roll 1", "stake 1", "stake 1", "throw 1", "roll 1")
    play(state, "stake 1", "stake 1", "stake 1")
    assert state.current == A and state.held[:2] == [1, 1] and state.pot == 8
    play(state, "offer", "yes", "close")
    assert legal(state) == ["throw 1"]
    play(state, "throw 1", "roll 3", "throw 1", "roll 5")
    assert state.is_over and state.results == [(3 - 3, 5 - 1, -2, -2)]
