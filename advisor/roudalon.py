"""Le Roudalon's advisor: exact chances of hitting the pot, alone or allied, and the chance of
winning the game that each stake, throw and offer leaves, computed exactly.

Le Roudalon hides nothing; the only uncertainty is the dice and what the others will do. The
others are taken to play the natural rule (throw the dice that give the best chance when it is
at least THROW_AT, 1 in 9, else stake the least); against them the chance of winning of every
position of the game (pot, dice held, whose turn) is computed once by backward induction: a
stake only ever raises the pot and a throw that misses only ever costs dice, so every position
leads to higher pots or fewer dice and the values are filled from the highest pot down. A void
game (the pot past every die in play) counts as a shared first place: 1 / players, as does a
hit by the only player who has staked yet (their result is 0 like everyone's: the opening,
valued apart). That is how a stake is chosen: not always the least, but the one that leaves the
pot where the others' dice are weak and one's own strong.

An alliance is the other players' to accept: an offer counts their answers as even odds (yes
or no; after a yes, closing or offering on), their dice as either count, and a hit by the
alliance as a win only when the player's take minus their stakes is the larger. Past 12 the
pot is out of every single player's reach and the game heads for a void; an offer is then a
cheap ticket, worth a little more than the void's share. (A Monte-Carlo search over playouts
was tried first and lost: its few hundred playouts a decision were too noisy for a game decided
by one-in-six shots.)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from advisor.core import Choice, Deadline, Reason, ranked
from engines.core import State

MAX_FACE = 6
DICE_OWNED = 2
THROW_AT = Fraction(1, 9)
OFFER_AT = Fraction(1, 20)
ALLY_SAYS_YES = 0.5  # an offer's answer is the neighbour's to give: taken as even odds

Held = tuple[int, ...]  # dice held per seat, counted from the advised player's seat (0)


@cache
def sum_chance(dice: int, total: int) -> Fraction:
    """The exact chance that `dice` fair six-sided dice show `total` (0 dice: total 0)."""
    if dice == 0:
        return Fraction(int(total == 0))
    if not dice <= total <= MAX_FACE * dice:
        return Fraction(0)
    return sum((sum_chance(dice - 1, total - face) for face in range(1, MAX_FACE + 1)),
               Fraction(0)) / MAX_FACE  # fmt: skip


def alliance_chance(held: tuple[int, ...], pot: int) -> Fraction:
    """The chance that allies holding `held` dice (in throwing order) end exactly on `pot`.

    Each ally, seeing the running total, throws the number of dice (1 .. what they hold) that
    gives the best chance; an exact total before the last ally is a miss (the next ally must
    throw and overshoots), as is any total past the pot.
    """
    return _best_from(held, pot)


@cache
def _best_from(held: tuple[int, ...], left: int) -> Fraction:
    if not held or left <= 0:
        return Fraction(0)
    if len(held) == 1:
        return max(sum_chance(n, left) for n in range(1, held[0] + 1))
    rest = held[1:]
    best = Fraction(0)
    for n in range(1, held[0] + 1):
        chance = sum(
            (sum_chance(n, s) * _best_from(rest, left - s) for s in range(n, left)), Fraction(0)
        )
        best = max(best, chance)
    return best


# ----- the chance of winning of every position ---------------------------------------------------


@cache
def _hit(dice: int, pot: int) -> float:
    return float(sum_chance(dice, pot))


def natural_throw(held: int, pot: int) -> int:
    """The dice the natural rule throws at `pot` holding `held` (0: it stakes instead)."""
    best = max(range(1, held + 1), key=lambda n: _hit(n, pot), default=0)
    return best if best and sum_chance(best, pot) >= THROW_AT else 0


class WinTable:
    """The advised player's chance of winning in every position of one game between turns."""

    def __init__(self, players: int, stake_min: int, stake_max: int, offers: bool = True) -> None:
        self.players = players
        self.offers = offers
        self.stakes = range(stake_min, stake_max + 1)
        self.limit = MAX_FACE * DICE_OWNED * players  # a larger pot is a void game (R7)
        self.void = 1.0 / players
        self.values: dict[tuple[int, Held, int], float] = {}
        self._opening: dict[tuple[int, Held, int, int], float] = {}
        helds = sorted(product(range(DICE_OWNED + 1), repeat=players), key=sum)
        for pot in range(self.limit, 0, -1):
            for held in helds:
                for seat in range(players):
                    self.values[pot, held, seat] = self._value(pot, held, seat)

    def value(self, pot: int, held: Held, seat: int) -> float:
        """The chance of winning when `seat` (0: the advised player) is to play at `pot`."""
        if pot > self.limit:
            return self.void
        return self.values[pot, held, seat]

    def after_stake(self, pot: int, held: Held, seat: int, amount: int) -> float:
        more = held[:seat] + (min(DICE_OWNED, held[seat] + 1),) + held[seat + 1 :]
        return self.value(pot + amount, more, (seat + 1) % self.players)

    def after_throw(self, pot: int, held: Held, seat: int, dice: int) -> float:
        """A throw alone: the pot taken (won by the thrower), else the dice lost."""
        hit = _hit(dice, pot)
        fewer = held[:seat] + (held[seat] - dice,) + held[seat + 1 :]
        missed = self.value(pot, fewer, (seat + 1) % self.players)
        return hit * float(seat == 0) + (1 - hit) * missed

    def _value(self, pot: int, held: Held, seat: int) -> float:
        if seat != 0:
            dice = natural_throw(held[seat], pot)
            if dice:
                return self.after_throw(pot, held, seat, dice)
            return self.after_stake(pot, held, seat, self.stakes[0])
        options = [self.after_stake(pot, held, 0, k) for k in self.stakes]
        throws = [self.after_throw(pot, held, 0, n) for n in range(1, held[0] + 1)]
        if throws and held[1] and self.offers:
            options.append(self.offer_value(pot, held, (0,) * len(held)))
        return max(options + throws)

    # ----- the opening: one player alone has staked ------------------------------------------

    def opening(self, pot: int, held: Held, seat: int, sole: int) -> float:
        """The chance of winning while `sole` alone has staked: a hit by them takes back no
        more than their own stake, a result of 0 like every other player's, so all share the
        first place; a hit by anyone else is theirs alone. A second player's stake ends it."""
        if pot > self.limit:
            return self.void
        key = (pot, held, seat, sole)
        if key not in self._opening:
            self._opening[key] = self._opening_value(pot, held, seat, sole)
        return self._opening[key]

    def opening_stake(self, pot: int, held: Held, seat: int, sole: int | None,
                      amount: int) -> float:  # fmt: skip
        """A stake when at most one player has staked (`sole`; None: nobody yet)."""
        more = held[:seat] + (min(DICE_OWNED, held[seat] + 1),) + held[seat + 1 :]
        following = (seat + 1) % self.players
        if sole is None or sole == seat:
            return self.opening(pot + amount, more, following, seat)
        return self.value(pot + amount, more, following)

    def opening_throw(self, pot: int, held: Held, seat: int, sole: int, dice: int) -> float:
        hit = _hit(dice, pot)
        taken = self.void if seat == sole else float(seat == 0)
        missed = self.opening(pot, _lose(held, seat, dice), (seat + 1) % self.players, sole)
        return hit * taken + (1 - hit) * missed

    def _opening_value(self, pot: int, held: Held, seat: int, sole: int) -> float:
        if seat != 0:
            dice = natural_throw(held[seat], pot)
            if dice:
                return self.opening_throw(pot, held, seat, sole, dice)
            return self.opening_stake(pot, held, seat, sole, self.stakes[0])
        options = [self.opening_stake(pot, held, 0, sole, k) for k in self.stakes]
        options += [self.opening_throw(pot, held, 0, sole, n) for n in range(1, held[0] + 1)]
        return max(options)

    def offer_value(self, pot: int, held: Held, staked: Held) -> float:
        """An offer to the left neighbour, whose answers are theirs to give: yes or no as
        likely, and after a yes, closing or offering on to their own neighbour as likely (an
        alliance of three, where the first thrower's take is the smallest, is counted as the
        dice lost). After a no the player throws alone."""
        dice = range(1, held[0] + 1)
        alone = max(self.after_throw(pot, held, 0, n) for n in dice)
        allied = max(_allied_throw(self, pot, held, staked, n) for n in dice)
        if self.players > 2 and held[2]:
            allied = (allied + self.value(pot, _lose(held, 0, 1), 1)) / 2
        return ALLY_SAYS_YES * allied + (1 - ALLY_SAYS_YES) * alone


