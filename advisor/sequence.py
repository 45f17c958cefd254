"""Sequence's advisor: every card and square weighed by the lines of five it builds or blocks,
then the best few searched over deals consistent with the view.

The player sees their own hand, the board and the discard pile; the other hands and the stock
are the rest of the double deck, so each imagined world deals those cards anew at random.

With two teams in full mode every play is first weighed by the position it leaves as the
player holds it (`held_worth`: open lines of five, more when the hand can fill a gap, the other
team's lines less when a gap's cards are both gone). The best few are then looked at one turn
further: in each imagined hand of the next player, that player's best answer by the sparring
`liner`'s weighing (a place, a two-eyed jack on a gap of four, a one-eyed jack taking a chip of
one of our fours), and the position after it, weighed again after the player's own best next
play with the cards left in hand (a place, a two-eyed jack on a gap of a four, a one-eyed jack
on a chip of the other team's fours), or with a four the answer left whole and the hand can
finish counted as the sequence of the next turn. A play that lets the other
team complete its winning sequence is never worth it. Both looks stop at a share of the
budget, the best so far always ready.
Otherwise (three teams, table mode) it is a flat determinised Monte-Carlo search.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from operator import itemgetter

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
DEAD_STREAK = 7  # dead cards exchanged in a row before a play is made instead
OUT_OF_CARDS = 0.5  # the other team's line has a square whose two cards are both gone
SEQUENCE_WORTH = 1500.0
REPLY_CANDIDATES = 8
REPLY_DEALS = 10  # imagined hands of the next player, a batch: every candidate gets the same
MAX_BATCHES = 4
FIRST_LOOK_SHARE = 0.4  # of the budget: the plays not weighed by then keep the liner's order
SEARCH_SHARE = 0.75  # of the budget: a batch started just before it may still run past it
LAST_SHARE = 0.9  # two plays are looked at a turn further unless this much is used up
LOST = -1e6
NEXT_SEQUENCE = 1200.0  # the player's next turn surely completes a sequence (two players)
WIN_NEXT = 1e5  # ... the winning one
JACK_LOOKS = 8  # a jack's plays given a first look
FIRST_LOOK_BELOW = 1e5  # the plays not looked at rank under every one looked at

Play = tuple[str, str, int]  # kind, card, square

WINDOWS_THROUGH = tuple(
    tuple(index for index, window in enumerate(WINDOWS) if square in window)
    for square in range(SIZE * SIZE)
)
MARKS_OF = tuple(itemgetter(*window) for window in WINDOWS)  # a board's five marks of a window
NEAR = tuple(  # the squares sharing a line of five with each square
    frozenset(sq for index in WINDOWS_THROUGH[square] for sq in WINDOWS[index])
    for square in range(SIZE * SIZE)
)


class Weigher:
    """The position as a team's player sees it holding one hand (`held_worth`), line by line,
    so that a change of one square is weighed by the lines through it only. A line's worth
    depends only on its five marks: each is weighed once a decision and then looked up."""

    def __init__(self, team: int, hand, unseen: Counter) -> None:
        self.team = team
        self.mine, self.theirs = TEAM_MARKS[team], TEAM_MARKS[1 - team]
        cards = set(hand)
        self.wild = any(card in cards for card in TWO_EYED)
        self.in_hand = frozenset(
            square for card in cards if card not in JACKS for square in SQUARES_OF[card]
        )
        self.gone = frozenset(sq for sq in range(SIZE * SIZE) if not unseen[BOARD[sq]])
        self.known: dict[tuple[int, tuple[str, ...]], float] = {}

    def line(self, board: str, index: int) -> float:
        marks = MARKS_OF[index](board)
        key = (index, marks)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = self._weighed(WINDOWS[index], marks)
        return value

    def _weighed(self, window: tuple[int, ...], marks: tuple[str, ...]) -> float:
        own, other = marks.count(self.mine), marks.count(self.theirs)
        free = [square for square, mark in zip(window, marks, strict=True) if mark == EMPTY]
        if own and other or not free:
            return 0.0
        corners = LENGTH - own - other - len(free)
        value = 0.0
        if not other:
            filled = self.wild or not self.in_hand.isdisjoint(free)
            value += (OWN_LINES_IN_HAND if filled else OWN_LINES)[own + corners]
        if not own:
            spent = not self.gone.isdisjoint(free)
            value -= OTHER_LINES[other + corners] * (OUT_OF_CARDS if spent else 1.0)
        return value

    def made(self, sequences) -> float:
        own = sum(1 for team, _ in sequences if team == self.team)
        return SEQUENCE_WORTH * (2 * own - len(sequences))

    def total(self, board: str, sequences) -> float:
        return sum(self.line(board, index) for index in range(len(WINDOWS))) + self.made(sequences)

    def moved(self, before: tuple[str, object, float], square: int, board: str, sequences) -> float:
        """The total after one square changed, from the total `before` (board, sequences)."""
        old_board, old_sequences, old_total = before
        return old_total + self.change(old_board, old_sequences, square, board, sequences)

    def change(self, old_board: str, old_sequences, square: int, board: str, sequences) -> float:
        """How much the total moves when `square` changes (from the old board and sequences)."""
        line = self.line
        change = 0.0
        for index in WINDOWS_THROUGH[square]:
            change += line(board, index) - line(old_board, index)
        if sequences is not old_sequences:
            change += self.made(sequences) - self.made(old_sequences)
        return change


def held_worth(board: str, sequences, team: int, hand, unseen: Counter) -> float:
    """The position as the team's player sees it holding `hand`: every open line of five of
    the team, more when the hand can fill one of its free squares (a card of that square or a
    two-eyed jack); every open line of the other team, less when one of its free squares can no
    longer be filled by a card (both copies played or in the hand); sequences."""
    return Weigher(team, hand, unseen).total(board, sequences)


def _played(state: SequenceState, team: int, play: Play):
    kind, _, square = play
    if kind == "place":
        return placed(state.board, state.sequences, team, square)
    if kind == "remove":
        return removed(state.board, state.sequences, square)
    return state.board, state.sequences


def placed_quickly(board: str, sequences, team: int, square: int):
    """`placed`, the engine's own claiming called only when a line of five is made."""
    mark = TEAM_MARKS[team]
    after = board[:square] + mark + board[square + 1 :]
    for index in WINDOWS_THROUGH[square]:
        if all(found == mark or found == CORNER_MARK for found in MARKS_OF[index](after)):
            return placed(board, sequences, team, square)
    return after, sequences


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


