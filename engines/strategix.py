"""Stratégix: a letter-card climbing game (rule book 001, project RULINGS Stratégix R1–R13).

Full mode deals from the seed and knows every hand; table mode knows only what was laid down and
how many cards each player holds, and checks plays by card counting. The state here plays the
actions out and shows the position; its legal steps are listed in `_strategix_moves`, text is read
in `_strategix_notation`, and the deck and deals are `_strategix_deck`'s.
"""

from __future__ import annotations

import random
from typing import Any

from engines._strategix_deck import (
    COPIES,
    FULL_DECK,
    HAND_SIZE,
    PETARDS,
    REMOVED_TWO_PLAYERS,
    STARS,
    best_card,
    cards_of,
    drawn_deal,
    parse_deal,
    remove_cards,
    sorted_cards,
    worst_card,
)
from engines._strategix_formulas import (
    LETTERS,
    PETARD,
    STAR,
    Group,
    Play,
    Shape,
    canonical,
    declared,
    has_z,
    play_text,
    shape_of,
    strength,
)
from engines._strategix_moves import legal_steps, table_notes
from engines._strategix_notation import parse
from engines.core import CHANCE, Action, Actor, Game, State
from engines.messages import Message, define, msg

POINTS = {2: (2, -2), 3: (2, 0, -2), 4: (4, 2, 0, -2)}
PLACE_NAMES = {2: ("Dubolix", "Padbolix"), 3: ("Dubolix", "Pernigagnix", "Padbolix"),
               4: ("Dubolix", "Ossilix", "Pernigagnix", "Padbolix")}  # fmt: skip


class Strategix(Game):
    name = "strategix"
    title = "Stratégix"
    min_players = 2
    max_players = 4

    def new_state(self) -> StrategixState:
        return StrategixState(self)