@cache
def win_table(players: int, stake_min: int, stake_max: int) -> WinTable:
    return WinTable(players, stake_min, stake_max)


# ----- the advice --------------------------------------------------------------------------------


def advise(state: State, deadline: Deadline) -> list[Choice]:
    view = state.view(None)
    player = state.actor
    if view["phase"] == "turn":
        return ranked(_turn_choices(state, view, player))
    if view["phase"] == "throw" and view["alliance"][:1] == [player] and len(view["alliance"]) == 2:
        return ranked(_first_ally_choices(state, view, player))
    return ranked([_choice(view, player, action.notation) for action in state.legal_actions()])


def _turn_choices(state: State, view: dict, player: int) -> list[Choice]:
    """Stakes and throws by the chance of winning they leave; an offer by its own odds."""
    option = state.game.option
    players = len(view["held"])
    table = win_table(players, option("stake_min"), option("stake_max"))
    held = tuple(view["held"][(player + i) % players] for i in range(players))
    pot = view["pot"]
    stakers = [i for i in range(players) if view["staked"][(player + i) % players]]
    sole = None if not stakers else stakers[0] if len(stakers) == 1 else -1
    choices = []
    for action in state.legal_actions():
        word, *rest = action.notation.split()
        if word == "stake":
            amount = int(rest[0])
            if sole == -1:
                win = table.after_stake(pot, held, 0, amount)
            else:
                win = table.opening_stake(pot, held, 0, sole, amount)
            params = {"amount": amount, "pot": pot + amount, "win": round(win, 4)}
            choices.append(Choice(action.notation, win, "win", Reason("roudalon.stake", params)))
        elif word == "throw":
            dice = int(rest[0])
            if sole is None or sole == -1:
                win = table.after_throw(pot, held, 0, dice)
            else:
                win = table.opening_throw(pot, held, 0, sole, dice)
            alone = sum_chance(dice, pot)
            params = {"dice": dice, "ways": int(alone * MAX_FACE**dice),
                      "outcomes": MAX_FACE**dice, "pot": pot, "chance": round(float(alone), 4),
                      "win": round(win, 4)}  # fmt: skip
            choices.append(Choice(action.notation, win, "win", Reason("roudalon.throw", params)))
        else:
            choices.append(_offer_choice(view, player, table, held))
    return choices


