"""Stratégix's advisor: each step of a formula weighed by the cards it sheds and the stars it
spends, then the best few searched by determinised Monte-Carlo over deals consistent with the
view (the other hands, and the cards out of a two-player deal, dealt anew each time).
"""

from __future__ import annotations

import math
import random
from collections import Counter

from advisor.core import (
    Choice,
    Deadline,
    Reason,
    deal_unseen,
    determinised_search,
    ranked,
    view_rng,
)
from engines._strategix_deck import sorted_cards
from engines.core import Action
from engines.strategix import StrategixState

CANDIDATES = 5
STAR_COST = 1.2
PASS_VALUE = -0.3
PETARD_VALUE = 0.5
MORE_TO_COME = 1.0


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
    word = action.notation.split()[0]
    if word == "pass":
        return Reason("strategix.pass")
    hand = state.hands[state.current] if state.hands else ""
    cards = len(action.notation.replace("play", "").replace("+", "").split())
    if word in ("done", "star", "petard"):
        cards = 1 if word == "petard" else 0
    stars_left = Counter(hand)["*"] - action.notation.count("*")
    return Reason("strategix.shed", {"cards": cards, "stars": max(0, stars_left)})
