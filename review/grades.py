"""Grades: each decision of a finished game compared with the advisor's best at that moment, and
every seat's win chance at every position (review.chances).

A decision is graded by the chance it gave away: the chance after the advisor's best choice less
the chance after the choice made, both as the acting player saw them. Where the advisor computes
a chance to win itself (`ADVISOR_CHANCES`: Stratégix's playouts, Le Roudalon's exact table) its
figures are used, from one search at a fixed number of iterations seeded by that player's view;
elsewhere (and for a choice the advisor ranked below its search, with no figure of its own) the
chance of a choice is the calibrated chance (review.chances) of the position it leaves, from
the player's view: played in the advisor's determinisation of the position (what the player
cannot see dealt anew, seeded by their view), so a card the action draws is one they could
have drawn, never the one the game held.

In Traverse, Struggle and Sequence, and in Stratégix with three players or more until a hand is
down to SEARCH_FROM_CARDS cards, the judge is that chance alone: the best choice is the legal
action leaving the highest chance. Their advisors (exact expectations over the dice, or a search
with a reply) take up to a second a decision on this machine, a review minutes. A decision with
one legal action is forced and not graded; nor is one where every action leaves the same chance
(the chances cannot tell the choices apart).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import advisor
import engines
from advisor.core import view_rng
from review.chances import win_chance, win_chances

# The largest chance given away for each grade, best first: the quartile, median and 90th
# percentile of what careful players give away when not best (median over the five games of
# `tabletop bench review --given-away --games 30 --seed 5`, rounded; docs/review.md).
GRADES: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 0.01),
    ("inaccuracy", 0.04),
    ("mistake", 0.09),
    ("blunder", 1.0),
)
# Games whose advisor judges within the review's time: the others' (exact expectations over the
# dice, up to a second a decision on this machine) would make a review take minutes. Stratégix's
# playouts judge once a hand is down to SEARCH_FROM_CARDS: there a single card can lose the round
# at once, which a static chance cannot see, and the playouts are short.
SEARCHED = ("strategix", "roudalon")
SEARCH_FROM_CARDS = 6
WEIGHED_AT_TURN_END = ("struggle",)
ADVISOR_CHANCES = {"strategix": "win", "roudalon": "win"}  # the advisor's figure kind that is one
REVIEW_ITERATIONS = 6
# Games whose advisor's figures are shares of won playouts, one deal an iteration: two choices one
# deal apart are within the search's luck (the hint, searching longer, may rank them the other
# way), and are graded as equal.
PLAYED_OUT = ("strategix",)
# An accuracy is said from this many graded decisions up. Below it one decision moves the figure
# by more than 20 points (one graded move reads 0 % or 100 %): the figure says more about which
# decisions could be graded than about the play. At five one decision is 20 points; more would
# leave short games (Le Roudalon: a handful of decisions a seat) without any figure.
MIN_GRADED = 5
# Games whose hands the table never enters (table mode: physical cards). A better move must be
# one the player could have made from what the table knows: in Sequence, the card they played
# on another square; in Stratégix every choice depends on the hand, so nothing is graded.
SAME_CARD_AT_TABLE = {"sequence"}
# Phases where a player says what they hold (Struggle's objective card, entered at the end in
# table mode): the card was dealt, not chosen, so there is no better move to name.
STATED_NOT_CHOSEN = {"reveal"}
UNGRADED_AT_TABLE = {"strategix"}
CARD_PLAYED = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")


@dataclass(frozen=True)
class Decision:
    """One action of the log by a player: what was played, the advisor's best, the grade."""

    index: int  # position in the action log
    player: int
    played: str
    best: str
    chance_best: float | None
    chance_played: float | None
    grade: str | None  # None: forced, or choices the chances cannot tell apart

    @property
    def given_away(self) -> float | None:
        if self.chance_best is None or self.chance_played is None:
            return None
        return max(0.0, self.chance_best - self.chance_played)


@dataclass
class GameReview:
    game: str
    players: tuple[str, ...]
    decisions: list[Decision] = field(default_factory=list)
    # (index in the action log, every seat's chance to win there, each from its own view)
    chances: list[tuple[int, tuple[float, ...]]] = field(default_factory=list)

    def graded(self, player: int) -> list[Decision]:
        return [d for d in self.decisions if d.player == player and d.grade is not None]

    def accuracy(self, player: int) -> float | None:
        """The share of a player's graded decisions that were best or good, 0..1; None from fewer
        than MIN_GRADED graded decisions (too few to say)."""
        graded = self.graded(player)
        if len(graded) < MIN_GRADED:
            return None
        return sum(d.grade in ("best", "good") for d in graded) / len(graded)

    def counts(self, player: int) -> dict[str, int]:
        found = {name: 0 for name, _ in GRADES}
        for decision in self.graded(player):
            found[decision.grade] += 1
        return found


def grade_of(given_away: float, was_best: bool) -> str:
    if was_best:
        return "best"
    for name, most in GRADES[1:]:
        if given_away <= most:
            return name
    return GRADES[-1][0]