class _Answers:
    """The next player's best play on one board by the sparring `liner`'s weighing, for any
    hand: a place (a two-eyed jack only on a gap of a line of four, to make or block five), or
    with a one-eyed jack taking away a chip of the other team's fours (`breakable`). Each
    square is weighed once and shared by every imagined hand."""

    def __init__(self, board: str, team: int, breakable: list[int]) -> None:
        self.board, self.team = board, team
        self.places: dict[int, float] = {}
        self.removals = [(liner_value(board, team, 2, "remove", ONE_EYED[0], sq), sq)
                         for sq in breakable]  # fmt: skip
        self.jack_gaps: list[tuple[float, int]] | None = None

    def _place(self, square: int) -> float:
        value = self.places.get(square)
        if value is None:
            value = liner_value(self.board, self.team, 2, "place", BOARD[square], square)
            self.places[square] = value
        return value

    def _gaps(self) -> list[tuple[float, int]]:
        if self.jack_gaps is None:
            self.jack_gaps = [(liner_value(self.board, self.team, 2, "place", TWO_EYED[0], sq), sq)
                              for sq in gaps_of_fours(self.board)]  # fmt: skip
        return self.jack_gaps

    def best(self, hand) -> Play | None:
        best, chosen = 0.0, None
        wild = one_eyed = None
        for card in sorted(set(hand)):  # in a fixed order: ties go the same way in every run
            if card in ONE_EYED:
                one_eyed = one_eyed or card
            elif card in TWO_EYED:
                wild = card
            else:
                for square in SQUARES_OF[card]:
                    if self.board[square] == EMPTY:
                        value = self._place(square)
                        if chosen is None or value > best:
                            best, chosen = value, ("place", card, square)
        found = [(v, ("place", wild, sq)) for v, sq in self._gaps()] if wild else []
        found += [(v, ("remove", one_eyed, sq)) for v, sq in self.removals] if one_eyed else []
        for value, play in found:
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
    """What the player to act knows: their hand, the cards they cannot see, their team; and
    the position as they hold it after playing each card of the hand."""

    def __init__(self, state: SequenceState) -> None:
        self.state = state
        self.player = state.current
        self.team = state.game.team_of(self.player)
        self.hand = list(state.hands[self.player])
        self.unseen = Counter(DECK) - Counter(self.hand) - Counter(state.discard)
        self.target = state.game.target
        self._after_card: dict[str, tuple[Weigher, tuple[str, object, float]]] = {}

    def rest(self, card: str) -> list[str]:
        rest = list(self.hand)
        rest.remove(card)
        return rest

    def after_card(self, card: str) -> tuple[Weigher, tuple[str, object, float]]:
        """The weigher of the hand left once `card` is played, and the board now so weighed."""
        if card not in self._after_card:
            weigher = Weigher(self.team, self.rest(card), self.unseen)
            board, sequences = self.state.board, self.state.sequences
            self._after_card[card] = weigher, (board, sequences, weigher.total(board, sequences))
        return self._after_card[card]


