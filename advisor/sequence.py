"""Sequence's advisor: every card and square weighed by the lines of five it builds or blocks,
then the best few searched by determinised Monte-Carlo over deals consistent with the view.

The player sees their own hand, the board and the discard pile; the other hands and the stock
are the rest of the double deck, so each imagined world deals those cards anew at random.
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
from engines._sequence_board import DECK, JACKS, SIZE
from engines.core import Action
from engines.sequence import CORNER_MARK, EMPTY, TEAM_MARKS, Frozen, SequenceState

LENGTH = 5
LINE_WEIGHTS = (0.0, 1.0, 4.0, 16.0, 80.0, 400.0)
JACK_COST = 6.0  # a jack saved is worth a few chips in a line
CANDIDATES = 5
WORTH_SCALE = 60.0  # evaluation difference that makes a position about 73 % won


def _windows() -> tuple[tuple[int, ...], ...]:
    found = []
    for row in range(SIZE):
        for col in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + dr * (LENGTH - 1), col + dc * (LENGTH - 1)
                if 0 <= end_row < SIZE and 0 <= end_col < SIZE:
                    found.append(tuple((row + dr * i) * SIZE + col + dc * i for i in range(LENGTH)))
    return tuple(found)


WINDOWS = _windows()


def line_worth(board: str, team: int) -> float:
    """The team's lines of five still open, weighed by how many chips they hold."""
    mine = TEAM_MARKS[team]
    total = 0.0
    for window in WINDOWS:
        count = 0
        for square in window:
            mark = board[square]
            if mark == mine or mark == CORNER_MARK:
                count += 1
            elif mark != EMPTY:
                break
        else:
            total += LINE_WEIGHTS[count]
    return total


def worth(state: SequenceState, team: int) -> float:
    """The team's lines against the strongest other team's, sequences counting most."""
    board = state.board
    teams = state.game.teams
    own = line_worth(board, team)
    others = max(line_worth(board, other) for other in range(teams) if other != team)
    made = Counter(t for t, _ in state.sequences)
    own += 2000 * made[team]
    others += 2000 * max((made[t] for t in range(teams) if t != team), default=0)
    if state.winner_team is not None:
        return math.inf if state.winner_team == team else -math.inf
    return own - 1.3 * others


def _heuristic(state: SequenceState, action: Action, team: int) -> float:
    after = state.clone()
    after.apply(action, validate=False)
    value = worth(after, team)
    card = action.data[1]
    if card in JACKS:
        value -= JACK_COST
    return value


def determinise(state: SequenceState, player: int, rng: random.Random) -> SequenceState:
    """A world the player cannot tell from this one: the unseen cards dealt again at random."""
    world = state.clone()
    if not state.full or state.phase != "play":
        return world
    unseen = Counter(DECK) - Counter(state.hands[player]) - Counter(state.discard)
    cards = sorted(unseen.elements())
    rng.shuffle(cards)
    hands, stock = deal_unseen(state.hands, player, cards)
    world.hands = Frozen(Frozen(hand) for hand in hands)
    world.stock = Frozen(stock)
    return world


def policy(state: SequenceState, rng: random.Random) -> Action:
    """A playout's move: the best by the line count among a few legal ones drawn at random."""
    legal = state.legal_actions()
    sample = legal if len(legal) <= 4 else rng.sample(legal, 4)
    team = state.game.team_of(state.current)
    return max(sample, key=lambda action: _heuristic(state, action, team))


def advise(state: SequenceState, deadline: Deadline) -> list[Choice]:
    player = state.actor
    assert isinstance(player, int)
    team = state.game.team_of(player)
    rng = view_rng(state, player)
    legal = state.legal_actions()
    scored = sorted(((_heuristic(state, a, team), i, a) for i, a in enumerate(legal)),
                    key=lambda item: (-item[0], item[1]))  # fmt: skip
    base = worth(state, team)
    best = scored[:CANDIDATES]
    priors = [(action, _win_estimate(value - base)) for value, _, action in best]
    evaluate = _evaluator(base)
    results = determinised_search(state, player, priors, determinise, policy, evaluate,
                                  deadline, rng, depth=2 * state.player_count)  # fmt: skip
    searched = {r.action.notation: r.mean for r in results}
    choices = []
    for value, _, action in scored:
        figure = searched.get(action.notation, _win_estimate(value - base) - 1.0)
        choices.append(Choice(action.notation, figure, "value", _reason(state, action, team)))
    return ranked(choices)


def _evaluator(base: float):
    def evaluate(world: SequenceState, player: int) -> float:
        return _win_estimate(worth(world, world.game.team_of(player)) - base)

    return evaluate


def _win_estimate(gain: float) -> float:
    if math.isinf(gain):
        return 1.0 if gain > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-gain / WORTH_SCALE))


def _reason(state: SequenceState, action: Action, team: int) -> Reason:
    kind, _, square = action.data
    if kind == "dead":
        return Reason("sequence.dead")
    mine = TEAM_MARKS[team]
    longest_own = longest_other = 0
    for window in WINDOWS:
        if square not in window:
            continue
        marks = [state.board[sq] for sq in window if sq != square]
        others = {m for m in marks if m not in (EMPTY, CORNER_MARK, mine)}
        own = sum(1 for m in marks if m in (mine, CORNER_MARK))
        if not others:
            longest_own = max(longest_own, own + 1)
        elif len(others) == 1 and mine not in marks:
            longest_other = max(longest_other, sum(1 for m in marks if m in others | {"*"}))
    if kind == "place" and longest_own >= LENGTH:
        return Reason("sequence.sequence")
    if kind == "remove" or longest_other > longest_own:
        return Reason("sequence.block", {"chips": longest_other})
    return Reason("sequence.line", {"chips": longest_own})
