"""Stratégix's advisor: each step of a formula weighed by the cards it sheds and the stars it
spends, then the best few searched by determinised Monte-Carlo over deals consistent with the
view (the other hands, and the cards out of a two-player deal, dealt anew each time).

With two players every step is searched in a fast model of the round (advisor._strategix_duel):
the other hand is dealt anew from what the player cannot see (its stars, pétards and Zs are
known: all of them are dealt), each step is played out as the whole formula it leads to, and
the same imagined deals are played out for every step, so steps are compared on equal luck.
The figure is the chance of winning the game, ties counted as half a win.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from advisor import _strategix_duel as duel
from advisor.core import (
    Choice,
    Deadline,
    Reason,
    deal_unseen,
    determinised_search,
    ranked,
    view_rng,
)
from engines._strategix_deck import hand_counts, sorted_cards
from engines._strategix_formulas import Group, canonical, play_text, shape_of
from engines.core import Action
from engines.strategix import StrategixState

CANDIDATES = 5
STAR_COST = 1.2
PASS_VALUE = -0.3
PETARD_VALUE = 0.5
MORE_TO_COME = 1.0
SEARCH_SHARE = 0.7  # of the budget: on a busy machine the wall time runs on past the search


def step_value(action: Action) -> float:
    """What one step is worth at a glance: cards shed, less the stars spent, low letters first."""
    word = action.notation.split()[0]
    if word == "pass":
        return PASS_VALUE
    if word == "petard":
        return PETARD_VALUE
    if word == "star":
        return -0.5
    if word == "done":
        return 0.0
    groups = action.data if isinstance(action.data, tuple) and action.data and isinstance(
        action.data[0], tuple) else (action.data,)  # fmt: skip
    cards = sum(group.size for group in groups)
    stars = sum(group.nstars for group in groups)
    value = cards - STAR_COST * stars - 0.02 * groups[0].start
    if action.notation.endswith(" +"):
        value += MORE_TO_COME
    return value


def determinise(state: StrategixState, player: int, rng: random.Random) -> StrategixState:
    """A world the player cannot tell from this one: the unseen cards dealt again at random."""
    world = state.clone()
    if state.hands is None:
        return world
    unseen = sorted(
        "".join(hand for seat, hand in enumerate(state.hands) if seat != player) + state.removed
    )
    rng.shuffle(unseen)
    hands, rest = deal_unseen(state.hands, player, unseen)
    world.hands = [sorted_cards("".join(hand)) for hand in hands]
    world.removed = "".join(sorted(rest))
    return world


def policy(state: StrategixState, rng: random.Random) -> Action:
    legal = state.legal_actions()
    if rng.random() < 0.1:
        return rng.choice(legal)
    return max(legal, key=lambda action: step_value(action) + 0.01 * rng.random())


def evaluate(world: StrategixState, player: int) -> float:
    """Points ahead of the best other seat, and cards fewer to shed than the best other seat."""
    scores = world.scores()
    others = [p for p in range(len(scores)) if p != player]
    lead = scores[player] - max(scores[p] for p in others)
    counts = world.counts
    cards = min(counts[p] for p in others) - counts[player] if world.phase == "play" else 0
    return 1.0 / (1.0 + math.exp(-(0.6 * lead + 0.25 * cards)))


def advise(state: StrategixState, deadline: Deadline) -> list[Choice]:
    if state.is_two_player_game and state.hands is not None:
        return duel_advice(state, deadline)
    player = state.actor
    assert isinstance(player, int)
    rng = view_rng(state, player)
    legal = state.legal_actions()
    scored = sorted(((step_value(a), i, a) for i, a in enumerate(legal)),
                    key=lambda item: (-item[0], item[1]))  # fmt: skip
    prior_base = evaluate(state, player)
    priors = [(action, _squash(value, prior_base)) for value, _, action in scored[:CANDIDATES]]
    results = determinised_search(state, player, priors, determinise, policy, evaluate,
                                  deadline, rng, depth=4 * len(state.players))  # fmt: skip
    searched = {r.action.notation: r.mean for r in results}
    choices = []
    for value, _, action in scored:
        figure = searched.get(action.notation, _squash(value, prior_base) - 1.0)
        choices.append(Choice(action.notation, figure, "value", _reason(state, action)))
    return ranked(choices)


def _squash(value: float, base: float) -> float:
    return min(1.0, max(0.0, base + 0.02 * value))


def _reason(state: StrategixState, action: Action) -> Reason:
    """The cards the choice lays (ending a formula: the whole formula) and the stars left in
    the hand after it, the formula under way's stars and those kept for a letter counted spent."""
    word = action.notation.split()[0]
    if word == "pass":
        return Reason("strategix.pass")
    hand = state.hands[state.current] if state.hands else ""
    building = play_text(canonical(state.building)) if state.building else ""
    cards = len(action.notation.replace("play", "").replace("+", "").split())
    if word in ("star", "petard"):
        cards = 1 if word == "petard" else 0
    elif word == "done":
        cards = len(building.replace("+", " ").split())
    spent = len(state.locks) + 1 if word == "star" else action.notation.count("*")
    stars_left = Counter(hand)["*"] - building.count("*") - spent
    return Reason("strategix.shed", {"cards": cards, "stars": max(0, stars_left)})


# ----- two players: every step searched in the round's fast model ------------------------------

DUEL_CANDIDATES = 8


def model_hand(hand: str) -> list[int]:
    counts, stars, petards = hand_counts(hand)
    return counts + [stars, petards]