class StrategixState(State):
    def __init__(self, game: Strategix) -> None:
        super().__init__(game)
        count = game.num_players
        self.phase = "first"
        self.round = 0
        self.next_leader = 0
        self.hands: list[str] | None = None  # full mode only, each sorted
        self.removed = ""  # full mode, two players: the 20 cards out of this deal
        self.counts = [0] * count
        self.played = ""  # cards laid this round, as card codes
        self.leader = 0
        self.current = 0
        self.passed = [False] * count
        self.trick: list[tuple[int, str]] = []
        self.top: tuple[int, Play] | None = None  # who laid the formula to beat, and it
        self.after_petard = False
        self.building: tuple[Group, ...] = ()  # full mode: a formula laid group by group
        self.locks: tuple[int, ...] = ()  # full mode: held letters the next group lays as stars
        self.last_trick: dict[str, Any] | None = None
        self.places: list[int] = []
        self.bottom: list[int] = []  # out on a star, Z or pétard: Padbolix first
        self.last_order: list[int] = []
        self.round_points: list[list[int]] = []
        self.totals = [0] * count
        self.exchange: tuple[int, str, int, str] | None = None

    # ----- whose turn ---------------------------------------------------------------------------

    @property
    def actor(self) -> Actor | None:
        if self.phase in ("first", "deal"):
            return CHANCE
        if self.phase == "play":
            return self.current
        return None

    @property
    def is_two_player_game(self) -> bool:
        return len(self.players) == 2

    def _in_round(self, player: int) -> bool:
        return self.counts[player] > 0 and player not in self.places and player not in self.bottom

    def top_play(self) -> Play | None:
        return self.top[1] if self.top else None

    # ----- legal actions and text ---------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self.phase == "first":
            return [self._first_action(i) for i in range(len(self.players))]
        if self.phase == "deal":
            return []  # far too many deals to list: see chance_hint
        return legal_steps(self)

    def legal_notes(self) -> list[Message]:
        return table_notes(self)

    def chance_prompt(self) -> Message | None:
        if self.phase == "first":
            return msg("strategix.expect.first", last=len(self.players) - 1)
        if self.phase == "deal":
            size = HAND_SIZE[len(self.players)]
            hands = " / ".join(f"<{size}>" for _ in self.players)
            if self.is_two_player_game:
                return msg("strategix.expect.deal_out", hands=hands, out=REMOVED_TWO_PLAYERS)
            return msg("strategix.expect.deal", hands=hands)
        return None

    def _first_action(self, player: int) -> Action:
        name = self.players[player]
        return Action(f"first {player}", msg("strategix.said.first", name=name), player)

    def _parse(self, text: str) -> Action:
        return parse(self, text)

    def _sample_chance(self, rng: random.Random) -> Action:
        if self.phase == "first":
            return rng.choice(self.legal_actions())
        return parse_deal(drawn_deal(rng, len(self.players)), self.players)

    # ----- applying -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        word = action.notation.split()[0]
        if word == "first":
            self.next_leader = action.data
            self._begin_round()
        elif word == "deal":
            self._apply_deal(*action.data)
        elif word == "pass":
            self._apply_pass()
        elif word == "petard":
            self._lay(PETARD, "petard")
            self.after_petard = True
            self._after_lay(skip=1, last_cards=PETARD)
        elif word == "star":
            self.locks += (action.data,)
        elif action.notation.endswith(" +"):
            self.building, self.locks = (action.data,), ()
        elif word == "+":
            self.locks = ()
            self._add_group(action.data)
        else:
            self.building, self.locks = (), ()
            self._apply_play(action.data)

    def _add_group(self, group: Group) -> None:
        self.building += (group,)
        top = self.top_play()
        if top is not None and len(self.building) == shape_of(top).groups:
            play, self.building = canonical(self.building), ()
            self._apply_play(play)

    def _begin_round(self) -> None:
        self.round += 1
        count = len(self.players)
        self.counts = [HAND_SIZE[count]] * count
        self.played, self.places, self.bottom, self.exchange = "", [], [], None
        if self.game.mode == "full":
            self.phase = "deal"
            return
        self._start_play()

    def _apply_deal(self, hands: tuple[str, ...], out: str) -> None:
        self.hands, self.removed = list(hands), out
        if self.round > 1:
            self._exchange()
        self._start_play()

    def _exchange(self) -> None:
        """R11: after the new deal Padbolix gives their best card, Dubolix their worst."""
        padbolix, dubolix = self.last_order[-1], self.last_order[0]
        best, worst = best_card(self.hands[padbolix]), worst_card(self.hands[dubolix])
        self.hands[padbolix] = sorted_cards(remove_cards(self.hands[padbolix], best) + worst)
        self.hands[dubolix] = sorted_cards(remove_cards(self.hands[dubolix], worst) + best)
        self.exchange = (padbolix, best, dubolix, worst)

    def _start_play(self) -> None:
        self.phase = "play"
        self._new_trick(self.next_leader)

    def _new_trick(self, leader: int) -> None:
        self.leader = self.current = leader
        self.passed = [False] * len(self.players)
        self.trick, self.top, self.after_petard = [], None, False

    def _lay(self, cards: str, notation: str) -> None:
        player = self.current
        self.counts[player] -= len(cards)
        self.played += cards
        if self.hands is not None:
            self.hands[player] = remove_cards(self.hands[player], cards)
        self.trick.append((player, notation))

    def _apply_play(self, play: Play) -> None:
        top = self.top_play()
        copy = top is not None and declared(play) == declared(top)
        self._lay(cards_of(play), "play " + play_text(play))
        self.top = (self.current, play)
        self.after_petard = False
        last = cards_of(play) + ("Z" if has_z(play) else "")
        if has_z(play):  # R7: wins at once, even when leading
            if not self._go_out_if_empty(last):
                self._end_trick(self.current, by_z=True)
            return
        self._after_lay(skip=1 if copy else 0, last_cards=last)

    def _after_lay(self, skip: int, last_cards: str) -> None:
        if self._go_out_if_empty(last_cards):
            return
        if not self._others_in_trick():
            self._end_trick(self.top[0], by_z=False)
            return
        self.current = self._next_player(self.current, skip)

    def _go_out_if_empty(self, last_cards: str) -> bool:
        """R9: out on the last card; out on a star, Z or pétard is Padbolix at once.

        Returns whether the round ended (only one player left unplaced).
        """
        player = self.current
        if self.counts[player]:
            return False
        if set(last_cards) & {STAR, PETARD, "Z"}:
            self.bottom.append(player)
        else:
            self.places.append(player)
        unplaced = [p for p in range(len(self.players)) if self._in_round(p)]
        if len(unplaced) > 1:
            return False
        self._end_round(unplaced)
        return True

    def _others_in_trick(self) -> list[int]:
        top_player = self.top[0] if self.top else None
        return [p for p in range(len(self.players))
                if p != top_player and self._in_round(p) and not self.passed[p]]  # fmt: skip

    def _next_player(self, after: int, skip: int) -> int:
        count = len(self.players)
        order = [(after + step) % count for step in range(1, count + 1)]
        waiting = [p for p in order if self._in_round(p) and not self.passed[p]]
        return waiting[min(skip, len(waiting) - 1)]

    def _apply_pass(self) -> None:
        player = self.current
        self.passed[player] = True
        self.trick.append((player, "pass"))
        if self.top is None:
            self._pass_lead(player)
        elif self.is_two_player_game:  # R4: a pass ends the trick; R8: the strongest formula wins
            self._end_trick(self.top[0], by_z=False)
        elif not self._others_in_trick():
            self._end_trick(self.top[0], by_z=False)
        else:
            self.current = self._next_player(player, 0)

    def _pass_lead(self, player: int) -> None:
        """A leader holding only pétards cannot lead: the next player leads instead."""
        waiting = [p for p in range(len(self.players)) if self._in_round(p) and not self.passed[p]]
        if waiting:
            self.leader = self.current = self._next_player(player, 0)
            return
        # Nobody left can lead (pétards only): the round ends, fewer cards placing higher.
        count = len(self.players)
        stuck = sorted((p for p in range(count) if self._in_round(p)),
                       key=lambda p: (self.counts[p], (p - player - 1) % count))  # fmt: skip
        self._end_round(stuck)

    def _end_trick(self, winner: int, by_z: bool) -> None:
        self.last_trick = {"winner": winner, "by_z": by_z, "plays": [list(p) for p in self.trick]}
        self.passed = [False] * len(self.players)
        leader = winner if self._in_round(winner) else self._next_player(winner, 0)
        self._new_trick(leader)

    def _end_round(self, middle: list[int]) -> None:
        order = self.places + middle + self.bottom[::-1]
        points = [0] * len(self.players)
        for place, player in enumerate(order):
            points[player] = POINTS[len(self.players)][place]
            self.totals[player] += points[player]
        self.round_points.append(points)
        self.last_order = order
        if self.trick:  # the round ends mid-trick: keep what was laid for the display
            self.last_trick = {"winner": None, "by_z": False,
                               "plays": [list(p) for p in self.trick]}  # fmt: skip
        self.trick, self.top, self.after_petard = [], None, False
        if self.round == len(self.players):
            self.phase = "over"
            return
        self.next_leader = order[-1]  # R11: Padbolix leads the next round
        self._begin_round()

    # ----- scores and views ---------------------------------------------------------------------

    def scores(self) -> list[int]:
        return list(self.totals)

    def _view(self, player: int | None) -> dict[str, Any]:
        top = self.top_play()
        return {
            "game": "strategix",
            "mode": self.game.mode,
            "phase": self.phase,
            "round": self.round,
            "rounds": len(self.players),
            "current": self.current if self.phase == "play" else None,
            "hand_counts": list(self.counts),
            "hands": [
                list(hand) if self.hands is not None and i == player else None
                for i, hand in enumerate(self.hands or [None] * len(self.players))
            ],
            "removed": len(self.removed) if self.is_two_player_game else 0,
            "trick": {
                "leader": self.leader if self.phase == "play" else None,
                "formula": _shape_view(shape_of(top)) if top else None,
                "top": _top_view(self.top),
                "plays": [list(entry) for entry in self.trick],
                "passed": list(self.passed),
                "after_petard": self.after_petard,
                "building": play_text(canonical(self.building)) if self.building else None,
                "stars_for": [LETTERS[letter] for letter in self.locks],
            },
            "last_trick": self.last_trick,
            "places": list(self.places),
            "bottom": list(self.bottom),
            "last_order": list(self.last_order),
            "seen": _seen_view(self.played),
            "exchange": _exchange_view(self.exchange, player),
            "round_points": [list(points) for points in self.round_points],
            "scores": self.scores(),
            "winners": self.winners(),
        }

    def check_invariants(self) -> None:
        in_play = 2 * REMOVED_TWO_PLAYERS if self.is_two_player_game else len(FULL_DECK)
        assert all(count >= 0 for count in self.counts)
        assert self.played.count(STAR) <= STARS and self.played.count(PETARD) <= PETARDS
        assert all(self.played.count(letter) <= COPIES for letter in LETTERS)
        assert not set(self.places) & set(self.bottom)
        if self.phase == "play":
            assert sum(self.counts) + len(self.played) == in_play
            assert self._in_round(self.current) and not self.passed[self.current]
        if self.hands is not None and self.phase == "play":
            assert [len(hand) for hand in self.hands] == self.counts
            everything = "".join(self.hands) + self.played + self.removed
            assert sorted(everything) == sorted(FULL_DECK)