def dead_streak(state: SequenceState) -> int:
    """How many dead cards were just exchanged in a row (this turn's, with two teams)."""
    count = 0
    for action in reversed(state.history):
        if not action.notation.startswith("dead "):
            break
        count += 1
    return count


def _one_look(state: SequenceState, view: _View, play: Play) -> float:
    """The position just after the play, with the cards left in hand."""
    if play[0] == "dead":
        # A free new card, and the turn goes on; on a board nearly full, drawn cards are dead
        # again and again: after a whole hand of them the turn must end with a play.
        return math.inf if dead_streak(state) < DEAD_STREAK else -math.inf
    board, sequences = _played(state, view.team, play)
    if _won(sequences, view.team, view.target):
        return math.inf
    weigher, now = view.after_card(play[1])
    return weigher.moved(now, play[2], board, sequences)


class _Reply:
    """One play looked at a turn further: the next player's answer in imagined hands."""

    def __init__(self, state: SequenceState, view: _View, play: Play) -> None:
        self.view, self.other = view, 1 - view.team
        self.board, self.sequences = _played(state, view.team, play)
        self.weigher, now = view.after_card(play[1])
        total = self.weigher.moved(now, play[2], self.board, self.sequences)
        self.after_play = (self.board, self.sequences, total)
        self.answers = _Answers(
            self.board, self.other, fours_chips(self.board, self.sequences, view.team)
        )
        self.threats = self._threats(state.player_count == 2)
        self.worth_after: dict[tuple[str, int] | None, float] = {}
        self.place_gains: dict[int, float] = {}  # the player's next place, far from the answer
        self.one_eyed = any(card in ONE_EYED for card in view.rest(play[1]))

    def worth(self, hands: list) -> float:
        """The sum over the hands of the position after the next player's answer."""
        return sum(self._after(self.answers.best(hand)) for hand in hands)

    def _threats(self, next_turn_is_ours: bool) -> list[tuple[frozenset[int], int]]:
        """The player's lines of four whose gap the hand left can fill (with the window)."""
        if not next_turn_is_ours:
            return []
        allowed = (self.weigher.mine, CORNER_MARK, EMPTY)
        found = []
        for window in WINDOWS:
            free = [square for square in window if self.board[square] == EMPTY]
            if (len(free) == 1 and (self.weigher.wild or free[0] in self.weigher.in_hand)
                    and all(self.board[square] in allowed for square in window)):  # fmt: skip
                found.append((frozenset(window), free[0]))
        return found

    def _next_sequence(self, square: int, board: str, sequences) -> float:
        """A line of four the answer (on `square`) left whole: the player completes it next."""
        team = self.view.team
        made = sum(1 for t, _ in sequences if t == team)
        for window, gap in self.threats:
            if square in window or board[gap] != EMPTY:
                continue
            _, after = placed(board, sequences, team, gap)
            now = sum(1 for t, _ in after if t == team)
            if now > made:
                return WIN_NEXT if now >= self.view.target else NEXT_SEQUENCE
        return 0.0

    def _our_next(self, board: str, sequences, total: float, answered: int) -> float:
        """The position after the player's best next play (with the cards left in hand),
        from the position after the answer on square `answered` (`total`). A place far from
        that square changes the position as it would have without the answer: weighed once."""
        weigher = self.weigher
        squares = [sq for sq in weigher.in_hand if board[sq] == EMPTY]
        if weigher.wild:
            squares += [sq for sq in gaps_of_fours(board) if sq not in weigher.in_hand]
        near, gains = NEAR[answered], self.place_gains
        best = None
        for square in squares:
            gain = None if square in near else gains.get(square)
            if gain is None:
                gain = self._place_gain(board, sequences, square)
                if square not in near:
                    gains[square] = gain
            if best is None or gain > best:
                best = gain
        if best == math.inf:
            return WIN_NEXT
        best = LOST if best is None else max(LOST, total + best)
        if self.one_eyed:
            before = (board, sequences, total)
            for chip in fours_chips(board, sequences, self.other):
                after_board, after_sequences = removed(board, sequences, chip)
                best = max(best, weigher.moved(before, chip, after_board, after_sequences))
        return best

    def _place_gain(self, board: str, sequences, square: int) -> float:
        """How much the player's chip on `square` adds to the position (infinite: it wins)."""
        after_board, after_sequences = placed_quickly(board, sequences, self.view.team, square)
        if _won(after_sequences, self.view.team, self.view.target):
            return math.inf
        return self.weigher.change(board, sequences, square, after_board, after_sequences)

    def _after(self, answer: Play | None) -> float:
        key = None if answer is None else (answer[0], answer[2])  # which card does not matter
        value = self.worth_after.get(key)
        if value is None and answer is None:
            value = self.after_play[2] + self._next_sequence(-1, self.board, self.sequences)
            self.worth_after[key] = value
        if value is None:
            kind, _, square = answer
            if kind == "remove":
                board, sequences = removed(self.board, self.sequences, square)
            else:
                board, sequences = placed_quickly(self.board, self.sequences, self.other, square)
            if _won(sequences, self.other, self.view.target):
                value = LOST
            else:
                value = self.weigher.moved(self.after_play, square, board, sequences)
                value = max(value + self._next_sequence(square, board, sequences),
                            self._our_next(board, sequences, value, square))  # fmt: skip
            self.worth_after[key] = value
        return value