def model_formula(groups: tuple[Group, ...]) -> duel.Formula:
    parts = []
    for group in groups:
        need: dict[int, int] = {}
        for letter in group.uses:
            need[letter] = need.get(letter, 0) + 1
        if group.nstars:
            need[duel.STAR] = group.nstars
        parts.append((group.start, need))
    return duel._formula(groups[0].kind, groups[0].size, parts)


def model_move(state: StrategixState, action: Action, hand: list[int]) -> duel.Move | None:
    """The move a step leads to in the model: None for a `star X` step (not modelled)."""
    word = action.notation.split()[0]
    if word in ("pass", "petard"):
        return duel.PASS if word == "pass" else duel.PETARD_PLAY
    if word == "star":
        return None
    groups: tuple[Group, ...] = tuple(state.building)
    if word != "done":
        groups += (action.data,) if isinstance(action.data, Group) else tuple(action.data)
    formula = model_formula(groups)
    top = state.top_play()
    if top is not None and len(groups) < shape_of(top).groups:
        rest = list(hand)
        duel._take(rest, formula)
        more = duel.follow_from(rest, model_formula(top[len(groups) :]), groups[-1].start, 0)
        if more is not None:  # the follow's other groups laid from real cards
            formula = duel.joined(formula, more)
    elif top is None and action.notation.endswith(" +"):
        formula = duel.extended(hand, formula) or formula
    return formula


def unseen_letters(state: StrategixState, hand: list[int]) -> list[int]:
    """Letters B..Y (one entry a copy) neither in the hand nor laid this round."""
    laid = model_hand(state.played)
    return [letter for letter in range(duel.Z)
            for _ in range(2 - hand[letter] - laid[letter])]  # fmt: skip


def other_specials(state: StrategixState, hand: list[int]) -> dict[int, int]:
    """With two players every star, pétard and Z is dealt: what the player does not hold and
    was not laid, the other holds."""
    laid = model_hand(state.played)
    return {duel.STAR: 7 - hand[duel.STAR] - laid[duel.STAR],
            duel.PETARD: 3 - hand[duel.PETARD] - laid[duel.PETARD],
            duel.Z: 2 - hand[duel.Z] - laid[duel.Z]}  # fmt: skip


def imagined_other(pool: list[int], specials: dict[int, int], count: int,
                   rng: random.Random) -> list[int]:  # fmt: skip
    hand = [0] * duel.SLOTS
    for slot, n in specials.items():
        hand[slot] = max(0, n)
    letters = max(0, count - sum(hand))
    for letter in rng.sample(pool, min(letters, len(pool))):
        hand[letter] += 1
    return hand


def game_chance(state: StrategixState, player: int, round_chance: float) -> float:
    """The chance of winning the game (a tie half) from the chance of winning this round,
    the rounds still to come taken as even."""
    lead = state.totals[player] - state.totals[1 - player]
    later = len(state.players) - state.round  # rounds after this one
    chance = 0.0
    for won, p in ((1, round_chance), (0, 1 - round_chance)):
        chance += p * _rounds_chance(lead + (4 if won else -4), later)
    return chance


def _rounds_chance(lead: int, rounds: int) -> float:
    if rounds == 0:
        return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return 0.5 * _rounds_chance(lead + 4, rounds - 1) + 0.5 * _rounds_chance(lead - 4, rounds - 1)


def duel_advice(state: StrategixState, deadline: Deadline) -> list[Choice]:
    player = state.actor
    assert isinstance(player, int)
    legal = state.legal_actions()
    hand = model_hand(state.hands[player])
    other = 1 - player
    rng = view_rng(state, player)
    top = state.top_play()
    top_model = model_formula(top) if top is not None else None
    urgent = state.counts[other] <= duel.NEAR_OUT
    moves = [(action, model_move(state, action, hand)) for action in legal]
    modelled = [(a, m) for a, m in moves if m is not None]
    ordered = sorted(modelled, key=lambda item: -_prior(hand, item[1], top_model, urgent))
    searched = ordered[:DUEL_CANDIDATES]
    wins = [0] * len(searched)
    playouts = 0
    pool = unseen_letters(state, hand)
    specials = other_specials(state, hand)
    top_player = state.top[0] if state.top else player
    while len(searched) > 1 and not deadline.expired() and not deadline.out_of_time(SEARCH_SHARE):
        imagined = imagined_other(pool, specials, state.counts[other], rng)
        won = []
        for _, move in searched:
            if deadline.out_of_time(SEARCH_SHARE):
                break  # a deal every step has not played out yet is left out
            hands = [[], []]
            hands[player], hands[other] = list(hand), list(imagined)
            winner = duel.playout(hands, player, top_model, top_player, state.after_petard,
                                  rng, first=move)  # fmt: skip
            won.append(winner == player)
        if len(won) < len(searched):
            break
        wins = [total + w for total, w in zip(wins, won, strict=True)]
        playouts += 1
    chances = {}
    if playouts:  # else (no time for one deal) the steps keep the order of their weighing
        chances = {
            a.notation: (wins[i] + 0.5) / (playouts + 1) for i, (a, _) in enumerate(searched)
        }
    choices = []
    for rank, action in enumerate(a for a, _ in ordered + [(a, m) for a, m in moves if m is None]):
        chance = chances.get(action.notation)
        figure = game_chance(state, player, chance) if chance is not None else -1.0 - rank * 1e-3
        choices.append(Choice(action.notation, figure, "win", _reason(state, action)))
    if len(searched) == 1:
        choices[0] = Choice(choices[0].notation, 1.0, "value", choices[0].reason)
    return ranked(choices)


def _prior(hand: list[int], move: duel.Move, top: duel.Formula | None, urgent: bool) -> float:
    if move == duel.PASS:
        return 0.0
    if move == duel.PETARD_PLAY:
        return 0.5
    return duel._value(hand, move, top is None, urgent)