def _offer_choice(view: dict, player: int, table: WinTable, held: Held) -> Choice:
    """An offer to the left neighbour: if they refuse, the player throws alone."""
    pot, players = view["pot"], len(held)
    staked = tuple(view["staked"][(player + i) % players] for i in range(players))
    win = table.offer_value(pot, held, staked)
    chance = float(alliance_chance((held[0], held[1]), pot))
    params = {"pot": pot, "chance": round(chance, 4), "win": round(win, 4)}
    return Choice("offer", win, "win", Reason("roudalon.offer", params))


def _first_ally_choices(state: State, view: dict, player: int) -> list[Choice]:
    """The first throw of an alliance of two: by the chance of winning, which counts whose
    take is the larger, not only the chance of ending on the pot."""
    option = state.game.option
    players = len(view["held"])
    table = win_table(players, option("stake_min"), option("stake_max"))
    held = tuple(view["held"][(player + i) % players] for i in range(players))
    staked = tuple(view["staked"][(player + i) % players] for i in range(players))
    pot, choices = view["pot"], []
    for action in state.legal_actions():
        dice = int(action.notation.split()[1])
        win = _allied_throw(table, pot, held, staked, dice)
        alone = sum_chance(dice, pot)
        params = {"dice": dice, "ways": int(alone * MAX_FACE**dice), "outcomes": MAX_FACE**dice,
                  "pot": pot, "chance": round(float(alone), 4), "win": round(win, 4)}  # fmt: skip
        choices.append(Choice(action.notation, win, "win", Reason("roudalon.throw", params)))
    return choices


