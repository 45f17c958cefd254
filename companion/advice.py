"""The advisor at the table: its search run beside the kiosk's loop, and its choices in words.

The search takes up to a couple of hundred milliseconds (five times that on a Pi): run on the
loop that draws the screen and reads the buttons, it would freeze the table. `AdviceWorker`
runs one search at a time on a thread of its own, on a copy of the position; the loop asks for
the result and finds None until it is there. `choice_words` says a choice, its figure and its
reason in the catalogue's words (a number a player understands: "1 chance sur 9", "62 %").
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import engines
from advisor import Choice
from display.i18n import text

HINT_CHOICES = 3  # the choices a hint shows, best first
REASON_KEYS = {  # the advisor's reason codes said on the table screen (their figure aside)
    "only": "hint.only",
    "sequence.line": "hint.sequence_line",
    "sequence.block": "hint.sequence_block",
    "sequence.sequence": "hint.sequence_done",
    "sequence.dead": "hint.sequence_dead",
    "strategix.shed": "hint.strategix_shed",
    "strategix.pass": "hint.strategix_pass",
}
EXACT = ("roudalon.", "struggle.")  # advisors that compute their figures, imagining no games
STEP = re.compile(r"(\d+)([+-])(\d+)")


class AdviceWorker:
    """One search at a time on a thread of its own; results kept by the key they were asked
    for (the position they are about), the last few only."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="advisor")
        self._jobs: dict[Any, Future] = {}
        self._lock = threading.Lock()

    def ask(self, key: Any, work: Callable[[], Any]) -> None:
        """Start `work` for `key` unless it was asked already."""
        with self._lock:
            if key in self._jobs:
                return
            if len(self._jobs) > 8:  # positions long gone
                self._jobs = {k: f for k, f in self._jobs.items() if not f.done()}
            self._jobs[key] = self._pool.submit(work)

    def result(self, key: Any) -> Any:
        """The result for `key`, or None while it is being computed (or never asked)."""
        with self._lock:
            job = self._jobs.get(key)
        if job is None or not job.done():
            return None
        return job.result()

    def wait(self, timeout: float = 30.0) -> None:
        """Until every search asked for is done (tests, the gallery)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.exception(timeout)


def advise_copy(state: engines.State, budget_ms: float) -> Callable[[], list[Choice]]:
    """The search to run on the worker, on a copy: the table's position keeps changing."""
    import advisor

    copy = state.clone()

    def work() -> list[Choice]:
        try:
            return advisor.advise(copy, budget_ms)
        except Exception:  # an advisor's slip costs the hint, never the table
            return []

    return work


# ----- a choice in words --------------------------------------------------------------------------


def choice_words(choice: Choice, move: str, language: str, tied: bool = False) -> str:
    """`move` (the choice's own words), its figure and its reason, as one line; `tied` when
    another choice shown says the same figure (said, so equal figures do not seem to rank)."""
    figure = figure_words(choice, language)
    if figure and tied:
        figure = f"{figure} ({text(language, 'hint.tied')})"
    reason = reason_words(choice, language)
    said = f"{move} — {figure}" if figure else move
    return f"{said} · {reason}" if reason else said


def tied_choices(choices: list[Choice], language: str) -> list[bool]:
    """For each choice, whether another of `choices` says the same figure: the search found
    them winning as often (its imagined games too few to part them). An exact figure that
    equals another is simply equal: nothing imagined to say."""
    figures = [figure_words(choice, language) for choice in choices]
    return [
        bool(figure) and figures.count(figure) > 1 and not choice.reason.code.startswith(EXACT)
        for choice, figure in zip(choices, figures, strict=True)
    ]


def move_words(game: str, notation: str, fallback: str, language: str, seat: int = 0) -> str:
    """What a choice does, said from its notation; `fallback` (the table's own label) for the
    moves that have no shorter words here. `seat` is the player choosing (Traverse's pawns are
    named by their colour, as in the list of moves: "Rouge 3")."""
    word, _, rest = notation.partition(" ")
    if word == "rethrow":
        return keep_words(rest.split(), fallback, language)
    if game == "roudalon":
        if word == "throw":
            return text(language, "hint.throw_1" if rest == "1" else "hint.throw_2")
        if word == "stake":
            return text(language, "hint.stake", n=rest)
        if word in ("offer", "yes", "no", "close"):
            return text(language, f"hint.{word}")
    if game == "traverse":
        if notation == "pass":
            return text(language, "hint.pass")
        if fallback and fallback != notation:  # the list's words: a pawn moving twice named once
            return fallback
        steps = [
            text(language, "traverse.said.forward" if sign == "+" else "traverse.said.back",
                 pawn=traverse_pawn(seat, int(pawn), language), n=int(n))
            for pawn, sign, n in STEP.findall(notation)
        ]  # fmt: skip
        return ", ".join(steps) or fallback
    return fallback


