"""The review of the game just finished: each player's chance over the game, and the three
moments that decided it for each, with the move made and the better one (docs/review.md).

The review is computed in the background as soon as the game is over (`tick`, through
`ReviewWorker`) and stored with the game; until it is there the table's Review button says it
is being computed and this screen refuses to open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import engines
from companion.advice import move_words
from companion.review_worker import REVIEW_VERSION, ReviewWorker, chance_series, moments
from companion.screen_base import Handler, KioskView, ScreenName, ScreenObject
from companion.session import Session
from companion.tables.strategix import cards_laid
from display.i18n import game_title, text
from display.model import Screen, Target

ReviewStatus = Literal["none", "computing", "ready", "failed"]
BOARD_COLOURS = ("colours", "team_of", "team_colours")  # what gives each seat its colour
Position = tuple[engines.State, int]  # before a decision, with its player's turn number

# Games where each seat's chance is from what it could see (hands, objective cards): the seats'
# chances need not add up to 100 %, and the chart's title says whose view each line is.
HIDDEN = ("struggle", "strategix", "sequence")


class ReviewScreen(ScreenObject):
    name: ScreenName = "review"

    def __init__(self, view: KioskView) -> None:
        super().__init__(view)
        self.worker = ReviewWorker()
        self.failed: set[int] = set()
        self.ready: dict[int, dict[str, Any]] = {}  # game id -> its review, once read
        self.scroll = 0
        self.moment = 0  # the moment whose board is shown (in the game's order)

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {"back": lambda _: self.view.go("to_table"), "scroll": self._scroll,
                "moment": self._show_moment}  # fmt: skip

    def _scroll(self, arg: str) -> None:
        self.scroll = max(0, int(arg)) if arg.isdigit() else 0

    def _show_moment(self, arg: str) -> None:
        self.moment = max(0, int(arg)) if arg.isdigit() else 0

    # ----- computing in the background ------------------------------------------------------

    def status(self) -> ReviewStatus:
        session = self.view.session
        if session is None or session.record.status != "over" or not session.state.is_over:
            return "none"
        game_id = session.record.id
        if game_id in self.failed:
            return "failed"
        return "ready" if self._review(game_id) is not None else "computing"

    def _review(self, game_id: int) -> dict[str, Any] | None:
        if game_id not in self.ready:
            found = self.view.store.review(game_id)
            if found is None or found.get("version") != REVIEW_VERSION:
                return None  # none yet, or an older kind: computed again
            self.ready[game_id] = found
        return self.ready[game_id]

    def tick(self) -> bool:
        """Store the reviews done; ask for the finished game's. True when the status changed."""
        changed = False
        for game_id, review in self.worker.finished():
            if review is None:
                self.failed.add(game_id)
            elif self._still_ends(game_id, review):
                self.view.store.save_review(game_id, review)
            changed = True
        session = self.view.session
        if session is not None and session.record.status != "over":
            self.forget(session.record.id)
        if self.status() == "computing" and not self.worker.asked(session.record.id):
            notations = [a.notation for a in self.view.store.actions(session.record.id)]
            self.worker.ask(session.record, notations)
        return changed

    def _still_ends(self, game_id: int, review: dict[str, Any]) -> bool:
        """The game reviewed is still over with the log reviewed (not reopened meanwhile)."""
        store = self.view.store
        return store.game(game_id).status == "over" and len(store.actions(game_id)) == review.get(
            "actions"
        )

    def forget(self, game_id: int) -> None:
        """The game was reopened (undo past its end): its review is of another ending."""
        self.ready.pop(game_id, None)
        self.failed.discard(game_id)

    def close(self) -> None:
        self.worker.close()

    # ----- the screen -----------------------------------------------------------------------

    def enter(self, arg: str) -> bool:
        status = self.status()
        if status != "ready":
            language = self.view.language
            said = text(language, "review.none" if status != "computing" else "review.computing")
            self.view.say(said, True)
            return False
        self.scroll = self.moment = 0
        self.view.say("")  # the table's last line is not about the review
        return True

    def draw(self) -> Screen:
        session = self.view.session
        review = None if session is None else self._review(session.record.id)
        language = self.view.language
        if session is None or review is None:
            return Screen("review", text(language, "review"))
        heads = (text(language, "review"), game_title(session.record.game, language),
                 text(language, "game_number", number=session.record.id))  # fmt: skip
        title = " · ".join(heads)
        screen = Screen("review", title, game=session.record.game)
        players = session.state.players
        view = session.state.view(None)
        screen.board = {key: view[key] for key in BOARD_COLOURS if key in view}
        screen.chart = {
            "title": text(
                language,
                "review.chances_seen" if session.record.game in HIDDEN else "review.chances",
            ),
            "actions": max(1, int(review.get("actions", 1))),
            "series": list(zip(players, chance_series(review, len(players)), strict=True)),
        }
        positions = _positions(session, [d["index"] for d in review.get("decisions", [])])
        screen.sections = self._moments(session, review, positions)
        screen.scroll = self.scroll
        screen.actions = [Target("back:", text(language, "review.back"), "primary")]
        shown = sorted((d for seat in range(len(players)) for d in moments(review, seat)),
                       key=lambda d: d["index"])  # fmt: skip
        if shown:
            self.moment = min(self.moment, len(shown) - 1)
            screen.chart["moment"] = self._moment_boards(positions, shown, self.moment)
            screen.actions += _moment_steps(self.moment, len(shown), language)
        return screen

    def _moment_boards(self, positions: dict[int, Position],
                       shown: list[dict[str, Any]], number: int) -> dict[str, Any]:  # fmt: skip
        """The position before the moment's decision, twice: the move made and the better one
        marked, each as the table marks a move (the public view: no hand, no objective)."""
        decision = shown[number]
        state, turn = positions[decision["index"]]
        language = self.view.language
        head = text(language, "review.moment_head", name=state.players[decision["player"]],
                    turn=turn, grade=grade_words(language).get(decision["grade"], ""),
                    percent=round(100 * (decision["chance_best"] - decision["chance_played"])),
                    number=number + 1, count=len(shown))  # fmt: skip
        played = self._board(state, decision["played"])
        better = self._board(state, decision["best"])
        if not _look_alike(played, better):
            boards = [(text(language, "review.board_played"), played),
                      (text(language, "review.board_better"), better)]  # fmt: skip
            return {"head": head, "boards": boards}
        lines = [
            text(language, "review.line_played", move=self._words(state, decision["played"])),
            text(language, "review.line_better", move=self._words(state, decision["best"])),
        ]
        return {"head": head, "lines": lines, "boards": [("", played)]}

    def _board(self, state: engines.State, notation: str) -> Screen:
        session = self.view.session
        try:
            preview = session.table.preview(state, notation) if session else {}
        except engines.EngineError:  # a move the table cannot mark: the position alone
            preview = {}
        view = state.view(None)
        board = Screen("review_board", "", self.view.language, game=state.game.name, board=view,
                       preview=preview)  # fmt: skip
        board.scores = [(name, "") for name in state.players]  # seats by name, not number
        if state.game.name == "strategix":
            _strategix_board(board, state, notation)
        return board

    def _moments(
        self, session: Session, review: dict[str, Any], positions: dict[int, Position]
    ) -> list[tuple[str, list[str]]]:
        language, sections = self.view.language, []
        note = table_cards_note(session.record.game, language)
        if session.record.mode == "table" and note:
            sections.append((note, []))
        accuracies = list(review.get("accuracy") or [])
        for seat, name in enumerate(session.state.players):
            accuracy = accuracies[seat] if seat < len(accuracies) else None
            record = session.record
            head = (
                accuracy_missing(record.game, record.mode, name, language)
                if accuracy is None
                else text(language, "review.accuracy", name=name, percent=round(100 * accuracy))
            )
            lines = [self._moment(positions[d["index"]], d) for d in moments(review, seat)]
            sections.append((head, lines or [text(language, "review.no_moment")]))
        return sections

    def _moment(self, position: tuple[engines.State, int], decision: dict[str, Any]) -> str:
        state, turn = position
        given = round(100 * (decision["chance_best"] - decision["chance_played"]))
        language = self.view.language
        return text(
            language,
            "review.moment",
            name=state.players[decision["player"]],
            turn=turn,
            grade=grade_words(language).get(decision["grade"], decision["grade"]),
            played=self._words(state, decision["played"]),
            better=self._words(state, decision["best"]),
            percent=given,
        )

    def _words(self, state: engines.State, notation: str) -> str:
        session, language = self.view.session, self.view.language
        fallback = session.table.choice_label(state, notation, language) if session else ""
        seat = state.actor if isinstance(state.actor, int) else 0
        return move_words(state.game.name, notation, fallback or notation, language, seat)