def _first_look(state: SequenceState, view: _View, legal: list[Action],
                deadline: Deadline) -> list[tuple[float, int, Action]]:  # fmt: skip
    """Every play weighed by the position it leaves, best first. A jack lists every free (or
    taken) square: only its best few by the liner's weighing are looked at. What is not looked
    at by `FIRST_LOOK_SHARE` of the budget keeps the liner's worth, under every play looked at."""
    liner = {i: liner_value(state.board, view.team, 2, *a.data)
             for i, a in enumerate(legal) if a.data[1] in JACKS}  # fmt: skip
    best_jacks = sorted(liner, key=lambda i: (-liner[i], i))[:JACK_LOOKS]
    order = [i for i, a in enumerate(legal) if a.data[1] not in JACKS] + best_jacks
    weighed = {}
    for i in order:
        if deadline.out_of_time(FIRST_LOOK_SHARE):
            break
        weighed[i] = _one_look(state, view, legal[i].data)
    for i, action in enumerate(legal):
        if i not in weighed:
            value = liner.get(i)
            if value is None:
                value = liner_value(state.board, view.team, 2, *action.data)
            weighed[i] = value - FIRST_LOOK_BELOW
    return sorted(((weighed[i], i, a) for i, a in enumerate(legal)),
                  key=lambda item: (-item[0], item[1]))  # fmt: skip


def _search(state: SequenceState, view: _View, candidates: list[Action],
            deadline: Deadline) -> dict[str, float]:  # fmt: skip
    """The mean worth of each candidate after the next player's answer, over batches of
    imagined hands (the same for every candidate), as many batches as the time allows; a
    candidate not looked at in the first batch is left out."""
    rng = view_rng(state, view.player)
    unseen = sorted(view.unseen.elements())
    size = min(len(state.hands[(view.player + 1) % state.player_count]), len(unseen))
    replies: dict[str, _Reply] = {}
    sums: dict[str, list[float]] = {}
    for batch in range(MAX_BATCHES):
        hands = [rng.sample(unseen, size) for _ in range(REPLY_DEALS)]
        for action in candidates:
            if (batch or len(sums) >= 2 or deadline.out_of_time(LAST_SHARE)) and (
                deadline.out_of_time(SEARCH_SHARE)
            ):
                return _means(sums)
            if action.notation not in replies:
                replies[action.notation] = _Reply(state, view, action.data)
            sums.setdefault(action.notation, []).append(replies[action.notation].worth(hands))
    return _means(sums)


def _means(sums: dict[str, list[float]]) -> dict[str, float]:
    """Each candidate's mean over the batches every candidate has (the same hands for all)."""
    if not sums:
        return {}
    batches = min(len(totals) for totals in sums.values())
    return {key: sum(totals[:batches]) / (batches * REPLY_DEALS) for key, totals in sums.items()}


def reply_advice(state: SequenceState, deadline: Deadline) -> list[Choice]:
    view = _View(state)
    legal = state.legal_actions()
    weighed = _first_look(state, view, legal, deadline)
    base = Weigher(view.team, view.hand, view.unseen).total(state.board, state.sequences)
    best = weighed[:REPLY_CANDIDATES]
    searched = {a.notation: value for value, _, a in best if math.isinf(value)}
    candidates = [a for value, _, a in best if not math.isinf(value) and value > -FIRST_LOOK_BELOW]
    searched.update(_search(state, view, candidates, deadline))
    choices = []
    for value, _, action in weighed:
        looked = searched.get(action.notation)
        figure = (
            _win_estimate(looked - base) if looked is not None else _win_estimate(value - base) - 1
        )
        choices.append(Choice(action.notation, figure, "value", _reason(state, action, view.team)))
    return ranked(choices)
