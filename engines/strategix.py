"""Stratégix: a letter-card climbing game (rule book 001, project RULINGS Stratégix R1–R13).

Full mode deals from the seed and knows every hand; table mode knows only what was laid down and
how many cards each player holds, and checks plays by card counting.
"""

from __future__ import annotations

import random
from typing import Any

from engines._strategix_formulas import (
    CARD_CODES,
    LETTERS,
    PAIRS,
    PETARD,
    RUNS,
    SINGLE,
    STAR,
    Group,
    Play,
    Shape,
    can_extend,
    canonical,
    declared,
    give_back,
    group_candidates,
    has_z,
    locked_candidates,
    make_group,
    missing_after,
    missing_letters,
    parse_play,
    play_text,
    real_letters,
    respelled,
    shape_of,
    star_count,
    strength,
    take,
)
from engines.core import (
    CHANCE,
    Action,
    Actor,
    EngineError,
    Game,
    IllegalActionError,
    NotationError,
    State,
)
from engines.messages import Message, define, msg

STARS, PETARDS, COPIES = 7, 3, 2
HAND_SIZE = {2: 20, 3: 20, 4: 15}
REMOVED_TWO_PLAYERS = 20
POINTS = {2: (2, -2), 3: (2, 0, -2), 4: (4, 2, 0, -2)}
PLACE_NAMES = {2: ("Dubolix", "Padbolix"), 3: ("Dubolix", "Pernigagnix", "Padbolix"),
               4: ("Dubolix", "Ossilix", "Pernigagnix", "Padbolix")}  # fmt: skip
FULL_DECK = PETARD * PETARDS + STAR * STARS + "".join(letter * COPIES for letter in LETTERS)
_SET_ASIDE_TWO_PLAYERS = PETARD * PETARDS + STAR * STARS + "ZZ"  # R1
_PASS_WORDS = ("pass", "passe", "passer")
_PETARD_WORDS = ("petard", "pétard")
_PLAY_WORDS = ("play", "jouer", "joue")
_STAR_WORDS = ("star", "étoile", "etoile")


class Strategix(Game):
    name = "strategix"
    title = "Stratégix"
    min_players = 2
    max_players = 4

    def new_state(self) -> StrategixState:
        return StrategixState(self)


def _hand_counts(hand: str) -> tuple[list[int], int, int]:
    """Letter counts (B..Z), stars and pétards of a hand string."""
    counts = [0] * len(LETTERS)
    for card in hand:
        if card in LETTERS:
            counts[LETTERS.index(card)] += 1
    return counts, hand.count(STAR), hand.count(PETARD)


def _fewest_stars_from(candidates: list[Group]) -> list[float]:
    """For each letter index, the fewest stars a candidate starting there or later needs."""
    fewest = [float("inf")] * (len(LETTERS) + 2)
    for group in candidates:
        fewest[group.start] = min(fewest[group.start], group.nstars)
    for start in range(len(LETTERS) - 1, -1, -1):
        fewest[start] = min(fewest[start], fewest[start + 1])
    return fewest


def _remove_cards(hand: str, cards: str) -> str:
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    return "".join(remaining)


def _cards_of(play: Play) -> str:
    """The physical cards a play takes from a hand, as card codes."""
    return "".join(LETTERS[i] for i in real_letters(play)) + STAR * star_count(play)


def _best_card(hand: str) -> str:
    """Pétard, else star, else the highest letter (R11)."""
    for card in (PETARD, STAR):
        if card in hand:
            return card
    return max(hand, key=LETTERS.index)


