"""Le Roudalon: stake into a collective pot or throw your dice to hit it exactly, alone or allied.

RULINGS (Le Roudalon) fixes the reading of the short rule book (cited R1-R7). A throw alone is
handled as an alliance of one: the thrower's own dice then make the whole pot. The state here
keeps the turn, plays the actions out and shows the position; a player's actions are listed in
`_roudalon_actions` and text is read in `_roudalon_notation`.
"""

from __future__ import annotations

import random
from typing import Any

from engines._roudalon_actions import left_of, player_actions
from engines._roudalon_notation import not_now, parse
from engines.core import (
    CHANCE,
    Action,
    Actor,
    DiceWanted,
    EngineError,
    Game,
    Option,
    OptionError,
    State,
    int_range,
)
from engines.dice import D6_FACES, all_rolls, random_roll
from engines.messages import Message, as_data, define, msg

DICE_OWNED = 2
# (dice held, dice thrown) -> how the throw reads in French and English
MAX_FACE = 6
PHASES = ("rolloff", "turn", "offer", "alliance", "throw", "roll", "over")


class Roudalon(Game):
    name = "roudalon"
    title = "Le Roudalon"
    min_players = 4
    max_players = 6
    options = (
        Option(
            "stake_min",
            1,
            parse=int,
            check=int_range(1, 99),
        ),
        Option(
            "stake_max",
            6,
            parse=int,
            check=int_range(1, 99),
        ),
        Option(
            "games",
            1,
            parse=int,
            check=int_range(1, 50),
        ),
    )

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        return (4, 6)

    def _check_setup(self) -> None:
        if self.num_players not in self.player_counts():
            raise OptionError("roudalon.players", game=self.title, n=self.num_players)
        if self.option("stake_min") > self.option("stake_max"):
            raise OptionError(
                "roudalon.stake_range", low=self.option("stake_min"), high=self.option("stake_max")
            )

    def new_state(self) -> RoudalonState:
        return RoudalonState(self)