def _strategix_board(board: Screen, state: engines.State, notation: str) -> None:
    """The position as its player saw it: their hand, the cards the move lays lit, and the
    trick once the move is made (a formula begun shows as it grows)."""
    player = state.actor if isinstance(state.actor, int) else 0
    hand = (state.view(player).get("hands") or [None] * (player + 1))[player] or []
    lit = list(cards_laid(notation))
    board.hand = []
    for card in hand:
        chosen = card in lit
        if chosen:
            lit.remove(card)
        board.hand.append(Target(f"piece:card:{card}", card, "lit" if chosen else "disabled"))
    after = state.clone()
    try:
        after.apply(notation)
    except engines.EngineError:
        return
    if not after.is_over:
        board.board = after.view(None)


def _look_alike(played: Screen, better: Screen) -> bool:
    """The two boards would be drawn the same (a game whose board shows no move, Le Roudalon's
    stakes and throws): the moves are then said in words, the position drawn once."""
    drawn = (played.board, played.preview, played.hand)
    return drawn == (better.board, better.preview, better.hand)


def _moment_steps(number: int, count: int, language: str) -> list[Target]:
    """The buttons to the moment before and after the one whose board is shown."""
    if count < 2:
        return []
    before = Target(f"moment:{number - 1}", text(language, "review.moment_previous"),
                    "disabled" if number == 0 else "normal")  # fmt: skip
    after = Target(f"moment:{number + 1}", text(language, "review.moment_next"),
                   "disabled" if number >= count - 1 else "normal")  # fmt: skip
    return [before, after]


