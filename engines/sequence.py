"""Sequence: play a card, put a chip on a square showing it; five in a row make a sequence.

Rule book `003_…txt` (Hasbro 1997) with RULINGS *Sequence*. Two modes: in full mode the engine
cuts, deals from a shuffled double deck and draws for the players; in table mode the cards are
physical, a move is entered as the card and the square, and the engine checks it against the
board and against card counting (both copies of a card played since the last shuffle: nobody
can hold a third). The state here deals, plays the actions out and shows the position; text is
read in `_sequence_notation`, chips and sequences on the lines are `_sequence_lines`', and the
cards and board `_sequence_board`'s.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from engines._sequence_board import (
    BOARD,
    CARD_ORDER,
    CARDS,
    COPIES,
    CORNER,
    CORNERS,
    DEAD,
    DECK,
    JACKS,
    ONE_EYED,
    PLACE,
    PLAYABLE,
    REMOVE,
    SIZE,
    SQUARE_NAMES,
    SQUARES_OF,
    TWO_EYED,
    rank_value,
)
from engines._sequence_lines import (
    CORNER_MARK,
    EMPTY,
    SEQUENCE_LENGTH,
    TEAM_MARKS,
    placed,
    removed,
)
from engines._sequence_notation import (
    dealer_action,
    not_now,
    parse,
    parse_cut,
    parse_deal,
    parse_shuffle,
)
from engines.core import (
    CHANCE,
    Action,
    Actor,
    EngineError,
    Game,
    Option,
    OptionError,
    State,
    parse_bool,
)
from engines.messages import Message, define, msg

HAND_SIZES = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}  # RULINGS Sequence 2
TEAM_COLOURS = ("blue", "green", "red")  # the box holds 48 chips of each


class Frozen(tuple):
    """An immutable tuple that undo snapshots share instead of copying (the piles are long)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> Frozen:
        return self


def _check_teams(value: int) -> str | None:
    return None if value in (0, 2, 3) else "teams is 0 (automatic), 2 or 3"


class Sequence(Game):
    name = "sequence"
    wins_are_the_total = True  # the sequences made only say how a game was won
    title = "Sequence"
    min_players = 2
    max_players = 12
    options = (
        Option(
            "teams",
            0,
            parse=int,
            check=_check_teams,
        ),
        Option(
            "niveau_superieur",
            False,
            parse=parse_bool,
        ),
    )

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        return tuple(HAND_SIZES)

    def _check_setup(self) -> None:
        count = self.num_players
        if count not in HAND_SIZES:
            counts = ", ".join(map(str, HAND_SIZES))
            raise OptionError("sequence.players", counts=counts, n=count)
        if count % self.teams:
            raise OptionError("sequence.teams", n=count, teams=self.teams)

    @property
    def teams(self) -> int:
        chosen = self.option("teams")
        if chosen:
            return chosen
        return 3 if self.num_players in (3, 9) else 2

    @property
    def hand_size(self) -> int:
        return HAND_SIZES[self.num_players]

    @property
    def target(self) -> int:
        """Sequences to win (RULINGS Sequence 6)."""
        return 2 if self.teams == 2 else 1

    def team_of(self, player: int) -> int:
        return player % self.teams

    def new_state(self) -> SequenceState:
        return SequenceState(self)