class RoudalonState(State):
    def __init__(self, game: Roudalon) -> None:
        super().__init__(game)
        count = game.num_players
        self.totals: list[int] = [0] * count
        self.results: list[tuple[int, ...]] = []
        self.voids: list[bool] = []
        self.last: Message | None = None  # what the last action did, for the table
        self._new_game()

    def _new_game(self) -> None:
        count = len(self.players)
        self.phase = "rolloff"
        self.held: list[int] = [1] * count  # each owns two dice but starts holding one (R1)
        self.pot = 0
        self.staked: list[int] = [0] * count
        self.current: int | None = None
        self.must_stake = True
        self.rolloff: list[tuple[int, int | None]] = [(p, None) for p in range(count)]
        self._clear_turn()

    def _clear_turn(self) -> None:
        self.alliance: list[int] = []
        self.offered_to: int | None = None
        self.throws: list[tuple[int, tuple[int, ...]]] = []
        self.next_thrower = 0  # index in the alliance of the ally to throw next
        self.dice_to_roll = 0

    # ----- whose turn ---------------------------------------------------------------------------

    @property
    def actor(self) -> Actor | None:
        if self.phase in ("rolloff", "roll"):
            return CHANCE
        if self.phase == "turn":
            return self.current
        if self.phase == "offer":
            return self.offered_to
        if self.phase == "alliance":
            return self.alliance[-1]
        if self.phase == "throw":
            return self.alliance[self.next_thrower]
        return None

    def dice_wanted(self) -> DiceWanted | None:
        """Two dice for a roll-off (R1), else the dice the thrower chose to throw."""
        if self.phase == "rolloff":
            return DiceWanted(2, "d6")
        if self.phase == "roll":
            return DiceWanted(self.dice_to_roll, "d6")
        return None

    def chance_prompt(self) -> Message | None:
        if self.phase == "rolloff":
            player = next(p for p, total in self.rolloff if total is None)
            return msg("roudalon.expect.rolloff", name=self.players[player])
        if self.phase == "roll":
            thrower = self.players[self.alliance[self.next_thrower]]
            return msg("roudalon.expect.roll", n=self.dice_to_roll, name=thrower)
        return None

    # ----- legal actions ------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        if self.phase == "rolloff":
            return all_rolls(2, D6_FACES)
        if self.phase == "roll":
            return all_rolls(self.dice_to_roll, D6_FACES)
        return player_actions(self)

    # ----- reading text -------------------------------------------------------------------------

    def _parse(self, text: str) -> Action:
        return parse(self, text)

    def _illegal(self, text: str) -> EngineError:
        return not_now(self, text)

    def _sample_chance(self, rng: random.Random) -> Action:
        # Dice thrown independently: the listed outcomes (1 1, 1 2, ...) are not equally likely.
        count = 2 if self.phase == "rolloff" else self.dice_to_roll
        return random_roll(rng, count)

    # ----- applying -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        word = action.notation.split()[0]
        self.last = action.message
        if self.phase == "rolloff":
            self._apply_rolloff(action)
        elif word == "roll":
            self._apply_throw(tuple(int(face) for face in action.data))
        elif word == "stake":
            self._apply_stake(action.data)
        elif word == "throw":
            if not self.alliance:
                self.alliance = [self.current]
            self.dice_to_roll, self.phase = action.data, "roll"
        elif word == "offer":
            if not self.alliance:
                self.alliance = [self.current]
            self.offered_to, self.phase = left_of(self.alliance[-1], len(self.players)), "offer"
        elif word in ("yes", "no"):
            self._apply_answer(action.data)
        else:  # close
            self.phase, self.next_thrower = "throw", 0

    def _apply_rolloff(self, action: Action) -> None:
        """R1: everyone rolls two dice; the highest total starts; those tied on top roll again."""
        index = next(i for i, (_, total) in enumerate(self.rolloff) if total is None)
        player = self.rolloff[index][0]
        total = sum(int(face) for face in action.data)
        self.rolloff[index] = (player, total)
        dice = " ".join(str(face) for face in action.data)
        self.last = msg("roudalon.said.rolloff", name=self.players[player], dice=dice, total=total)
        if any(total is None for _, total in self.rolloff):
            return
        best = max(total for _, total in self.rolloff)
        top = [p for p, total in self.rolloff if total == best]
        if len(top) > 1:
            self.rolloff = [(p, None) for p in top]
            return
        self.current, self.phase = top[0], "turn"
        self.last = msg("roudalon.said.starts", what=self.last, name=self.players[top[0]])

    def _apply_stake(self, amount: int) -> None:
        player = self.current
        self.pot += amount
        self.staked[player] += amount
        if self.held[player] < DICE_OWNED:
            self.held[player] += 1  # R3: a staking turn gives a die back
        self._end_turn()

    def _apply_answer(self, accept: bool) -> None:
        if accept:
            self.alliance.append(self.offered_to)
            self.offered_to, self.phase = None, "alliance"
        else:
            self.offered_to, self.phase, self.next_thrower = None, "throw", 0

    def _apply_throw(self, faces: tuple[int, ...]) -> None:
        ally = self.alliance[self.next_thrower]
        self.throws.append((ally, faces))
        total = sum(sum(dice) for _, dice in self.throws)
        last = self.next_thrower == len(self.alliance) - 1
        name, shown = self.players[ally], " + ".join(map(str, faces))
        self.last = msg("roudalon.said.thrown", name=name, dice=shown, total=total, pot=self.pot)
        if total > self.pot or (last and total < self.pot):
            self.held[ally] -= len(faces)  # R4/R5: this ally loses the dice thrown
            self.last = msg(f"roudalon.said.missed.{len(faces)}", what=self.last, name=name)
            self._end_turn()
        elif last:
            self._share_pot()
        else:
            self.next_thrower += 1
            self.phase = "throw"

    def _share_pot(self) -> None:
        """R4/R5: the pot is hit; each ally takes what their own dice showed."""
        taken = [0] * len(self.players)
        for ally, faces in self.throws:
            taken[ally] += sum(faces)
        shares = ", ".join(f"{self.players[p]} {taken[p]}" for p in self.alliance)
        self.last = msg("roudalon.said.hit", what=self.last, shares=shares)
        self._end_game([t - s for t, s in zip(taken, self.staked, strict=True)], void=False)

    def _end_turn(self) -> None:
        """Pass the turn to the left of the player whose turn it was, unless the pot is dead."""
        self.must_stake = False
        if self.pot > self._most_dice_can_show():
            self.last = msg("roudalon.said.void", pot=self.pot)
            self._end_game([0] * len(self.players), void=True)  # R7: stakes returned
            return
        self.current = left_of(self.current, len(self.players))
        self.phase = "turn"
        self._clear_turn()

    def _most_dice_can_show(self) -> int:
        """R7 as clarified: no die leaves the game for good (a stake gives one back), so every
        player's two dice count, not only the dice held now."""
        return MAX_FACE * DICE_OWNED * len(self.players)

    def _end_game(self, results: list[int], void: bool) -> None:
        self.results.append(tuple(results))
        self.voids.append(void)
        self.totals = [t + r for t, r in zip(self.totals, results, strict=True)]
        if len(self.results) >= self.game.option("games"):
            self.phase, self.current = "over", None
            self._clear_turn()  # the last game's pot and stakes stay to be seen
            return
        self._new_game()

    # ----- scores and views ---------------------------------------------------------------------

    def scores(self) -> list[int]:
        """The totals, less this game's stakes while it is played (once over, its results
        count them)."""
        if self.phase == "over":
            return list(self.totals)
        return [total - stake for total, stake in zip(self.totals, self.staked, strict=True)]

    def _view(self, player: int | None) -> dict[str, Any]:
        in_throw = self.phase in ("throw", "roll")
        return {
            "game": "roudalon",
            "phase": self.phase,
            "players": list(self.players),
            "game_number": min(len(self.results) + 1, self.game.option("games")),
            "games": self.game.option("games"),
            "current": self.current,
            "held": list(self.held),
            "pot": self.pot,
            "staked": list(self.staked),
            "must_stake": self.must_stake and self.phase == "turn",
            "alliance": list(self.alliance),
            "offered_to": self.offered_to,
            "throws": [[p, list(faces)] for p, faces in self.throws],
            "running_total": sum(sum(faces) for _, faces in self.throws),
            "next_thrower": self.alliance[self.next_thrower] if in_throw else None,
            "rolloff": [[p, total] for p, total in self.rolloff] if self.phase == "rolloff" else [],
            "results": [list(r) for r in self.results],
            "void": list(self.voids),
            "totals": list(self.totals),
            "scores": self.scores(),
            "last_said": as_data(self.last),
            "winners": self.winners(),
        }

    def check_invariants(self) -> None:
        assert self.phase in PHASES
        assert all(0 <= held <= DICE_OWNED for held in self.held)
        assert self.pot == sum(self.staked) and all(s >= 0 for s in self.staked)
        if self.alliance:
            assert (
                len(self.alliance) == len(set(self.alliance)) and self.alliance[0] == self.current
            )
            assert self.phase in ("offer", "alliance", "throw", "roll")
        if self.phase in ("throw", "roll"):
            assert all(self.held[ally] > 0 for ally in self.alliance[self.next_thrower :])
        for results, void in zip(self.results, self.voids, strict=True):
            assert sum(results) == 0, "a game's results balance: the pot goes back to players"
            assert not void or not any(results)
        assert sum(self.totals) == 0