def traverse_pawn(seat: int, number: int, language: str) -> str:
    """A Traverse pawn's name, as the engine's descriptions give it ("Rouge 3", "Blanc 7")."""
    return text(language, "traverse.pawn.white" if seat else "traverse.pawn.red", n=number)


def keep_words(thrown: list[str], hand: str, language: str) -> str:
    """A re-throw said as the dice kept: `hand` is the hand before it, faces spaced."""
    kept = hand.split()
    for face in thrown:
        if face in kept:
            kept.remove(face)
    if not kept:
        return text(language, "hint.keep_none")
    return text(language, "hint.keep", kept=" ".join(kept))


def figure_words(choice: Choice, language: str) -> str:
    params = choice.reason.params
    if choice.kind == "points":
        return text(language, "hint.points", points=decimal(choice.figure, language))
    if choice.kind == "win":
        percent = round(100 * choice.figure)
        if "ways" in params:  # a throw: its own odds first, then what it leaves
            odds = odds_words(params["ways"], params["outcomes"], language)
            return f"{odds}, {text(language, 'hint.win', percent=percent)}"
        return text(language, "hint.win", percent=percent)
    if choice.kind == "chance":
        if choice.reason.code == "struggle.play_none":
            return text(language, "hint.moves_none")
        if choice.reason.code == "struggle.keep_any":  # no pawn kept: the new dice name it
            return text(language, "hint.first_any", percent=round(100 * choice.figure))
        if "pawn" in params:  # Struggle without a card: a pawn's chance to arrive next
            pawn = text(language, f"face.{params['pawn']}")
            return text(language, "hint.first", pawn=pawn, percent=round(100 * choice.figure))
        if "ways" in params and abs(choice.figure - params.get("chance", -1)) < 1e-3:
            return odds_words(params["ways"], params["outcomes"], language)
        return text(language, "hint.hit", percent=round(100 * choice.figure))
    searched = choice.reason.code.startswith(("sequence.", "strategix."))
    if choice.kind == "value" and searched and 0.0 <= choice.figure <= 1.0:
        return text(language, "hint.win", percent=round(100 * choice.figure))
    return ""  # a relative value: the reason says what it weighs


def measure_words(choices: list[Choice], language: str) -> str:
    """What the hints' figures measure, said once for the panel: a Struggle pawn's chance to
    arrive before the others, or the points the objective card is expected to score."""
    if any(c.kind == "chance" and "pawn" in c.reason.params for c in choices):
        return text(language, "hint.measure_first")
    if any(c.kind == "points" and c.reason.code != "only" for c in choices):
        return text(language, "hint.measure_points")
    return ""


def odds_words(ways: int, outcomes: int, language: str) -> str:
    """The odds as a player says them: "1 chance sur 9" rather than 4 in 36."""
    if not ways:
        return text(language, "hint.odds_none")
    odds = Fraction(ways, outcomes)
    key = "hint.odds_1" if odds.numerator == 1 else "hint.odds"
    return text(language, key, ways=odds.numerator, outcomes=odds.denominator)


def reason_words(choice: Choice, language: str) -> str:
    params = choice.reason.params
    code = choice.reason.code
    if code == "traverse.play":
        return text(language, "hint.traverse", hits=params["hits"], exposed=params["exposed"],
                    progress=f"{params['progress']:+d}")  # fmt: skip
    if code == "roudalon.stake":
        return text(language, "hint.pot", pot=params["pot"])
    if code in REASON_KEYS:
        return text(language, REASON_KEYS[code], **params)
    return ""


def decimal(value: float, language: str) -> str:
    said = f"{value:.1f}"
    return said.replace(".", ",") if language == "fr" else said