def _shape_view(shape: Shape) -> dict[str, Any]:
    return {"kind": shape.kind, "groups": shape.groups, "length": shape.length}


def _top_view(top: tuple[int, Play] | None) -> dict[str, Any] | None:
    if top is None:
        return None
    player, play = top
    return {"player": player, "play": play_text(play), "strength": LETTERS[strength(play)]}


def _seen_view(played: str) -> dict[str, Any]:
    return {
        "stars": played.count(STAR),
        "petards": played.count(PETARD),
        "letters": {letter: played.count(letter) for letter in LETTERS},
    }


def _exchange_view(
    exchange: tuple[int, str, int, str] | None, player: int | None
) -> dict[str, Any] | None:
    if exchange is None:
        return None
    padbolix, best, dubolix, worst = exchange
    shown = player in (padbolix, dubolix)
    return {"padbolix": padbolix, "dubolix": dubolix,
            "given_by_padbolix": best if shown else None,
            "given_by_dubolix": worst if shown else None}  # fmt: skip


define(
    {
        "strategix.may.lead": "lead with any formula: play <groups> (e.g. play D E F + M N O)",
        "strategix.may.follow": "follow {top} with {shape} whose lowest letter is {low} or higher: "
        "play <formula>",
        "strategix.may.pass": "pass",
        "strategix.may.petard": "lay a pétard: petard",
        "strategix.said.first": "{name} is the youngest and leads",
        "strategix.said.pass_no_lead": "{name} cannot lead (only pétards) and passes",
        "strategix.said.pass": "{name} passes",
        "strategix.said.petard": "{name} plays a pétard: the next player misses a turn",
        "strategix.said.star": "{name} will lay a star as {letter}, keeping a {letter}",
        "strategix.said.done": "{name} ends the formula: {play}",
        "strategix.said.start": "{name} starts a formula: {play} + …",
        "strategix.said.add": "{name} adds {group}: {play} + …",
        "strategix.said.play": "{name} plays {play}",
        "strategix.said.play_noted": "{name} plays {play} ({note})",
        "strategix.said.note_z": "Z: wins the trick",
        "strategix.said.note_same": "same letters: the next player misses a turn",
        "strategix.said.deal": "The cards are dealt",
        "strategix.letter": "{letter}",
        "strategix.expect.first": "first <youngest player 0-{last}>",
        "strategix.expect.deal": "deal {hands} (cards: ! pétard, * star, B-Z)",
        "strategix.expect.deal_out": "deal {hands} / out <{out}> (cards: ! pétard, * star, B-Z)",
        "strategix.petard_lead": "a pétard never leads a trick",
        "strategix.petard_twice": "a pétard is never played right after a pétard",
        "strategix.no_petard": "you hold no pétard",
        "strategix.petards_gone": "all three pétards have been played this round",
        "strategix.finish": "finish the formula under way ({formula} + …) with '+ <group>' or "
        "'done', or undo it",
        "strategix.locked": "you said a star stands for {letters}: lay the group holding it (one "
        "of the listed steps), or undo",
        "strategix.table_whole": "in table mode lay the whole formula at once: play D E F + M N O",
        "strategix.leader_plays": "a trick's leader must play (pass only when holding nothing but "
        "pétards)",
        "strategix.round_on": "'{text}': the round is being played, it is {name}'s turn",
        "strategix.not_an_action": "'{text}' is not a Stratégix action: play <cards>, petard or "
        "pass (e.g. 'play D E F + M N O', 'play *=Z')",
        "strategix.table_star": "in table mode lay the whole formula at once, a star written as "
        "*=X: play D *=E F",
        "strategix.star_letter": "'star X' names one letter B to Z, e.g. 'star E'",
        "strategix.no_star_left": "you have no star left for that",
        "strategix.none_to_keep": "you hold no {letter} to keep (a star for a letter you do not "
        "hold is laid directly: *={letter})",
        "strategix.letter_order": "name the letters in order: {letter} comes before {other}",
        "strategix.no_group_star": "no group you can lay now holds a star for {letter}",
        "strategix.youngest": "'{text}': name the youngest player by seat, 0 to {last}",
        "strategix.waiting": "'{text}' is not legal now: waiting for {hint}",
        "strategix.one_group": "'play <group> +' starts a formula with one group",
        "strategix.group_shape": "the trick is {shape}: its groups look like {group}",
        "strategix.group_weak": "too weak: {low} is below {top_low}",
        "strategix.no_formula": "'{text}': no formula is under way (start one with "
        "'play <group> +')",
        "strategix.dead_end": "'{text}' cannot go on into a whole formula with this hand (groups "
        "are laid lowest letter first). Possible: {steps}…",
        "strategix.dead_end_follow": "'{text}' cannot go on into a whole formula with this hand "
        "(groups are laid lowest letter first; a follow needs {n} group(s)). Possible: {steps}…",
        "strategix.not_allowed": "{word} is not allowed now",
        "strategix.shape": "the trick is {want} ({top}): play the same formula, a pétard or pass "
        "— not {given}",
        "strategix.weak": "too weak: its lowest letter {low} is below {top_low}, the lowest letter "
        "of {top}",
        "strategix.not_enough": "you do not hold enough {letter} for that (a star laid as {letter} "
        "is written *={letter})",
        "strategix.stars": "that needs {n:count.stars}, you hold {have}",
        "strategix.keep": "you hold {letters}: to lay a star for it and keep the card, say "
        "{steps} first, then lay the group (or lay the real card)",
        "strategix.impossible": "impossible cards: that needs {n:count.stars} but only {left} "
        "remain unseen (each letter exists twice; already played: {seen})",
        "strategix.holds_only": "{name} holds only {n:count.cards}",
        "strategix.deal_two": "two players: deal <hand> / <hand> / out <20 cards>",
        "strategix.deal_hands": "deal one hand per player ({n}), separated by '/'",
        "strategix.card_code": "'{text}' is not a card code (! pétard, * star, B-Z)",
        "strategix.hand_size": "each hand holds {n} cards: {name}'s has {got}",
        "strategix.out_cards": "the 20 cards out are letters B to Y (stars, pétards and Z are "
        "always dealt)",
        "strategix.not_the_deck": "the cards dealt are not the Stratégix deck: 7 stars, 3 pétards "
        "and two of each letter B to Z",
    }
)