def review_game(name: str, players: Sequence[str], notations: Sequence[str],
                options: dict[str, Any] | None = None, seed: int | None = None,
                mode: str = "full", iterations: int = REVIEW_ITERATIONS) -> GameReview:  # fmt: skip
    """Replay `notations` through the engine: every seat's chance at the first position, wherever
    a player acts, and at the end (the result), and every decision a player made graded."""
    state = engines.make_game(name, list(players), options or {}, seed, mode).new_state()
    review = GameReview(name, tuple(players))
    for index, notation in enumerate(notations):
        actor = state.actor
        acts = isinstance(actor, int) and not state.is_over
        if acts or index == 0:
            review.chances.append((index, win_chances(state)))
        if acts:
            review.decisions.append(_decision(state, index, actor, notation, iterations))
        state.apply(notation)
    review.chances.append((len(notations), win_chances(state)))
    return review


def _decision(state: engines.State, index: int, actor: int, notation: str,
              iterations: int) -> Decision:  # fmt: skip
    played = state.parse(notation).notation
    table_blind = state.game.mode == "table" and state.game.name in UNGRADED_AT_TABLE
    stated = getattr(state, "phase", None) in STATED_NOT_CHOSEN  # a card said, not a choice
    if len(state.legal_actions()) == 1 or table_blind or stated:  # forced, or nothing to judge
        return Decision(index, actor, played, played, None, None, None)
    if not _searched(state):
        return _judged_by_chances(state, index, actor, played)
    choices = advisor.advise(state, iterations=iterations)
    best = choices[0]
    chosen = next((choice for choice in choices if choice.notation == played), None)
    kind = ADVISOR_CHANCES.get(state.game.name)
    if kind and chosen and chosen.figure >= 0 and best.kind == kind == chosen.kind:
        best_chance, played_chance = _clamped(best.figure), _clamped(chosen.figure)
        if state.game.name in PLAYED_OUT and best_chance - played_chance <= 1 / (iterations + 1):
            played_chance = best_chance  # one imagined deal apart: the search cannot part them
    else:
        best_chance = _chance_after(state, best.notation, actor)
        played_chance = _chance_after(state, played, actor)
    return _graded(index, actor, played, best.notation, best_chance, played_chance)


def _searched(state: engines.State) -> bool:
    if state.game.name == "strategix":
        two_players = len(state.players) == 2  # the hint's own search, at any hand size
        return two_players or min(state.view(None)["hand_counts"]) <= SEARCH_FROM_CARDS
    return state.game.name in SEARCHED


def _judged_by_chances(state: engines.State, index: int, actor: int, played: str) -> Decision:
    """The best is the legal action that leaves the highest chance (the one played on a tie).
    Not graded when every action leaves the same chance: the chances cannot tell them apart;
    in Struggle, only the plays that end the turn are weighed (a rethrow's worth is in the
    throws to come, which a position's chance does not see)."""
    world = _world_of(state, actor)
    chances: dict[str, float] = {}
    for action in state.legal_actions():
        if not _could_have_played(state, played, action.notation):
            continue
        after = world.clone()
        after.apply(action.notation)
        if state.game.name not in WEIGHED_AT_TURN_END or _turn_ended(after, actor):
            chances[action.notation] = win_chance(after, actor)
    if played not in chances or len(set(chances.values())) < 2:
        return Decision(index, actor, played, played, None, None, None)
    top = max(chances.values())
    best = played if chances[played] == top else max(chances, key=lambda n: chances[n])
    return _graded(index, actor, played, best, top, chances[played])


def _turn_ended(after: engines.State, actor: int) -> bool:
    return after.is_over or after.view(None).get("current") != actor


def _world_of(state: engines.State, player: int) -> engines.State:
    """The position with what the player cannot see dealt anew by a generator seeded by their
    view (the advisor's determinisation), so that a card an action draws is one they could
    have drawn, not the one the game held."""
    module = importlib.import_module(f"advisor.{state.game.name}")
    determinise = getattr(module, "determinise", None)
    if determinise is None:
        return state.clone()
    return determinise(state, player, view_rng(state, player, "review"))


def _graded(index: int, actor: int, played: str, best: str, best_chance: float,
            played_chance: float) -> Decision:  # fmt: skip
    as_good = played == best or played_chance >= best_chance
    grade = grade_of(max(0.0, best_chance - played_chance), as_good)
    return Decision(index, actor, played, best, best_chance, played_chance, grade)


def _chance_after(state: engines.State, notation: str, player: int) -> float:
    """The player's chance once `notation` is played, from their view (nothing drawn yet)."""
    after = _world_of(state, player)
    after.apply(notation)
    return win_chance(after, player)


def _could_have_played(state: engines.State, played: str, notation: str) -> bool:
    """Whether the table knows the player could have made this choice: at a table with physical
    cards (Sequence) only a choice playing the card they played (its other square, or anywhere
    for a jack); with dealt cards, any legal choice."""
    if state.game.mode != "table" or state.game.name not in SAME_CARD_AT_TABLE:
        return True
    card = card_played(played)
    return bool(card) and card_played(notation) == card


def card_played(notation: str) -> str:
    found = CARD_PLAYED.search(notation)
    return found.group(0) if found else ""


def _clamped(figure: float) -> float:
    return min(1.0, max(0.0, figure))
