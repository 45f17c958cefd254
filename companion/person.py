"""A person at the table, simulated: looks at the screen the real app loop drew, touches its
targets through pygame mouse events, throws the simulated dice, corrects misread dice, and
counts the taps each move took. `tabletop bench table` and the app-loop test play with it.

It decides *what* to play from the engine (as a player knows the rules and their cards); *how*
is only by touching what is on screen: the piece first, then the move, paging when needed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

import engines
from companion.bot_choice import CHOOSERS, choose_random
from companion.bots import nearest
from display.model import Screen, Target

WAIT_S = 90.0  # the longest a roll may take to be thrown, rendered and read
Check = Callable[[Any], None]  # called with the app after every touch


class Stuck(RuntimeError):
    """The person could not find on screen what they wanted to touch."""


@dataclass
class Tally:
    """Taps per player move, taps per roll, pages turned for one move at most."""

    move_taps: list[int] = field(default_factory=list)
    roll_taps: list[int] = field(default_factory=list)
    pages_max: int = 0
    screens: int = 0


class Person:
    def __init__(self, app: Any, seed: int = 0, check: Check | None = None) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.check = check
        self.tally = Tally()
        self.taps = 0

    # ----- looking and touching -------------------------------------------------------------

    @property
    def controller(self) -> Any:
        return self.app.controller

    @property
    def screen(self) -> Screen:
        return self.app.screen

    def targets(self) -> dict[str, Any]:
        """The target ids drawn on screen and where (the topmost of each)."""
        return {target_id: rect for rect, target_id in self.app.window.renderer.hits}

    def sees(self, target_id: str) -> bool:
        return target_id in self.targets()

    def tap(self, target_id: str) -> None:
        """Touch the middle of what is drawn for `target_id`, through the window's events."""
        rect = self.targets().get(target_id)
        if rect is None:
            raise Stuck(f"{target_id!r} is not on screen ({self.screen.turn!r})")
        window = self.app.window
        x, y = rect.center
        physical = _to_physical((x, y), window.size, window.rotation)
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=physical, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=physical, button=1))
        self.taps += 1
        self.settle()

    def settle(self) -> None:
        """Run the loop until the events were handled and the screen drawn again."""
        self.app.step()
        while pygame.event.peek((pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)):
            self.app.step()
        self.app.dirty = True  # the person looks at the newest screen
        self.app.step()
        self.tally.screens += 1
        if self.check is not None:
            self.check(self.app)

    def wait(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done():
            if time.monotonic() > deadline:
                raise Stuck(f"waited {WAIT_S:.0f} s for {what}")
            self.app.step()
            time.sleep(0.002)
        self.settle()

    # ----- a game ---------------------------------------------------------------------------

    def start(self, game: str, players: int) -> None:
        """From the home screen: the game, the number of players, start."""
        self.tap("nav:home")
        self.tap(f"game:{game}")
        while len(self.controller.setup.draft.players) < players:
            self.tap("count:+")
        self.tap("start:")
        if self.controller.screen_name == "setup":  # another game in progress: asked first
            self.tap("start:")

    def play_out(self, max_turns: int = 5000) -> Tally:
        for _ in range(max_turns):
            state = self.controller.state
            if state.is_over:
                return self.tally
            self.turn(state)
        raise Stuck(f"no end after {max_turns} turns")

    def turn(self, state: engines.State) -> None:
        self.taps = 0
        if self.controller.dice_request() is not None:
            self.roll()
            self.tally.roll_taps.append(self.taps)
            return
        if self.controller.typing():
            self.typed(state)
        else:
            self.choose(state)
        self.tally.move_taps.append(self.taps)

    # ----- dice -----------------------------------------------------------------------------

    def roll(self) -> None:
        controller = self.controller
        if controller.table.turn.proposal is None:
            self.tap("throw:")
            self.wait(lambda: controller.table.turn.proposal is not None, "the dice to be read")
        truth = self.app.hardware.camera.truth.dice
        self.correct(list(truth))
        self.tap("confirm:")

    def correct(self, truth: list[Any]) -> None:
        """Touch each misread die and its true face; add or remove dice as needed."""
        proposal = self.controller.table.turn.proposal
        unmatched = list(range(len(truth)))
        for index in reversed(range(len(proposal.faces))):
            match = nearest(proposal.centers[index], truth, unmatched)
            if match is None:
                self.tap(f"die:{index}")
                self.tap("die:remove")
                continue
            unmatched.remove(match)
            wanted = str(truth[match].value)
            if proposal.faces[index] != wanted or index in proposal.unsure:  # fix, or settle
                self.tap(f"die:{index}")
                self.tap(f"face:{wanted}")
        for match in unmatched:
            self.tap("die:add")
            self.tap(f"face:{truth[match].value}")

    # ----- moves ----------------------------------------------------------------------------

    def choose(self, state: engines.State) -> None:
        """The piece first, then the move; pages only when the move is still not shown."""
        controller = self.controller
        hand = controller.table.hand()
        if hand and state.view(None).get("throws") == 1 and self.rng.random() < 0.2:
            for index in sorted(self.rng.sample(range(len(hand)), self.rng.randint(1, 2))):
                self.tap(f"hand:{index}")
            self.tap("reroll:")
            return
        choices = controller.table.choices(state)
        targets = [Target(f"move:{c.notation}", c.label) for c in choices]
        chooser = CHOOSERS.get(state.game.name, choose_random) if not state.is_chance else None
        wanted = (chooser or choose_random)(state, targets, self.rng).id
        pieces = next(c.pieces for c in choices if f"move:{c.notation}" == wanted)
        touched, pages, played = 0, 0, len(state.history)
        while not self.sees(wanted):  # a hand's cards narrow a list that is not shown whole
            telling = [p for p in sorted(pieces) if p in self.screen.pieces]
            untouched = [p for p in telling if p not in self.screen.selected]
            if not untouched:
                break  # the pawns touched tell no more: the pages will
            self.tap(_piece_target(untouched[0]))
            if len(self.controller.state.history) != played:
                return  # a marked square touched for the card chosen: played
            if untouched[0] not in self.screen.selected:  # else the same touch, again and again
                raise Stuck(f"touched {untouched[0]}, the table chose {self.screen.selected}")
            touched += 1
        while not self.sees(wanted):
            page, count = self.app.window.renderer.page_info
            if page + 1 >= count:
                raise Stuck(f"{wanted} not found after {touched} pieces, {pages} pages")
            self.tap(f"page:{page + 1}")
            pages += 1
        self.tally.pages_max = max(self.tally.pages_max, pages)
        self.tap(wanted)

    def grouped(self) -> bool:
        """The list shows pawns whose moves it groups: touching one shows them."""
        return any(target.id.startswith("piece:") for target in self.screen.moves)

    def typed(self, state: engines.State) -> None:
        game = state.game.name
        if game == "sequence":
            self.sequence_play(state)
        elif game == "strategix":
            self.strategix_play(state)
        else:  # Struggle's objective card: the arrival order, pawn by pawn
            if self.controller.table.turn.entry:  # an order refused (another card's): again
                self.tap("entry:clear")
            order = ["K", "Q", "J", "10", "9"]
            self.rng.shuffle(order)
            for pawn in order:
                self.tap(f"key:{pawn}")
            self.tap("entry:ok")

    def sequence_play(self, state: engines.State) -> None:
        """A card's own square touched, then Play; a jack typed, then its square."""
        plays = [
            a.notation for a in state.legal_actions() if "@" in a.notation or "x" in a.notation
        ]
        plain = [p for p in plays if "@" in p and not p.startswith("J")]
        notation = self.rng.choice(plain or plays)
        if notation in plain:
            square = notation.split("@")[1]
            self.tap(f"square:{square}")
            self.tap(f"move:{notation}")
            return
        card, square = notation.split("@") if "@" in notation else notation.split("x")
        self.tap(f"key:{card[0]}")
        self.tap(f"key:{card[1]}")
        self.tap(f"square:{square.strip()}")

    def strategix_play(self, state: engines.State) -> None:
        """Pass when allowed, else one letter card the rules accept."""
        if _accepted(state, "pass"):
            self.tap("play:pass")
            return
        for letter in self.rng.sample("BCDEFGHIJKLMNOPQRSTUVWXYZ", 25):
            if _accepted(state, f"play {letter}"):
                self.tap(f"key:{letter}")
                self.tap("entry:ok")
                return
        raise Stuck("no Stratégix play accepted")


def _accepted(state: engines.State, notation: str) -> bool:
    try:
        state.clone().apply(notation)
    except engines.EngineError:
        return False
    return True


def _piece_target(piece: str) -> str:
    return piece if piece.startswith("square:") else f"piece:{piece}"


def _to_physical(point: tuple[int, int], size: tuple[int, int], rotation: int) -> tuple[int, int]:
    """Logical -> panel coordinates (the inverse of display.window.to_logical)."""
    x, y = point
    width, height = size
    return {
        0: (x, y),
        90: (height - 1 - y, x),
        180: (width - 1 - x, height - 1 - y),
        270: (y, width - 1 - x),
    }[rotation]
