"""Sequence's advisor: every card and square weighed by the lines of five it builds or blocks,
then the best few searched over deals consistent with the view.

The player sees their own hand, the board and the discard pile; the other hands and the stock
are the rest of the double deck, so each imagined world deals those cards anew at random.

With two teams in full mode every play is first weighed by the position it leaves as the
player holds it (`held_worth`: open lines of five, more when the hand can fill a gap, the other
team's lines less when a gap's cards are both gone). The best few are then looked at one turn
further: in each imagined hand of the next player, that player's best answer by the sparring
`liner`'s weighing (a place, a two-eyed jack on a gap of four, a one-eyed jack taking a chip of
one of our fours), and the position after it, weighed again. A play that lets the other team
complete its winning sequence is never worth it.
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
from engines._sequence_board import BOARD, DECK, JACKS, ONE_EYED, SIZE, SQUARES_OF, TWO_EYED
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


# ----- two teams: the position as the player holds it, and the next player's answer ----------

# By the chips a team holds in a line of five free of the other team's (corners count).
OWN_LINES = (0.0, 1.0, 4.0, 16.0, 80.0)
OWN_LINES_IN_HAND = (0.0, 2.0, 7.0, 28.0, 300.0)  # a free square of it is one the hand can fill
OTHER_LINES = (0.0, 1.0, 6.0, 35.0, 500.0)
OUT_OF_CARDS = 0.5  # the other team's line has a square whose two cards are both gone
SEQUENCE_WORTH = 1500.0
TWO_EYED_WORTH = 0.0
ONE_EYED_WORTH = 0.0
REPLY_CANDIDATES = 8
REPLY_DEALS = 10  # imagined hands of the next player
SEARCH_SHARE = 0.6  # of the budget: a play looked at once it is used up may still run past it
LOST = -1e6
JACK_LOOKS = 8  # a jack's plays given a first look
FIRST_LOOK_BELOW = 1e5  # the plays not looked at rank under every one looked at

Play = tuple[str, str, int]  # kind, card, square


def held_worth(board: str, sequences, team: int, hand, unseen: Counter) -> float:
    """The position as the team's player sees it holding `hand`: every open line of five of
    the team, more when the hand can fill one of its free squares (a card of that square or a
    two-eyed jack); every open line of the other team, less when one of its free squares can no
    longer be filled by a card (both copies played or in the hand); sequences."""
    mine, theirs = TEAM_MARKS[team], TEAM_MARKS[1 - team]
    fillable, wild = _fillable(board, hand)
    total = 0.0
    for window in WINDOWS:
        own = other = 0
        free = []
        for square in window:
            mark = board[square]
            if mark == mine:
                own += 1
            elif mark == theirs:
                other += 1
            elif mark == EMPTY:
                free.append(square)
        if own and other or len(free) == 0:
            continue
        corners = LENGTH - own - other - len(free)
        if not other:
            in_hand = wild or any(square in fillable for square in free)
            total += (OWN_LINES_IN_HAND if in_hand else OWN_LINES)[own + corners]
        if not own:
            value = OTHER_LINES[other + corners]
            if any(not unseen[BOARD[square]] for square in free):
                value *= OUT_OF_CARDS
            total -= value
    made = Counter(t for t, _ in sequences)
    total += SEQUENCE_WORTH * (made[team] - made[1 - team])
    held = Counter(hand)
    total += TWO_EYED_WORTH * sum(held[j] for j in TWO_EYED)
    return total + ONE_EYED_WORTH * sum(held[j] for j in ONE_EYED)


def _fillable(board: str, hand) -> tuple[set[int], bool]:
    """The free squares the hand's cards show, and whether it holds a two-eyed jack."""
    squares: set[int] = set()
    wild = False
    for card in hand:
        if card in TWO_EYED:
            wild = True
        elif card not in JACKS:
            squares.update(sq for sq in SQUARES_OF[card] if board[sq] == EMPTY)
    return squares, wild


def _played(state: SequenceState, team: int, play: Play):
    kind, _, square = play
    if kind == "place":
        return placed(state.board, state.sequences, team, square)
    if kind == "remove":
        return removed(state.board, state.sequences, square)
    return state.board, state.sequences


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


def _answer(board: str, team: int, hand, breakable: list[int]) -> Play | None:
    """The next player's best play by the sparring `liner`'s weighing: a place, or with a
    one-eyed jack taking away a chip of the other team's fours (`breakable`)."""
    plays = _plays(board, team, hand)
    jack = next((card for card in ONE_EYED if card in hand), None)
    if jack is not None:
        plays += [("remove", jack, square) for square in breakable]
    best, chosen = 0.0, None
    for play in plays:
        value = liner_value(board, team, 2, *play)
        if chosen is None or value > best:
            best, chosen = value, play
    return chosen


