"""Sequence's advisor: every card and square weighed by the lines of five it builds or blocks,
then the best few searched over deals consistent with the view.

The player sees their own hand, the board and the discard pile; the other hands and the stock
are the rest of the double deck, so each imagined world deals those cards anew at random.

With two teams in full mode the search looks two turns ahead: for each of the best plays, in
each imagined hand of the next player, that player's best answer (the sparring `liner`'s
weighing: the line it builds or blocks) and then the advised player's best next play with the
cards left; a play is worth its own weighing, less the answer it allows, plus the next play it
prepares. A play that lets the other team complete its winning sequence is never worth it.
Otherwise (three teams, table mode) it is a flat determinised Monte-Carlo search.
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
from advisor.sparring.sequence import liner_value
from engines._sequence_board import DECK, JACKS, ONE_EYED, SIZE, SQUARES_OF, TWO_EYED
from engines._sequence_lines import placed, removed
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
    if state.full and state.game.teams == 2:
        return reply_advice(state, deadline)
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
    return 1.0 / (1.0 + math.exp(min(700.0, -gain / WORTH_SCALE)))


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


# ----- two teams: the next player's answer and one's own next play ----------------------------

REPLY_CANDIDATES = 6
REPLY_DEALS = 6  # imagined hands of the next player
ANSWER_WEIGHT = 0.8
NEXT_WEIGHT = 0.5
LOST = -1e6

Play = tuple[str, str, int]  # kind, card, square


def _plays(board: str, team: int, hand) -> list[Play]:
    """The places a hand can put a chip (no removals); two-eyed jacks only on a gap of a line
    of four (to make or block five)."""
    found: list[Play] = []
    jack = None
    for card in sorted(set(hand)):  # in a fixed order: ties go the same way in every run
        if card in ONE_EYED:
            continue
        if card in TWO_EYED:
            jack = card
            continue
        found += [("place", card, sq) for sq in SQUARES_OF[card] if board[sq] == EMPTY]
    if jack is not None:
        found += [("place", jack, sq) for sq in gaps_of_fours(board)]
    return found


def gaps_of_fours(board: str) -> set[int]:
    """Free squares that would give either team a line of five."""
    gaps = set()
    for window in WINDOWS:
        free = [sq for sq in window if board[sq] == EMPTY]
        if len(free) == 1:
            marks = {board[sq] for sq in window} - {EMPTY, CORNER_MARK}
            if len(marks) == 1:
                gaps.add(free[0])
    return gaps


def _best(board: str, team: int, hand) -> tuple[float, Play | None]:
    best, chosen = 0.0, None
    for play in _plays(board, team, hand):
        value = liner_value(board, team, 2, *play)
        if chosen is None or value > best:
            best, chosen = value, play
    return best, chosen


def _won(sequences, team: int, target: int) -> bool:
    return sum(1 for t, _ in sequences if t == team) >= target


def reply_value(state: SequenceState, team: int, play: Play, hand: list[str],
                answers: list) -> float:  # fmt: skip
    """What a play is worth looking two turns ahead, over the imagined hands `answers`."""
    kind, card, square = play
    value = liner_value(state.board, team, 2, kind, card, square)
    if kind == "dead":
        return value
    if kind == "place":
        board, sequences = placed(state.board, state.sequences, team, square)
    else:
        board, sequences = removed(state.board, state.sequences, square)
    if _won(sequences, team, state.game.target):
        return math.inf
    rest = list(hand)
    rest.remove(card)
    total = 0.0
    for answer in answers:
        their_value, their_play = _best(board, 1 - team, answer)
        after, after_sequences = board, sequences
        if their_play is not None:
            after, after_sequences = placed(board, sequences, 1 - team, their_play[2])
            if _won(after_sequences, 1 - team, state.game.target):
                total += LOST
                continue
        my_next, _ = _best(after, team, rest)
        total += -ANSWER_WEIGHT * their_value + NEXT_WEIGHT * max(my_next, 0.0)
    return value + total / len(answers)


def reply_advice(state: SequenceState, deadline: Deadline) -> list[Choice]:
    player = state.current
    team = state.game.team_of(player)
    hand = list(state.hands[player])
    legal = state.legal_actions()
    weighed = sorted(((liner_value(state.board, team, 2, *a.data), i, a)
                      for i, a in enumerate(legal)),
                     key=lambda item: (-item[0], item[1]))  # fmt: skip
    rng = view_rng(state, player)
    unseen = sorted((Counter(DECK) - Counter(hand) - Counter(state.discard)).elements())
    size = len(state.hands[(player + 1) % state.player_count])
    answers = [rng.sample(unseen, min(size, len(unseen))) for _ in range(REPLY_DEALS)]
    searched = {}
    for _, _, action in weighed[:REPLY_CANDIDATES]:
        if len(searched) >= 2 and deadline.out_of_time():
            break  # the rest keep their weighing's order, below the searched plays
        searched[action.notation] = reply_value(state, team, action.data, hand, answers)
    choices = []
    for value, _, action in weighed:
        figure = searched.get(action.notation)
        figure = _win_estimate(figure) if figure is not None else _win_estimate(value) - 1.0
        choices.append(Choice(action.notation, figure, "value", _reason(state, action, team)))
    return ranked(choices)
