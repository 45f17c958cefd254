"""The demo's bot: it plays through the controller like a person would.

A bot looks at the screen's move targets and taps one; in Struggle it sometimes touches dice of
its hand and presses the reroll button. Its level says who decides (companion/bot_choice.py):
`simple` (the demo's bot: random, or a one-look greedy choice in the dice games) or the advisor
at a time budget (`advisor`, `advisor-fast`). Bot seats and the bench take the same choice as a
plain function of an engine state, `companion.bot_choice.make_player(level, seed)`.

For the dice, a bot plays the players who look at the tray: where the reader got a die wrong it
taps that die and picks the true face (the simulated camera's truth), the same correction path
a real user has. Every choice is seeded by the game
seed and the number of actions so far, so a resumed demo makes the same choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import advisor
import engines
from companion.bot_choice import CHOOSERS, LEVELS, choose_random, rng_for
from companion.controller import Controller
from companion.events import Press, Tap
from display.model import Target

MATCH_RADIUS = 40.0  # px: a read die this close to a true die is that die


class Bot:
    def __init__(self, seed: int, rethrow_chance: float = 0.2, level: str = "simple") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
        self.seed = seed
        self.rethrow_chance = rethrow_chance
        self.level = level

    def play_turn(self, controller: Controller) -> None:
        """Make the acting player's choice by tapping the screen's targets."""
        state = controller.state
        assert state is not None and isinstance(state.actor, int)
        if LEVELS[self.level] is not None:
            self._play_advised(controller, state)
            return
        rng = rng_for(self.seed, state)
        hand = controller.table.hand()
        if hand and state.view(None).get("throws") == 1 and rng.random() < self.rethrow_chance:
            chosen = sorted(rng.sample(range(len(hand)), rng.randint(1, min(2, len(hand)))))
            for index in chosen:
                controller.handle(Tap(f"hand:{index}"))
            controller.handle(Press("reroll"))
            return
        targets = every_move(controller, state)  # a card of the hand untouched: all of them
        if not targets:
            raise RuntimeError(f"no move to choose for {state.players[state.actor]}: {state}")
        chooser = CHOOSERS.get(state.game.name, choose_random)
        controller.handle(Tap(chooser(state, targets, rng).id))

    def _play_advised(self, controller: Controller, state: engines.State) -> None:
        """Tap the advisor's best choice that the screen offers (re-throws: dice, then reroll)."""
        offered = {target.id for target in every_move(controller, state)}
        hand = controller.table.hand()
        for choice in advisor.advise(state, LEVELS[self.level] or 0.0):
            if choice.notation.startswith("rethrow ") and hand:
                for index in _hand_indices(hand, choice.notation.split()[1:]):
                    controller.handle(Tap(f"hand:{index}"))
                controller.handle(Press("reroll"))
                return
            if f"move:{choice.notation}" in offered:
                controller.handle(Tap(f"move:{choice.notation}"))
                return
        raise RuntimeError(f"no advised move is offered for {state.players[state.actor]}")

    def correct_dice(self, controller: Controller, truth: Sequence[Any]) -> int:
        """Fix the proposal against the true dice (value, center); returns the taps made."""
        proposal = controller.table.turn.proposal
        assert proposal is not None
        taps = 0
        unmatched = list(range(len(truth)))
        for index in reversed(range(len(proposal.faces))):
            match = nearest(proposal.centers[index], truth, unmatched)
            if match is None:
                controller.handle(Tap(f"die:{index}"))
                controller.handle(Tap("die:remove"))
                taps += 1
                continue
            unmatched.remove(match)
            wanted = str(truth[match].value)
            if proposal.faces[index] != wanted or index in proposal.unsure:  # fix, or settle
                controller.handle(Tap(f"die:{index}"))
                controller.handle(Tap(f"face:{wanted}"))
                taps += 1
        for match in unmatched:
            controller.handle(Tap("die:add"))
            controller.handle(Tap(f"face:{truth[match].value}"))
            taps += 1
        return taps


def _hand_indices(hand: Sequence[str], faces: Sequence[str]) -> list[int]:
    """Which dice of the hand to touch to re-throw `faces` (one die per face listed)."""
    free = list(range(len(hand)))
    chosen = []
    for face in faces:
        index = next(i for i in free if hand[i] == face)
        free.remove(index)
        chosen.append(index)
    return sorted(chosen)


def nearest(
    center: tuple[float, float] | None, truth: Sequence[Any], candidates: list[int]
) -> int | None:
    if center is None:
        return None
    best, best_distance = None, MATCH_RADIUS
    for index in candidates:
        tx, ty = truth[index].center
        distance = ((tx - center[0]) ** 2 + (ty - center[1]) ** 2) ** 0.5
        if distance < best_distance:
            best, best_distance = index, distance
    return best


def every_move(controller: Controller, state: engines.State) -> list[Target]:
    """Every move the table offers, those reached through a card of the hand included."""
    return [Target(f"move:{c.notation}", c.label) for c in controller.table.choices(state)]