def _worst_card(hand: str) -> str:
    """The lowest letter; a hand without letters gives a star, then a pétard (our choice)."""
    letters = [card for card in hand if card in LETTERS]
    if letters:
        return min(letters, key=LETTERS.index)
    return STAR if STAR in hand else PETARD


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

    # ----- legal actions ------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self.phase == "first":
            return [self._first_action(i) for i in range(len(self.players))]
        if self.phase == "deal":
            return []  # far too many deals to list: see chance_hint
        if self.game.mode == "table":
            return self._pass_and_petard()
        steps = self._building_steps() if self.building else self._first_steps()
        steps += self._star_steps()
        if self.building or self.locks:
            return steps
        return steps + self._pass_and_petard()

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

    def legal_notes(self) -> list[Message]:
        """Table mode lists only pass and pétard: say that the actor may also lead any formula,
        or follow the trick with its shape from its lowest letter up."""
        if self.game.mode != "table" or self.phase != "play":
            return []
        top = self.top_play()
        if top is None:
            notes = [msg("strategix.may.lead")]
        else:
            shape, low = shape_of(top).message(), LETTERS[strength(top)]
            notes = [msg("strategix.may.follow", shape=shape, low=low, top=play_text(top))]
        return notes + [msg(f"strategix.may.{a.notation}") for a in self._pass_and_petard()]

    def _pass_and_petard(self) -> list[Action]:
        actions = []
        if self._may_pass():
            actions.append(self._simple_action("pass"))
        if self._petard_problem() is None:
            actions.append(self._simple_action("petard"))
        return actions

    def _simple_action(self, word: str) -> Action:
        name = self.players[self.current]
        if word == "pass":
            if self.top is None:
                return Action("pass", msg("strategix.said.pass_no_lead", name=name))
            return Action("pass", msg("strategix.said.pass", name=name))
        return Action("petard", msg("strategix.said.petard", name=name))

    def _may_pass(self) -> bool:
        if self.top is not None:
            return True
        # A leader may only pass when holding nothing but pétards (a pétard never leads).
        if self.game.mode == "full":
            hand = self.hands[self.current]
            return hand.count(PETARD) == len(hand)
        return self.counts[self.current] <= PETARDS - self.played.count(PETARD)

    def _petard_problem(self) -> Message | None:
        if self.top is None:
            return msg("strategix.petard_lead")
        if self.after_petard:
            return msg("strategix.petard_twice")
        if self.game.mode == "full" and PETARD not in self.hands[self.current]:
            return msg("strategix.no_petard")
        if self.game.mode == "table" and self.played.count(PETARD) >= PETARDS:
            return msg("strategix.petards_gone")
        return None

    def _available(self) -> tuple[list[int], int]:
        """Letter counts and stars the next group may use: the hand less the formula being built,
        and no letter the formula already laid a star for while holding it (see `respelled`)."""
        counts, stars, _ = _hand_counts(self.hands[self.current])
        frozen = []
        for group in self.building:
            for position, letter in enumerate(group.letters):
                index = LETTERS.index(letter)
                if not group.mask >> position & 1:
                    counts[index] -= 1
                elif counts[index]:
                    frozen.append(index)
            stars -= group.nstars
        for index in frozen:
            counts[index] = 0
        return counts, stars

    def _first_steps(self) -> list[Action]:
        """Full mode: each formula's first group, complete (`play g`) or to go on (`play g +`)."""
        counts, stars = self._available()
        missing = missing_letters(counts)
        top = self.top_play()
        if top is not None:
            shape = shape_of(top)
            candidates = self._candidates(shape.kind, shape.length, counts, stars, strength(top))
            return self._opening_steps(candidates, counts, stars, missing, shape.groups)
        actions = []
        for kind, length in ((SINGLE, 1), (PAIRS, 2)):
            candidates = self._candidates(kind, length, counts, stars, 0, missing)
            actions += self._opening_steps(candidates, counts, stars, missing)
        for length in range(2, len(LETTERS) + 1):
            candidates = self._candidates(RUNS, length, counts, stars, 0, missing)
            if not candidates and length >= self._locked_span():
                break  # a longer run needs even more cards
            actions += self._opening_steps(candidates, counts, stars, missing)
        return actions

    def _locked_span(self) -> int:
        return self.locks[-1] - self.locks[0] + 1 if self.locks else 0

    def _candidates(
        self,
        kind: str,
        size: int,
        counts: list[int],
        stars: int,
        min_start: int,
        missing: int | None = None,
    ) -> list[Group]:
        """The next group's candidates, holding a star for each locked letter if any."""
        if self.locks:
            return locked_candidates(kind, size, counts, stars, min_start, self.locks)
        return group_candidates(kind, size, counts, stars, min_start, missing)

    def _opening_steps(
        self,
        candidates: list[Group],
        counts: list[int],
        stars: int,
        missing: int,
        groups: int | None = None,
    ) -> list[Action]:
        """`groups` is the follow's group count, None for a lead (any count)."""
        actions = []
        fewest_stars_from = _fewest_stars_from(candidates)
        for group in candidates:
            if groups in (None, 1):
                actions.append(self._play_action((group,)))
            if group.kind == SINGLE or groups == 1:
                continue
            # Fast path for a lead: a later group on other letters needs no search.
            beyond = group.start + (group.size if group.kind == RUNS else 1)
            fast = groups is None and not self.locks
            if fast and fewest_stars_from[beyond] <= stars - group.nstars:
                actions.append(self._step_action("play", group))
            elif self._completable(group, counts, stars, missing, (groups or 2) - 1):
                actions.append(self._step_action("play", group))
        return actions

    def _completable(
        self, group: Group, counts: list[int], stars: int, missing: int, more: int
    ) -> bool:
        """Whether `more` groups can follow `group` (`counts` etc. before taking it)."""
        if self.locks:  # the locked letters are out of the rest of the formula
            left = list(counts)
            take(left, group)
            for letter in self.locks:
                left[letter] = 0
            return can_extend(group, left, stars - group.nstars, more, missing_letters(left))
        take(counts, group)
        after = missing_after(missing, counts, group)
        found = can_extend(group, counts, stars - group.nstars, more, after)
        give_back(counts, group)
        return found

    def _star_steps(self) -> list[Action]:
        """Full mode, R2: `star X` before a group lays a star for a letter X the player holds."""
        counts, stars = self._available()
        if stars < len(self.locks) + 1:
            return []
        lowest = self.locks[-1] if self.locks else 0
        actions = []
        for letter in range(lowest, len(LETTERS)):
            if counts[letter] > self.locks.count(letter) and self._lock_fits(letter, counts, stars):
                actions.append(self._star_action(letter))
        return actions

    def _lock_fits(self, letter: int, counts: list[int], stars: int) -> bool:
        """Whether a group holding a star for `letter` (and the earlier locks) can be laid."""
        locks = (*self.locks, letter)
        top, last = self.top_play(), self.building[-1] if self.building else None
        if last is None and top is None:  # a lead's first group: any one-group formula will do
            if len(locks) == 1:
                return True
            kind, size = (PAIRS, 2) if locks[0] == locks[-1] else (RUNS, locks[-1] - locks[0] + 1)
            return bool(locked_candidates(kind, size, counts, stars, 0, locks))
        model = last or top[0]
        low = last.start if last else strength(top)
        more = (shape_of(top).groups if top else len(self.building) + 1) - len(self.building) - 1
        saved, self.locks = self.locks, locks
        try:
            missing = missing_letters(counts)
            return any(self._completable(group, counts, stars, missing, more)
                       for group in locked_candidates(model.kind, model.size, counts, stars,
                                                      low, locks))  # fmt: skip
        finally:
            self.locks = saved

    def _star_action(self, letter: int) -> Action:
        name, shown = self.players[self.current], LETTERS[letter]
        return Action(f"star {shown}", msg("strategix.said.star", name=name, letter=shown), letter)

    def _building_steps(self) -> list[Action]:
        """Full mode, a formula under way: its next group (`+ g`), or `done` for a lead."""
        counts, stars = self._available()
        missing = missing_letters(counts)
        last, top = self.building[-1], self.top_play()
        more = shape_of(top).groups - len(self.building) - 1 if top is not None else 0
        actions = []
        for group in self._candidates(last.kind, last.size, counts, stars, last.start, missing):
            if self._completable(group, counts, stars, missing, more):
                actions.append(self._step_action("+", group))
        if top is None and len(self.building) >= 2 and not self.locks:
            play = canonical(self.building)
            name = self.players[self.current]
            said = msg("strategix.said.done", name=name, play=play_text(play))
            actions.append(Action("done", said, play))
        return actions

    def _step_action(self, word: str, group: Group) -> Action:
        name = self.players[self.current]
        so_far = play_text(canonical((*self.building, group)))
        if word == "play":
            said = msg("strategix.said.start", name=name, play=so_far)
            return Action(f"play {group.text} +", said, group)
        top = self.top_play()
        if top is not None and len(self.building) + 1 == shape_of(top).groups:
            action = self._play_action(canonical((*self.building, group)))
            return Action(f"+ {group.text}", action.message, group)
        said = msg("strategix.said.add", name=name, group=group.text, play=so_far)
        return Action(f"+ {group.text}", said, group)

    def _play_action(self, play: Play) -> Action:
        name, body = self.players[self.current], play_text(play)
        note = self._play_note(play)
        if note is None:
            return Action("play " + body, msg("strategix.said.play", name=name, play=body), play)
        said = msg("strategix.said.play_noted", name=name, play=body, note=note)
        return Action("play " + body, said, play)

    def _play_note(self, play: Play) -> Message | None:
        if has_z(play):
            return msg("strategix.said.note_z")
        if self.top is not None and declared(play) == declared(self.top_play()):
            return msg("strategix.said.note_same")
        return None

    # ----- reading text -------------------------------------------------------------------------

    def _parse(self, text: str) -> Action:
        word, _, rest = text.partition(" ")
        word = word.lower()
        if self.phase == "first":
            raise self._not_now(text, word, "first")
        if self.phase == "deal":
            if word != "deal":
                raise self._not_now(text, word, "deal")
            return self._parse_deal(rest)
        if self.building and word not in ("+", "done", *_STAR_WORDS):
            raise IllegalActionError(
                "strategix.finish", formula=play_text(canonical(self.building))
            )
        if self.locks and word not in _STAR_WORDS:
            raise IllegalActionError("strategix.locked", letters=self._locks_text())
        if word in _STAR_WORDS:
            raise self._bad_star(rest)
        if word in ("+", "done"):
            raise self._bad_step(text)
        if word in _PLAY_WORDS and rest.endswith("+"):
            if self.game.mode == "table":
                raise IllegalActionError("strategix.table_whole")
            self._explain_group(rest[:-1])
            raise self._bad_step(text)
        if word in _PLAY_WORDS:
            return self._parse_play(rest)
        if word in _PASS_WORDS and not rest:
            return self._checked_simple("pass", msg("strategix.leader_plays"))
        if word in _PETARD_WORDS and not rest:
            return self._checked_simple("petard", self._petard_problem())
        if word in ("first", "deal"):
            raise IllegalActionError(
                "strategix.round_on", text=text, name=self.players[self.current]
            )
        raise NotationError("strategix.not_an_action", text=text)

    def _locks_text(self) -> list[Message]:
        return [msg("strategix.letter", letter=LETTERS[letter]) for letter in self.locks]

    def _bad_star(self, rest: str) -> EngineError:
        """Why `star X` is not a step now."""
        if self.game.mode == "table":
            return IllegalActionError("strategix.table_star")
        letter = rest.strip().upper().removeprefix("*=")
        if len(letter) != 1 or letter not in LETTERS:
            return NotationError("strategix.star_letter")
        index = LETTERS.index(letter)
        counts, stars = self._available()
        if stars <= len(self.locks):
            return IllegalActionError("strategix.no_star_left")
        if counts[index] <= self.locks.count(index):
            return IllegalActionError("strategix.none_to_keep", letter=letter)
        if self.locks and index < self.locks[-1]:
            return IllegalActionError(
                "strategix.letter_order", letter=letter, other=LETTERS[self.locks[-1]]
            )
        return IllegalActionError("strategix.no_group_star", letter=letter)

    def _not_now(self, text: str, word: str, expected: str) -> EngineError:
        if word not in ("first", "deal", *_PLAY_WORDS, *_PASS_WORDS, *_PETARD_WORDS):
            return NotationError("strategix.not_an_action", text=text)
        if word == expected == "first":
            return IllegalActionError("strategix.youngest", text=text, last=len(self.players) - 1)
        return IllegalActionError("strategix.waiting", text=text, hint=self.chance_prompt())

    def _explain_group(self, body: str) -> None:
        """Raise the reason a formula's first group cannot be laid, if there is one."""
        group = parse_play(body)
        top = self.top_play()
        if len(group) > 1:
            raise IllegalActionError("strategix.one_group")
        if top is not None and (group[0].kind, group[0].size) != (top[0].kind, top[0].size):
            raise IllegalActionError(
                "strategix.group_shape", shape=shape_of(top).message(), group=top[0].text
            )
        if top is not None and strength(group) < strength(top):
            low, top_low = LETTERS[strength(group)], LETTERS[strength(top)]
            raise IllegalActionError("strategix.group_weak", low=low, top_low=top_low)
        self._check_holding(group)
        if not self.locks:
            self._check_no_kept_letter(group)

    def _bad_step(self, text: str) -> EngineError:
        if self.game.mode == "table":
            return IllegalActionError("strategix.table_whole")
        if not self.building and not text.lower().startswith("play"):
            return IllegalActionError("strategix.no_formula", text=text)
        steps = ", ".join(a.notation for a in self.legal_actions()[:6]) or "-"
        top = self.top_play()
        if top is None:
            return IllegalActionError("strategix.dead_end", text=text, steps=steps)
        return IllegalActionError(
            "strategix.dead_end_follow", text=text, n=shape_of(top).groups, steps=steps
        )

    def _checked_simple(self, word: str, problem: Message | None) -> Action:
        legal = {action.notation: action for action in self._pass_and_petard()}
        if word in legal:
            return legal[word]
        problem = problem or msg("strategix.not_allowed", word=word)
        raise IllegalActionError(problem.code, **problem.params)

    def _parse_play(self, body: str) -> Action:
        play = parse_play(body)
        self._check_against_trick(play)
        if self.game.mode == "table":
            return self._play_action(self._checked_table_play(play))
        return self._checked_full_play(play)

    def _check_against_trick(self, play: Play) -> None:
        top = self.top_play()
        if top is None:
            return
        wanted, given = shape_of(top), shape_of(play)
        if wanted != given:
            raise IllegalActionError(
                "strategix.shape",
                want=wanted.message(),
                top=play_text(top),
                given=given.message(),
            )
        if strength(play) < strength(top):
            raise IllegalActionError(
                "strategix.weak",
                low=LETTERS[strength(play)],
                top_low=LETTERS[strength(top)],
                top=play_text(top),
            )

    def _check_holding(self, play: Play) -> None:
        counts, stars, _ = _hand_counts(self.hands[self.current])
        for letter in real_letters(play):
            counts[letter] -= 1
            if counts[letter] < 0:
                shown = LETTERS[letter]
                raise IllegalActionError("strategix.not_enough", letter=shown)
        if star_count(play) > stars:
            raise IllegalActionError("strategix.stars", n=star_count(play), have=stars)

    def _checked_full_play(self, play: Play) -> Action:
        """Cards the hand holds, recorded in the one spelling the listing uses."""
        self._check_holding(play)
        self._check_no_kept_letter(play)
        return self._play_action(respelled(play))

    def _check_no_kept_letter(self, play: Play) -> None:
        """A star for a letter the player holds goes through `star X` steps, so that full mode
        accepts exactly what it lists."""
        counts = _hand_counts(self.hands[self.current])[0]
        declared_count, real_count = [0] * len(LETTERS), [0] * len(LETTERS)
        for group in play:
            for letter in group.letters:
                declared_count[LETTERS.index(letter)] += 1
        for letter in real_letters(play):
            real_count[letter] += 1
        kept = [LETTERS[i] for i in range(len(LETTERS))
                if real_count[i] < min(declared_count[i], counts[i])]  # fmt: skip
        if kept:
            steps = ", ".join(f"'star {letter}'" for letter in kept)
            letters = [msg("strategix.letter", letter=letter) for letter in kept]
            raise IllegalActionError("strategix.keep", letters=letters, steps=steps)

    def _checked_table_play(self, play: Play) -> Play:
        """Card counting: a third copy of a letter must be a star (R1: two of each letter)."""
        seen = _hand_counts(self.played)[0]
        groups = []
        for group in play:
            mask = group.mask
            for position, letter in enumerate(group.letters):
                index = LETTERS.index(letter)
                if mask >> position & 1:
                    continue
                if seen[index] >= 2:
                    mask |= 1 << position  # both copies are down: this card is a star
                else:
                    seen[index] += 1
            groups.append(make_group(group.kind, group.start, group.size, mask))
        counted = tuple(sorted(groups, key=lambda g: (g.start, g.mask)))
        stars_left = STARS - self.played.count(STAR)
        if star_count(counted) > stars_left:
            raise IllegalActionError(
                "strategix.impossible",
                n=star_count(counted),
                left=stars_left,
                seen=self._seen_text(),
            )
        if len(_cards_of(counted)) > self.counts[self.current]:
            raise IllegalActionError(
                "strategix.holds_only", name=self.players[self.current], n=self.counts[self.current]
            )
        return counted

    def _seen_text(self) -> str:
        return "".join(sorted(self.played, key=CARD_CODES.index)) or "-"

    def _parse_deal(self, body: str) -> Action:
        parts = [part.strip().upper() for part in body.split("/")]
        count = len(self.players)
        out = ""
        if self.is_two_player_game:
            if len(parts) != 3 or not parts[2].startswith("OUT"):
                raise NotationError("strategix.deal_two")
            out = "".join(parts.pop()[3:].split())
        hands = ["".join(part.split()) for part in parts]
        if len(hands) != count:
            raise NotationError("strategix.deal_hands", n=count)
        for cards in [*hands, out]:
            bad = set(cards) - set(CARD_CODES)
            if bad:
                raise NotationError("strategix.card_code", text=sorted(bad)[0])
        self._check_deal(hands, out)
        ordered = ["".join(sorted(hand, key=CARD_CODES.index)) for hand in hands]
        notation = "deal " + " / ".join(ordered)
        if out:
            notation += " / out " + "".join(sorted(out, key=CARD_CODES.index))
        return Action(notation, msg("strategix.said.deal"),
                      (tuple(ordered), "".join(sorted(out, key=CARD_CODES.index))))  # fmt: skip

    def _check_deal(self, hands: list[str], out: str) -> None:
        size = HAND_SIZE[len(self.players)]
        for player, hand in enumerate(hands):
            if len(hand) != size:
                raise IllegalActionError(
                    "strategix.hand_size", n=size, name=self.players[player], got=len(hand)
                )
        if out and (len(out) != REMOVED_TWO_PLAYERS or set(out) & set(_SET_ASIDE_TWO_PLAYERS)):
            raise IllegalActionError("strategix.out_cards")
        if sorted("".join(hands) + out) != sorted(FULL_DECK):
            raise IllegalActionError("strategix.not_the_deck")

    def _sample_chance(self, rng: random.Random) -> Action:
        if self.phase == "first":
            return rng.choice(self.legal_actions())
        deck = list(FULL_DECK)
        out: list[str] = []
        if self.is_two_player_game:
            letters = [card for card in deck if card not in _SET_ASIDE_TWO_PLAYERS]
            rng.shuffle(letters)
            out, kept = letters[:REMOVED_TWO_PLAYERS], letters[REMOVED_TWO_PLAYERS:]
            deck = kept + list(_SET_ASIDE_TWO_PLAYERS)
        rng.shuffle(deck)
        size = HAND_SIZE[len(self.players)]
        hands = ["".join(deck[i * size : (i + 1) * size]) for i in range(len(self.players))]
        text = " / ".join(hands) + (" / out " + "".join(out) if out else "")
        return self._parse_deal(text)

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
        best, worst = _best_card(self.hands[padbolix]), _worst_card(self.hands[dubolix])
        self.hands[padbolix] = self._sorted(_remove_cards(self.hands[padbolix], best) + worst)
        self.hands[dubolix] = self._sorted(_remove_cards(self.hands[dubolix], worst) + best)
        self.exchange = (padbolix, best, dubolix, worst)

    @staticmethod
    def _sorted(hand: str) -> str:
        return "".join(sorted(hand, key=CARD_CODES.index))

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
            self.hands[player] = _remove_cards(self.hands[player], cards)
        self.trick.append((player, notation))

    def _apply_play(self, play: Play) -> None:
        top = self.top_play()
        copy = top is not None and declared(play) == declared(top)
        self._lay(_cards_of(play), "play " + play_text(play))
        self.top = (self.current, play)
        self.after_petard = False
        last = _cards_of(play) + ("Z" if has_z(play) else "")
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
                "top": {
                    "player": self.top[0],
                    "play": play_text(top),
                    "strength": LETTERS[strength(top)],
                }
                if top
                else None,  # fmt: skip
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
            "seen": self._seen_view(),
            "exchange": self._exchange_view(player),
            "round_points": [list(points) for points in self.round_points],
            "scores": self.scores(),
            "winners": self.winners(),
        }

    def _seen_view(self) -> dict[str, Any]:
        return {
            "stars": self.played.count(STAR),
            "petards": self.played.count(PETARD),
            "letters": {letter: self.played.count(letter) for letter in LETTERS},
        }

    def _exchange_view(self, player: int | None) -> dict[str, Any] | None:
        if self.exchange is None:
            return None
        padbolix, best, dubolix, worst = self.exchange
        shown = player in (padbolix, dubolix)
        return {"padbolix": padbolix, "dubolix": dubolix,
                "given_by_padbolix": best if shown else None,
                "given_by_dubolix": worst if shown else None}  # fmt: skip

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