def table_cards_note(game: str, language: str) -> str:
    """Played with physical cards the table never knew a hand (review/grades.py): what the
    review could judge."""
    if game == "sequence":
        return text(language, "review.table_cards.sequence")
    if game == "strategix":
        return text(language, "review.table_cards.strategix")
    return ""


def accuracy_missing(game: str, mode: str, name: str, language: str) -> str:
    """Why a player's accuracy is not given (review/grades.py): in Struggle the dice kept for a
    re-throw are never graded, and at a table the hidden objective cards leave every move of
    the race equal to the review."""
    if game == "struggle" and mode == "table":
        return text(language, "review.too_few.struggle_table", name=name)
    if game == "struggle":
        return text(language, "review.too_few.struggle", name=name)
    return text(language, "review.too_few", name=name)


def grade_words(language: str) -> dict[str, str]:
    return {
        "best": text(language, "review.grade.best"),
        "good": text(language, "review.grade.good"),
        "inaccuracy": text(language, "review.grade.inaccuracy"),
        "mistake": text(language, "review.grade.mistake"),
        "blunder": text(language, "review.grade.blunder"),
    }


def _positions(session: Session, indexes: list[int]) -> dict[int, tuple[engines.State, int]]:
    """The positions before the actions at `indexes`, replayed from the game's log, each with
    its player's turn number (their own decisions so far, this one included)."""
    record = session.record
    state = engines.make_game(record.game, list(record.players), record.options, record.seed,
                              record.mode).new_state()  # fmt: skip
    wanted, found, turns = set(indexes), {}, [0] * len(record.players)
    for index, notation in enumerate(session.store.actions(record.id)):
        if isinstance(state.actor, int) and not state.is_over:
            turns[state.actor] += 1
            if index in wanted:
                found[index] = (state.clone(), turns[state.actor])
        state.apply(notation.notation)
    return found