class SequenceState(State):
    game: Sequence

    def __init__(self, game: Sequence) -> None:
        super().__init__(game)
        self.board: str = "".join(CORNER_MARK if card == CORNER else EMPTY for card in BOARD)
        self.sequences: Frozen = Frozen()  # (team, five squares in line order), oldest first
        self.phase: str = "cut"
        self.cutters: tuple[int, ...] = tuple(range(game.num_players))
        self.last_cut: tuple[str, ...] = ()
        self.dealer: int | None = None
        self.current: int = 0
        self.hands: Frozen = Frozen(Frozen() for _ in game.players)  # full mode only
        self.stock: Frozen = Frozen()  # full mode only, top card first
        self.stock_count: int = 0
        self.discard: Frozen = Frozen()  # since the last reshuffle, top card last
        self.owed_draws: int = 0
        self.turn_ends: bool = False
        self.last_action: str = ""
        self.last_square: int | None = None
        self.winner_team: int | None = None

    @property
    def full(self) -> bool:
        return self.game.mode == "full"

    # ----- whose turn ---------------------------------------------------------------------------

    @property
    def actor(self) -> Actor | None:
        if self.phase == "over":
            return None
        if self.phase == "play":
            return self.current
        return CHANCE

    def chance_prompt(self) -> Message | None:
        if self.phase == "cut":
            names = ", ".join(self.players[p] for p in self.cutters)
            if self.full:
                return msg("sequence.expect.cut", names=names)
            return msg("sequence.expect.cut_or_dealer", names=names, last=self.player_count - 1)
        if self.phase == "deal":
            return msg("sequence.expect.deal")
        if self.phase == "shuffle":
            return msg("sequence.expect.shuffle", n=len(self.discard))
        return None

    @property
    def player_count(self) -> int:
        return len(self.players)

    # ----- legal actions ------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self.phase == "play":
            return self._plays()
        if self.phase == "cut" and not self.full:
            return [dealer_action(self, p) for p in range(self.player_count)]
        return []  # cuts, deals and shuffles are too many to list: see chance_hint

    def _plays(self) -> list[Action]:
        board = self.board
        free = [sq for sq in PLAYABLE if board[sq] == EMPTY]
        removable = self._removable_squares()
        actions: list[Action] = []
        for card in self._candidate_cards():
            if card in TWO_EYED:
                plays = [PLACE[card, sq] for sq in free]
            elif card in ONE_EYED:
                plays = [REMOVE[card, sq] for sq in removable]
            else:
                plays = [PLACE[card, sq] for sq in SQUARES_OF[card] if board[sq] == EMPTY]
            actions.extend(plays or [DEAD[card]])
        return actions

    def _candidate_cards(self) -> list[str]:
        """The cards the player may hold: their hand (full mode), else every card not used up."""
        if self.full:
            return sorted(set(self.hands[self.current]), key=CARD_ORDER.__getitem__)
        used = Counter(self.discard)
        return [card for card in CARDS if used[card] < COPIES]

    def _removable_squares(self) -> list[int]:
        team = TEAM_MARKS[self.game.team_of(self.current)]
        locked = () if self.game.option("niveau_superieur") else self._locked()
        return [sq for sq in PLAYABLE if self.board[sq] not in (EMPTY, team) and sq not in locked]

    def _locked(self) -> set[int]:
        return {sq for _, cells in self.sequences for sq in cells}

    # ----- reading text -------------------------------------------------------------------------

    def _parse(self, text: str) -> Action:
        return parse(self, text)

    def _illegal(self, text: str) -> EngineError:
        return not_now(self, text)

    # ----- chance -------------------------------------------------------------------------------

    def _sample_chance(self, rng: random.Random) -> Action:
        if self.phase == "cut":
            return parse_cut(self, rng.sample(DECK, len(self.cutters)))
        if self.phase == "deal":
            deck = list(DECK)
            rng.shuffle(deck)
            return parse_deal(self, deck)
        pile = list(self.discard)
        rng.shuffle(pile)
        return parse_shuffle(self, pile)

    # ----- applying -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        kind = action.data[0]
        if kind == "cut":
            self._apply_cut(action.data[1])
        elif kind == "dealer":
            self._start(action.data[1])
        elif kind == "deal":
            self._apply_deal(list(action.data[1]))
        elif kind == "shuffle":
            self.stock, self.discard = Frozen(action.data[1]), Frozen()
            self.stock_count = len(self.stock)
            self._settle_draws()
        else:
            self._apply_play(action)

    def _apply_cut(self, cards: tuple[str, ...]) -> None:
        self.last_cut = cards
        lowest = min(rank_value(card) for card in cards)
        tied = tuple(
            p for p, card in zip(self.cutters, cards, strict=True) if rank_value(card) == lowest
        )
        if len(tied) > 1:
            self.cutters = tied  # the tied players cut again
        else:
            self.cutters = ()
            self._start(tied[0])

    def _start(self, dealer: int) -> None:
        self.dealer, self.cutters = dealer, ()
        self.current = (dealer + 1) % self.player_count  # the player on the dealer's left starts
        self.stock_count = len(DECK) - self.player_count * self.game.hand_size
        self.phase = "deal" if self.full else "play"

    def _apply_deal(self, deck: list[str]) -> None:
        count, dealt = self.player_count, self.player_count * self.game.hand_size
        first = self.dealer + 1  # one card at a time, starting on the dealer's left
        self.hands = Frozen(Frozen(deck[(p - first) % count : dealt : count]) for p in range(count))
        self.stock = Frozen(deck[dealt:])
        self.phase = "play"

    def _apply_play(self, action: Action) -> None:
        kind, card, square = action.data
        if self.full:
            hand = list(self.hands[self.current])
            hand.remove(card)
            self._set_hand(hand)
        self.discard = Frozen(self.discard + (card,))
        self.last_action, self.last_square = action.notation, square
        if kind == "dead":
            self.owed_draws, self.turn_ends = 1, False
            self._settle_draws()
            return
        team = self.game.team_of(self.current)
        if kind == "place":
            board, sequences = placed(self.board, self.sequences, team, square)
        else:
            board, sequences = removed(self.board, self.sequences, square)
        self.board, self.sequences = board, Frozen(sequences)
        winner = self._winning_team(team)
        if winner is not None:
            self.phase, self.winner_team = "over", winner
            return
        self.owed_draws, self.turn_ends = 1, True
        self._settle_draws()

    def _settle_draws(self) -> None:
        """Draw what the player is owed; an empty stock is remade from the discard pile first."""
        self.phase = "play"
        while self.owed_draws:
            if not self.stock_count:
                if self.full:
                    self.phase = "shuffle"  # chance shuffles the discard pile
                    return
                self.stock_count, self.discard = (
                    len(self.discard),
                    Frozen(),
                )  # reshuffled at the table
            if self.full:
                self._set_hand(self.hands[self.current] + self.stock[:1])
                self.stock = Frozen(self.stock[1:])
            self.stock_count -= 1
            self.owed_draws -= 1
        if self.turn_ends:
            self.current = (self.current + 1) % self.player_count

    def _set_hand(self, cards: Iterable[str]) -> None:
        hands = list(self.hands)
        hands[self.current] = Frozen(cards)
        self.hands = Frozen(hands)

    # ----- sequences ----------------------------------------------------------------------------

    def _winning_team(self, mover: int) -> int | None:
        """The mover's team if it reached the target, else any other that did (a rescan)."""
        for team in [mover] + list(range(self.game.teams)):
            if self._team_sequences(team) >= self.game.target:
                return team
        return None

    def _team_sequences(self, team: int) -> int:
        return sum(1 for t, _ in self.sequences if t == team)

    # ----- scores, views, invariants ------------------------------------------------------------

    def scores(self) -> list[int]:
        counts = [self._team_sequences(team) for team in range(self.game.teams)]
        return [counts[self.game.team_of(p)] for p in range(self.player_count)]

    def _view(self, player: int | None) -> dict[str, Any]:
        game = self.game
        own_hand = self.hands[player] if self.full and player is not None else ()
        return {
            "game": "sequence",
            "mode": game.mode,
            "phase": self.phase,
            **_board_view(self.board, self._locked()),
            "sequences": [
                {"team": t, "squares": [SQUARE_NAMES[sq] for sq in cells]}
                for t, cells in self.sequences
            ],  # fmt: skip
            "teams": game.teams,
            "team_of": [game.team_of(p) for p in range(self.player_count)],
            "team_colours": list(TEAM_COLOURS[: game.teams]),
            "team_sequences": [self._team_sequences(t) for t in range(game.teams)],
            "target": game.target,
            "winner_team": self.winner_team,
            "current": self.current if self.phase == "play" else None,
            "dealer": self.dealer,
            "cutters": list(self.cutters),
            "last_cut": list(self.last_cut),
            "hand_size": game.hand_size,
            "hands": [self._visible_hand(p, player) for p in range(self.player_count)],
            "hand_counts": [len(h) if self.full else game.hand_size for h in self.hands],
            "dead_cards": _dead_cards(self.board, own_hand),
            "stock": self.stock_count,
            "discard": list(self.discard),
            "exhausted": sorted(
                (c for c, n in Counter(self.discard).items() if n >= COPIES),
                key=CARD_ORDER.__getitem__,
            ),  # fmt: skip
            "last_action": self.last_action,
            "last_square": None if self.last_square is None else SQUARE_NAMES[self.last_square],
            "scores": self.scores(),
        }

    def _visible_hand(self, owner: int, viewer: int | None) -> list[str] | None:
        if not self.full or (owner != viewer and self.phase != "over"):
            return None
        return sorted(self.hands[owner], key=CARD_ORDER.__getitem__)

    def check_invariants(self) -> None:
        assert len(self.board) == SIZE * SIZE
        assert all(self.board[sq] == CORNER_MARK for sq in CORNERS)
        assert set(self.board) <= set(EMPTY + CORNER_MARK + TEAM_MARKS[: self.game.teams])
        for team, cells in self.sequences:
            assert len(cells) == SEQUENCE_LENGTH
            assert all(self.board[sq] in (TEAM_MARKS[team], CORNER_MARK) for sq in cells)
            assert len({cells[i + 1] - cells[i] for i in range(SEQUENCE_LENGTH - 1)}) == 1
            for other_team, other in self.sequences:
                if other_team == team and other is not cells:
                    assert len(set(cells) & set(other)) <= 1, "sequences share two squares"
        assert all(n <= COPIES for n in Counter(self.discard).values())
        if self.full and self.phase not in ("cut", "deal"):
            held = [card for hand in self.hands for card in hand]
            assert Counter(held + list(self.stock + self.discard)) == Counter(DECK)
            assert len(self.stock) == self.stock_count
            assert all(len(hand) <= self.game.hand_size for hand in self.hands)
        assert self.stock_count >= 0
        if self.phase == "over":
            assert self._team_sequences(self.winner_team) >= self.game.target