def _allied_throw(table: WinTable, pot: int, held: Held, staked: Held, dice: int) -> float:
    """The chance of winning when the player throws `dice` first in an alliance with the left
    neighbour, who then throws one die or two: their choice, each taken as likely.

    A hit ends the game with each ally taking what their dice showed: the player wins if their
    take minus their stakes is above the ally's (half of it on a tie; the others only staked).
    A miss costs the dice of whoever overshot or fell short, and the turn passes to the left.
    """
    players = len(held)
    win = 0.0
    for first in range(dice, MAX_FACE * dice + 1):
        chance = _hit(dice, first)
        if first > pot:
            win += chance * table.value(pot, _lose(held, 0, dice), 1 % players)
            continue
        need = pot - first
        mine, theirs = first - staked[0], need - staked[1]
        top = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        counts = range(1, held[1] + 1)
        for second in counts:  # the ally's choice is theirs: each count as likely
            hit = _hit(second, need)
            missed = table.value(pot, _lose(held, 1, second), 1 % players)
            win += chance * (hit * top + (1 - hit) * missed) / len(counts)
    return win


def _lose(held: Held, seat: int, dice: int) -> Held:
    return held[:seat] + (held[seat] - dice,) + held[seat + 1 :]


def _choice(view: dict, player: int, notation: str) -> Choice:
    """The decisions inside an alliance, by the chance that the allies hit the pot."""
    word, *rest = notation.split()
    pot, held = view["pot"], view["held"]
    left = pot - view["running_total"]
    if word == "throw":
        dice = int(rest[0])
        chance = _throw_chance(view, player, dice, left)
        alone = sum_chance(dice, left)
        params = {"dice": dice, "ways": int(alone * MAX_FACE**dice), "outcomes": MAX_FACE**dice,
                  "pot": left, "chance": round(float(chance), 4)}  # fmt: skip
        return Choice(notation, float(chance), "chance", Reason("roudalon.throw", params))
    allies = view["alliance"] or [view["current"]]
    if word in ("offer", "yes"):
        allies = allies + [(allies[-1] + 1) % len(held)]
    chance = alliance_chance(tuple(held[p] for p in allies), pot)
    figure = float(chance)
    params = {"pot": pot, "chance": round(float(chance), 4)}
    if word in ("yes", "no"):
        params["answer"] = word
        figure = figure if word == "yes" else float(OFFER_AT)
        return Choice(notation, figure, "chance", Reason("roudalon.answer", params))
    code = "roudalon.offer" if word == "offer" else "roudalon.close"
    return Choice(notation, figure, "chance", Reason(code, params))


def _throw_chance(view: dict, player: int, dice: int, left: int) -> Fraction:
    """The chance that this throw ends in a hit: alone, or with the allies still to throw."""
    alliance = view["alliance"]
    rest = alliance[alliance.index(player) + 1 :] if player in alliance else []
    if not rest:
        return sum_chance(dice, left)
    after = tuple(view["held"][p] for p in rest)
    return sum(
        (sum_chance(dice, s) * alliance_chance(after, left - s) for s in range(dice, left)),
        Fraction(0),
    )