def fours_chips(board: str, sequences, team: int) -> list[int]:
    """The team's chips in its open lines of four, but those of a completed sequence."""
    mine = TEAM_MARKS[team]
    locked = {square for _, cells in sequences for square in cells}
    found: set[int] = set()
    for window in WINDOWS:
        marks = [board[square] for square in window]
        if marks.count(EMPTY) == 1 and all(m in (mine, CORNER_MARK, EMPTY) for m in marks):
            found.update(sq for sq in window if board[sq] == mine and sq not in locked)
    return sorted(found)


def _won(sequences, team: int, target: int) -> bool:
    return sum(1 for t, _ in sequences if t == team) >= target


class _View:
    """What the player to act knows: their hand, the cards they cannot see, their team."""

    def __init__(self, state: SequenceState) -> None:
        self.player = state.current
        self.team = state.game.team_of(self.player)
        self.hand = list(state.hands[self.player])
        self.unseen = Counter(DECK) - Counter(self.hand) - Counter(state.discard)
        self.target = state.game.target

    def rest(self, card: str) -> list[str]:
        rest = list(self.hand)
        rest.remove(card)
        return rest


def _one_look(state: SequenceState, view: _View, play: Play) -> float:
    """The position just after the play, with the cards left in hand."""
    if play[0] == "dead":
        return math.inf  # a free new card, and the turn goes on
    board, sequences = _played(state, view.team, play)
    if _won(sequences, view.team, view.target):
        return math.inf
    return held_worth(board, sequences, view.team, view.rest(play[1]), view.unseen)


def reply_value(state: SequenceState, view: _View, play: Play, answers: list) -> float:
    """The position after the play and the next player's answer, over the imagined hands."""
    board, sequences = _played(state, view.team, play)
    rest, other, total = view.rest(play[1]), 1 - view.team, 0.0
    breakable = fours_chips(board, sequences, view.team)
    for hand in answers:
        after, after_sequences = board, sequences
        answer = _answer(board, other, hand, breakable)
        if answer is not None and answer[0] == "remove":
            after, after_sequences = removed(board, sequences, answer[2])
        elif answer is not None:
            after, after_sequences = placed(board, sequences, other, answer[2])
            if _won(after_sequences, other, view.target):
                total += LOST
                continue
        total += held_worth(after, after_sequences, view.team, rest, view.unseen)
    return total / len(answers)


def _worth_looking(state: SequenceState, view: _View, legal: list[Action]) -> set[int]:
    """The plays given a first look: every card's own squares, and of the many a jack may
    take, only the best few by the liner's weighing (a jack lists every free or taken square)."""
    jack_plays = [(liner_value(state.board, view.team, 2, *a.data), i)
                  for i, a in enumerate(legal) if a.data[1] in JACKS]  # fmt: skip
    best_jacks = {
        i for _, i in sorted(jack_plays, key=lambda item: (-item[0], item[1]))[:JACK_LOOKS]
    }
    return best_jacks | {i for i, a in enumerate(legal) if a.data[1] not in JACKS}


def reply_advice(state: SequenceState, deadline: Deadline) -> list[Choice]:
    view = _View(state)
    legal = state.legal_actions()
    looked = _worth_looking(state, view, legal)
    weighed = sorted(((_one_look(state, view, a.data) if i in looked
                       else liner_value(state.board, view.team, 2, *a.data) - FIRST_LOOK_BELOW,
                       i, a) for i, a in enumerate(legal)),
                     key=lambda item: (-item[0], item[1]))  # fmt: skip
    base = held_worth(state.board, state.sequences, view.team, view.hand, view.unseen)
    rng = view_rng(state, view.player)
    unseen = sorted(view.unseen.elements())
    size = len(state.hands[(view.player + 1) % state.player_count])
    answers = [rng.sample(unseen, min(size, len(unseen))) for _ in range(REPLY_DEALS)]
    searched = {}
    for value, _, action in weighed[:REPLY_CANDIDATES]:
        if math.isinf(value):
            searched[action.notation] = value  # a dead card or the winning sequence
            continue
        if len(searched) >= 2 and deadline.out_of_time(SEARCH_SHARE):
            break  # the rest keep their first look's order, below the searched plays
        searched[action.notation] = reply_value(state, view, action.data, answers)
    choices = []
    for value, _, action in weighed:
        looked = searched.get(action.notation)
        figure = (
            _win_estimate(looked - base) if looked is not None else _win_estimate(value - base) - 1
        )
        choices.append(Choice(action.notation, figure, "value", _reason(state, action, view.team)))
    return ranked(choices)