def _board_view(board: str, locked: set[int]) -> dict[str, Any]:
    """The board by rows: its cards, its chips (a team or None), the squares locked in sequences."""
    rows = [range(r * SIZE, (r + 1) * SIZE) for r in range(SIZE)]
    return {
        "cards": [[BOARD[sq] for sq in row] for row in rows],
        "chips": [
            [int(board[sq]) if board[sq] in TEAM_MARKS else None for sq in row] for row in rows
        ],
        "locked": [[sq in locked and sq not in CORNERS for sq in row] for row in rows],
    }


def _dead_cards(board: str, hand: Iterable[str]) -> list[str]:
    """The cards of a hand whose squares all hold a chip (jacks are never dead)."""
    return sorted({card for card in hand if card not in JACKS
                   and all(board[sq] != EMPTY for sq in SQUARES_OF[card])},
                  key=CARD_ORDER.__getitem__)  # fmt: skip


define(
    {
        "option_help.teams": "Number of teams, 2 or 3 (0: automatic, 3 teams for 3 or 9 players, "
        "else 2).",
        "option_help.niveau_superieur": "'Niveau supérieur': a one-eyed jack may remove a chip of "
        "a completed sequence too.",
        "sequence.said.dealer": "{name} deals",
        "sequence.said.cut": "Cut for the dealer ({cards})",
        "sequence.said.cut_card": "{name}: {card}",
        "sequence.said.deal": "{name} deals {n} cards each",
        "sequence.said.shuffle": "The discard pile is shuffled into a new stock of {n} cards",
        "sequence.players": "Sequence takes {counts} players (2 or 3 equal teams), got {n}",
        "sequence.teams": "{n} players cannot make {teams} equal teams",
        "sequence.expect.cut": "cut <one card each for {names}, lowest deals, aces high>",
        "sequence.expect.cut_or_dealer": "cut <one card each for {names}, lowest deals, aces "
        "high> or dealer <player 0-{last}>",
        "sequence.expect.deal": "deal <the 104 cards of the two shuffled decks, top first>",
        "sequence.expect.shuffle": "shuffle <the {n} cards of the discard pile in their new order>",
        "sequence.what.cut": "the cut (one card per player)",
        "sequence.what.deal": "the deal (the whole shuffled double deck)",
        "sequence.what.shuffle": "the reshuffle (the discard pile)",
        "sequence.card_count": "{what} takes {n:count.cards}, got {got}",
        "sequence.copies": "two decks hold only {n} of {card}",
        "sequence.dealer_drawn": "in full mode the dealer is drawn: cut <one card each>",
        "sequence.dealer_seat": "dealer takes the dealer's seat number {seats}, e.g. dealer 0",
        "sequence.no_player": "there is no player {n}: the dealer is a seat {seats}",
        "sequence.deal_decks": "the deal must be the two 52-card decks, each card twice",
        "sequence.shuffle_discard": "the new stock must be exactly the cards of the discard pile",
        "sequence.dead_how": "a dead card is entered as: dead <card>, e.g. dead 7D",
        "sequence.not_a_move": "'{text}' is not a Sequence move: CARD@SQUARE (7D@c3, JC@e5), "
        "one-eyed jack CARDxSQUARE (JHxf2), dead CARD, or a chance outcome (cut, deal, shuffle)",
        "sequence.plays_now": "'{text}': {name} plays a card now",
        "sequence.waiting": "'{text}' is not legal now: waiting for {hint}",
        "sequence.refused": "{play}: {reason}",
        "sequence.not_in_hand": "{name} has no {card} in hand",
        "sequence.both_played": "both {card} have already been played since the last shuffle, "
        "so nobody can hold one",
        "sequence.not_dead": "{card} is not dead: it can still be played",
        "sequence.one_eyed": "{card} is a one-eyed jack: it removes an opponent's chip "
        "({card}x<square>)",
        "sequence.corner": "{square} is a corner: it counts for every team and takes no chip",
        "sequence.square": "{square}",
        "sequence.shows": "{square} shows {shown}, not {card} ({card} is on {where})",
        "sequence.taken": "{square} already holds a chip",
        "sequence.two_eyed_remove": "only a one-eyed jack (JH, JS) removes a chip",
        "sequence.no_chip": "there is no chip on {square}",
        "sequence.own_chip": "{square} holds your own team's chip",
        "sequence.in_sequence": "{square} belongs to a completed sequence, which can never be "
        "broken (the option Next level allows it)",
        "sequence.not_a_square": "'{text}' is not a square (a1 … j10: column a-j, row 1-10)",
        "sequence.not_a_card": "'{text}' is not a card (rank 2-9, T, J, Q, K, A and suit S, H, "
        "D, C, e.g. 7D, TH)",
    }
)