define(
    {
        "option_help.stake_min": "Smallest stake in UM (R3 option: stake range).",
        "option_help.stake_max": "Largest stake in UM (R3 option: stake range).",
        "option_help.games": "Games in the match; results add up and the highest total wins (R6).",
        "roudalon.said.rolloff": "{name} rolled {total} ({dice}) in the roll-off",
        "roudalon.said.starts": "{what}: {name} starts",
        "roudalon.said.stake": "{name} stakes {amount} UM (pot: {pot} UM)",
        "roudalon.said.throw.1.1": "{name} throws their die (pot: {pot} UM)",
        "roudalon.said.throw.2.1": "{name} throws one of their two dice (pot: {pot} UM)",
        "roudalon.said.throw.2.2": "{name} throws both dice (pot: {pot} UM)",
        "roudalon.said.offer": "{name} offers {other} an alliance",
        "roudalon.said.yes": "{name} joins the alliance",
        "roudalon.said.no": "{name} declines the alliance",
        "roudalon.said.close": "Alliance closed ({allies}): the throws begin",
        "roudalon.said.thrown": "{name}: {dice}, total {total} for a pot of {pot} UM",
        "roudalon.said.missed.1": "{what}: missed, {name} loses the die",
        "roudalon.said.missed.2": "{what}: missed, {name} loses both dice",
        "roudalon.said.hit": "{what}: the pot is hit ({shares} UM)",
        "roudalon.said.void": "Pot of {pot} UM beyond every die in play: void game",
        "roudalon.players": "{game} takes 4 or 6 players, got {n}",
        "roudalon.stake_range": "stakes: the lowest stake {low} is above the highest {high}",
        "roudalon.expect.rolloff": "roll <2 faces 1-6> (roll-off: {name})",
        "roudalon.expect.roll": "roll <{n:plural.roudalon.faces} 1-6> ({name}'s throw)",
        "plural.roudalon.faces": ("{n} face", "{n} faces"),
        "roudalon.threw": "{name} threw {n:plural.roudalon.threw}",
        "plural.roudalon.threw": (
            "1 die: roll and its face, e.g. roll 4",
            "{n} dice: roll and their faces, e.g. roll 4 2",
        ),
        "roudalon.waiting": "waiting for the dice: {hint}",
        "roudalon.not_legal": "'{text}' is not legal now (expected: {expected})",
        "roudalon.answer": "{name} must answer the alliance offer: yes or no",
        "roudalon.no_dice_awaited": "no dice are awaited: {name} is to act (expected: {expected})",
        "roudalon.stake_when": "a stake is made at the start of one's own turn, not during a throw",
        "roudalon.stake_amount": "a stake is a whole number of UM from {low} to {high} (stake "
        "{low})",
        "roudalon.stake_first": "the first turn of a game must be a stake",
        "roudalon.close_first": "the alliance must be closed before the throws begin (close)",
        "roudalon.no_die": "{name} holds no die and can only stake",
        "roudalon.holds.1": "{name} holds 1 die: throw 1",
        "roudalon.holds.2": "{name} holds 2 dice: throw 1 or throw 2",
        "roudalon.closed": "the alliance is closed: the throws have begun",
        "roudalon.all_allied": "everyone to the left is already in the alliance",
        "roudalon.left_no_die": "{name}, on the left, holds no die to throw",
    }
)
