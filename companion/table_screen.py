"""The table screen: the board, whose turn and the moves offered; its touches on pieces and
squares (that narrow the moves), on the moves, the dice, the keyboard and the hint.

Its parts each keep a file: the dice (dice_entry), typed plays (notation_entry), the hint
(hint_panel) and bots' turns (bot_seats); they share the turn under way (`Turn`). Every play
goes through `play`: checked by the engine, logged by the session, then shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import engines
from companion.advice import AdviceWorker, move_words
from companion.bot_seats import BotTurns
from companion.dice_entry import DiceEntry
from companion.dice_proposal import DiceProposal
from companion.events import Settled
from companion.hint_panel import HintPanel
from companion.name_keyboard import entry_controls
from companion.notation_entry import NotationEntry
from companion.persistence.store import StoreError
from companion.screen_base import Handler, KioskView, ScreenName, ScreenObject
from companion.session import CARD_GAMES, Drawn, PositionKey
from companion.table_context import Turn
from companion.tables import Choice, DiceRequest
from companion.tables.base import spoken_view
from display.i18n import face_letter, game_title, say, text
from display.model import Screen, Target, is_mark
from engines.dice import D6_FACES, POKER_FACES

SQUARES_LISTED = 4  # more plays than this on marked squares: the board, not a list of pages
CHOOSING = frozenset({"move", "square", "piece", "play", "key", "entry", "hint", "hand", "reroll",
                      "confirm"})  # fmt: skip  # refused while a bot chooses


# The actions row's slots, each holding one kind of action whatever the state, so that no
# button comes under a finger where another was: the throw, the confirmation (of a reading or
# of a play shown), the hint, undo (kept at game over: it asks before reopening). Card games:
# a robot's held round end, the play shown, the hint, undo. + die / − die, Analyse and New
# game go in the options row.
DICE_SLOTS = (("reroll:", "throw:"), ("confirm:", "move:"), ("hint:",), ("undo:",))
CARD_SLOTS = (("seen:",), ("move:",), ("hint:",), ("undo:",))
EMPTY = Target("", "", "empty")  # a slot with nothing in it now: drawn as a gap


def slotted(actions: list[Target], slots: tuple[tuple[str, ...], ...]) -> list[Target]:
    """The actions in their slots, the enabled before the disabled (Struggle's Relancer before
    the Lancer kept in its place), the first kinds listed first."""
    row = [EMPTY] * len(slots)
    ranked = sorted(actions, key=lambda action: action.style == "disabled")
    for index, kinds in enumerate(slots):
        for kind in kinds:
            found = next((a for a in ranked if a.id.startswith(kind) and a not in row), None)
            if found is not None:
                row[index] = found
                break
    return row


class TableScreen(ScreenObject):
    """The game being played."""

    name: ScreenName = "table"

    def __init__(self, view: KioskView, moves_per_page: int) -> None:
        super().__init__(view)
        self.turn = Turn()
        self.moves_per_page = moves_per_page  # moves beside the camera (dice games)
        self.side_moves_per_page = max(1, moves_per_page - 1)  # beside the board (card games)
        self.advice = AdviceWorker()  # the advisor's searches, off the loop that draws
        self.dice = DiceEntry(self)
        self.typing = NotationEntry(self)
        self.hint = HintPanel(self, self.advice)
        self.bots = BotTurns(self, self.advice)
        self.reopen_asked: PositionKey | None = None  # the finished game undo asked about
        self.review_status: Callable[[], str] = lambda: "none"  # the review screen's, when set

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {
            "move": self.play, "square": self.square, "piece": self.piece, "page": self.turn_page,
            "die": self.dice.die, "face": self.dice.face, "settle": self.dice.settle,
            "hand": self.dice.hand_die,
            "confirm": lambda _: self.dice.confirm(), "reroll": lambda _: self.dice.reroll(),
            "throw": lambda _: self.throw(), "undo": lambda _: self.undo(),
            "key": self.typing.key, "entry": self.typing.entry, "play": self.typing.word,
            "hint": self.hint.tap, "game": self.new_game,
            "review": lambda _: self.view.go("to_review"),
            "seen": lambda _: self.bots.acknowledge(),
        }  # fmt: skip

    def handle_tap(self, kind: str, arg: str) -> bool:
        if kind in CHOOSING and self.bots.choosing():
            self.bots.refuse()
            return True
        return super().handle_tap(kind, arg)

    def press(self, button: str) -> None:
        """A GPIO button (or its key): confirm, reroll, undo."""
        if button in ("confirm", "reroll") and self.bots.choosing():
            self.bots.refuse()
        elif button == "confirm":
            self.dice.confirm()
        elif button == "reroll":
            self.dice.reroll()
        elif button == "undo":
            self.undo()
        else:
            self.view.not_here(f"button:{button}")

    def settled(self, event: Settled) -> None:
        self.dice.settled(event)

    def enter(self, arg: str) -> bool:
        if self.view.session is None:
            self.view.say(self.t("no_game"), True)
            return False
        self.bots.shown = True
        return True

    def leave(self) -> None:
        self.bots.shown = False

    def opened(self) -> None:
        """A game was started or loaded: a new turn, and what the dealer does by itself."""
        self.turn = Turn()
        self.advance_automatic()  # a kill between the set-up and the deal

    def use_layout(self, layout: Any) -> None:
        """Page the moves as many as the panel's layout shows (display.layout.Layout)."""
        self.moves_per_page = layout.moves_per_page
        self.side_moves_per_page = layout.side_moves_per_page

    def tick(self, now: float | None = None) -> bool:
        """Let time pass: a hint's choices arriving, a bot choosing, then playing. True when
        the screen changed."""
        arrived = self.hint.arrived()
        return self.bots.step(time.monotonic() if now is None else now) or arrived

    # ----- playing --------------------------------------------------------------------------

    def play(self, notation: str, corrected: int = 0) -> bool:
        """Check an action with the engine; if legal, log it, then apply it. Else say why."""
        session = self.view.session
        if session is None:
            self.view.say(self.t("no_game"), True)
            return False
        try:
            before, action = session.check(notation)
        except engines.EngineError as error:
            self.view.refuse(error, notation=notation)
            return False
        session.commit(action.notation, corrected)
        self.turn = Turn()
        said = session.table.outcome(before, action, session.state, self.view.language)
        self.view.say(said)
        self.advance_automatic()
        if said != session.table.said(action, self.view.language):
            self.view.say(said)  # an announcement (a round's end) outlives the deal after it
        return True

    def advance_automatic(self) -> None:
        """Full mode deals and draws by itself: say what was drawn."""
        session = self.view.session
        drawn = [] if session is None else session.advance_automatic()
        if drawn:
            self.view.say(" — ".join(self.drawn_words(item) for item in drawn))

    def drawn_words(self, drawn: Drawn) -> str:
        session = self.view.session
        if drawn.only_person is not None and session is not None:
            name = session.state.players[drawn.only_person]
            return text(self.view.language, "only_person_starts", name=name)
        return say(self.view.language, drawn.action)  # a deal's sentence says it was dealt

    def undo(self) -> bool:
        session = self.view.session
        if session is None:
            self.view.say(self.t("nothing_undo"), True)
            return False
        if session.record.status == "over" and self.reopen_asked != session.position_key():
            self.reopen_asked = session.position_key()  # a finished game reopens on a second touch
            self.view.say(self.t("reopen_ask"))
            return False
        self.reopen_asked = None
        try:
            logged, undone = session.undo()
        except StoreError:
            self.view.say(self.t("nothing_undo"), True)
            return False
        said = [session.table.said(undone, self.view.language)]
        while self._robot_chose_here():  # back to the person's decision before the robot's
            try:
                logged, undone = session.undo()
            except StoreError:  # the robot's moves began the game
                break
            said.insert(0, session.table.said(undone, self.view.language))
        self.turn = Turn()
        self.bots.forget()
        self.view.say(self.t("undone", what=" · ".join(said)))
        if logged.notation.startswith("roll ") and session.last_roll is not None:
            # the dice are still on the tray: show the undone reading again, to fix and confirm
            self.turn.proposal, session.last_roll = session.last_roll, None
        return True

    def _robot_chose_here(self) -> bool:
        """The position is a robot's own decision (not its dice nor its card, which a person
        throws or types for it)."""
        session = self.view.session
        return session is not None and self.bots.decides(session)

    def new_game(self, game: str) -> None:
        """A finished game's "new game": the set-up of the same game."""
        self.view.go("choose_game", game)

    # ----- touches on the board -------------------------------------------------------------

    def square(self, square: str) -> None:
        """A touch on a board square: completes a typed card (Sequence), else narrows moves."""
        session, turn = self.view.session, self.turn
        if session is None or not self.typing.open_on(session.state):
            self.piece(f"square:{square}")
            return
        if turn.entry:
            self.play(session.table.square_play(turn.entry, square))
            return
        guess = session.table.square_guess(session.state, square)
        if not guess:
            refusal = session.table.square_refusal(session.state, square, self.view.language)
            self.view.say(refusal, True)
        elif guess == turn.guess:
            self.play(guess)  # the same square touched again: play its card
        else:
            turn.guess = guess
            self.view.say(self.t("play_guess_help"))

    def piece(self, piece: str) -> None:
        """A pawn, chip or square touched: keep the moves that involve every piece touched."""
        session = self.view.session
        if session is None:
            return
        if self.dice_request() is not None:  # no move before the dice are read
            self.view.say(self.t("need_roll_first"), True)
            return
        choices = self.choices(session.state)
        if is_mark(piece) and self._ring_of_guess(choices, piece):
            self.play(self.turn.guess)  # the hint's move shown on the board: its ring plays it
            return
        chosen = self.turn.selected ^ {piece}
        if chosen and not any(chosen <= c.pieces for c in choices):
            chosen = {piece}  # a piece no move shares with the others: start again from it
        if not any(chosen <= c.pieces for c in choices):
            self.view.say(self.t("piece_stuck"), True)
            return
        left = [c for c in choices if chosen <= c.pieces]
        card_chosen = any(p.startswith("card:") for p in self.turn.selected)
        if card_chosen and len(left) == 1 and session.table.plays_on_touch(piece):
            self.play(left[0].notation)  # a square marked for the card chosen: play there
            return
        self.turn.selected, self.turn.page = chosen, 0
        self.view.say("")
        if is_mark(piece) and piece in chosen:
            self._ring_touched(session.state)

    def _ring_of_guess(self, choices: list[Choice], mark: str) -> bool:
        guess = self.turn.guess
        return bool(guess) and any(c.notation == guess and mark in c.pieces for c in choices)

    def _ring_touched(self, state: engines.State) -> None:
        """A ring showing where a move takes a pawn: it plays the one move that does, else the
        list keeps the moves that do."""
        left = self.narrowed(state)
        if len(left) == 1:
            self.play(left[0].notation)
        else:
            self.view.say(self.t("ring_several", n=len(left)))

    def turn_page(self, where: str) -> None:
        """`page:N` from the pager drawn (the renderer knows how many pages the moves take)."""
        if where.isdigit():
            self.turn.page = int(where)
        else:
            self.turn.page = max(0, self.turn.page + (1 if where == "next" else -1))

    # ----- what the parts ask ---------------------------------------------------------------

    def dice_request(self) -> DiceRequest | None:
        session = self.view.session
        return None if session is None else session.dice_request()

    def hand(self) -> list[str]:
        session = self.view.session
        return [] if session is None else session.hand()

    def choices(self, state: engines.State) -> list[Choice]:
        session = self.view.session
        return [] if session is None else session.choices(self.view.language)

    def narrowed(self, state: engines.State) -> list[Choice]:
        """The moves that involve every piece touched, those moving only them first, and those
        leaving a touched piece where it stands last."""
        selected = self.turn.selected
        left = [c for c in self.choices(state) if selected <= c.pieces]
        session = self.view.session
        if selected and session is not None:
            held_back, touched = session.table.held_back, frozenset(selected)
            left.sort(key=lambda c: (held_back(c, touched), held_back(c, c.pieces),
                                     len(c.pieces - touched)))  # fmt: skip
        return left

    def said_move(self, state: engines.State, notation: str) -> str:
        """A move in words: from its notation, else the words of its button on the table."""
        session, language = self.view.session, self.view.language
        if notation.startswith("rethrow "):
            fallback = " ".join(self.hand())
        else:
            labels = {c.notation: c.label for c in self.choices(state)}
            fallback = labels.get(notation, "")
            if not fallback and session is not None:
                fallback = session.table.choice_label(state, notation, language)
        seat = state.actor if isinstance(state.actor, int) else 0
        said = move_words(state.game.name, notation, fallback, language, seat)
        warning = session.table.warning(state, notation, language) if session else ""
        return f"{said} — {warning}" if warning and warning not in said else said

    # ----- the screen -----------------------------------------------------------------------

    def draw(self) -> Screen:
        session = self.view.session
        if session is None:
            return Screen("table", self.t("no_game"))
        state, record, language = session.state, session.record, self.view.language
        viewer = self._viewer(state) if record.mode == "full" else None
        screen = Screen(
            "table",
            game_title(record.game, language),
            game=record.game,
            board=spoken_view(state.view(viewer), language),
            camera=self.dice.picture(),
            turn=self._waiting(state),
            scores=[
                (session.table.seat_words(state, seat, language), str(score))
                for seat, score in enumerate(state.scores())
            ],
        )
        screen.acting = session.table.seat(state)
        screen.hand = self.hand_targets(state, viewer)
        screen.dice = self.dice.marks()
        if screen.camera is None and self.dice.awaited() and self.dice.read_in is not None:
            # (before the game's first throw the panel says where the tray will show)
            screen.camera_note = text(language, "camera_throw_wanted")
        if state.is_over:  # the last throw's photo and marks are no longer the game's
            screen.camera, screen.dice = None, []
            screen.camera_note = self.t("camera_game_over")
        screen.actions = self._actions(state)
        self._add_moves(screen, state)
        self.hint.add(screen, state)
        slots = CARD_SLOTS if record.game in CARD_GAMES else DICE_SLOTS
        screen.actions = slotted(screen.actions, slots)
        screen.slot_labels = [[self._kind_label(kind) for kind in kinds] for kinds in slots]
        return screen

    def _kind_label(self, kind: str) -> str:
        """The words an action of this kind may say (a slot is as wide as its longest word)."""
        t = self.t
        return {
            "reroll:": t("reroll"), "throw:": t("throw"),
            "confirm:": f"{t('confirm')} {t('confirm_unsure')}", "move:": t("confirm"),
            "hint:": f"{t('hint')} {t('hint_hide')}", "undo:": t("undo"), "seen:": t("seen"),
        }.get(kind, "")  # fmt: skip

    def _viewer(self, state: engines.State) -> int | None:
        """Whose hidden cards the screen shows when the kiosk deals: the person to act, else
        the one person playing against bots (their hand stays while a bot plays)."""
        session = self.view.session
        assert session is not None
        people = [seat for seat in range(len(state.players)) if not session.bot_level(seat)]
        if isinstance(state.actor, int) and state.actor in people:
            return state.actor
        return people[0] if len(people) == 1 else None

    def hand_targets(self, state: engines.State, viewer: int | None) -> list[Target]:
        """The viewer's cards, each touched to narrow the moves to those laying it: lit when
        touched, dim when no move lays it now (or it is not the viewer's turn)."""
        session = self.view.session
        if session is None or viewer is None:
            return []
        ours = state.actor == viewer and not self.bots.choosing()
        laid = {p for c in self.choices(state) for p in c.pieces} if ours else set()
        targets = []
        for number, card in enumerate(session.table.hand_cards(state, viewer)):
            if not card:  # a card laid in the formula under way: its place kept empty
                targets.append(Target(f"gap:{number}", "", "gap"))
                continue
            piece = f"card:{card}"
            style = "selected" if piece in self.turn.selected else "normal"
            targets.append(Target(f"piece:{piece}", card, style if piece in laid else "disabled"))
        return targets

    def hand_leads(self, state: engines.State) -> bool:
        """The moves are reached through the cards of the hand shown (the kiosk dealt them)."""
        targets = self.hand_targets(state, self._viewer(state))
        return any(t.style not in ("disabled", "gap") for t in targets)

    def _waiting(self, state: engines.State) -> str:
        """What the table waits for; a reading shown waits for its check, not for a throw."""
        session = self.view.session
        table = session.table if session else None
        seat = None if table is None else table.seat(state)
        request = self.dice_request()
        rolloff_call = table is not None and table.rolloff(state) and self.turn.proposal is None
        bot_seat = session is not None and seat is not None and bool(session.bot_level(seat))
        if bot_seat and seat is not None and request and not rolloff_call:
            detail = "" if table is None else table.dice_detail(state, self.view.language)
            return self._bot_dice(state, seat, request.count) + detail
        if self.turn.proposal is not None and request is not None and seat is not None:
            name = state.players[seat]
            if self.turn.proposal.unsure:  # Confirm only once every die is sure
                return self.t("check_roll_unsure", name=name)
            return table.check_roll(state, name, self.view.language) if table else ""
        if table is None:
            return ""
        entry = table.robot_entry(state, self.view.language) if bot_seat else ""
        if entry:
            return entry
        if bot_seat and state.actor == seat and not state.is_over:  # said, not addressed to it
            return text(self.view.language, "bot_turn", name=state.players[state.actor])
        hand, rethrow = self.hand(), self.turn.rethrow
        if rethrow and hand:  # the dice kept are those not chosen to throw again
            keep = [face for i, face in enumerate(hand) if i not in rethrow]
            return table.waiting_keeping(state, keep, self.view.language)
        return table.waiting(state, self.view.language)

    def _bot_dice(self, state: engines.State, seat: int, count: int) -> str:
        """A bot's dice wait for a person: the prompt says who throws, for whom (a bot has no
        hands), and what to check once they are read."""
        name, proposal = state.players[seat], self.turn.proposal
        if proposal is None:
            return self.t("bot_roll_wait", name=name, n=count)
        return self.t("bot_check_roll_unsure" if proposal.unsure else "bot_check_roll", name=name)

    def _actions(self, state: engines.State) -> list[Target]:
        actions = []
        request, proposal = self.dice_request(), self.turn.proposal
        if request is not None and proposal is not None:
            actions.append(self._confirm_target(request, proposal))
        if request is not None and self.dice.can_throw:
            style = "normal" if proposal is not None else "primary"
            session = self.view.session
            again = session is not None and session.table.rethrowing(state)
            actions.insert(0, Target("throw:", self.t("reroll" if again else "throw"), style))
        elif self._throws(state) and not state.is_over:  # Lancer keeps its place: no other
            actions.insert(0, Target("throw:", self.t("throw"), "disabled"))  # button takes it
        if self.hand():
            style = "primary" if self.turn.rethrow else "quiet"
            actions.append(Target("reroll:", self.t("reroll"), style))
        if self.bots.holding():
            actions.insert(0, Target("seen:", self.t("seen"), "primary"))
        actions.append(Target("undo:", self.t("undo"), "danger"))
        return actions

    def _throws(self, state: engines.State) -> bool:
        """The game's dice are thrown from the kiosk (the simulated camera): a dice game."""
        session = self.view.session
        return self.dice.can_throw and session is not None and session.record.game not in CARD_GAMES

    def throw(self) -> None:
        """Lancer: the dice awaited thrown; when none are, said so (the button stays in its
        place, drawn disabled)."""
        if not self.dice.throw() and self.dice_request() is None:
            self.view.say(self.t("no_dice_wanted"), True)

    def _dice_fixes(self) -> list[Target]:
        """+ die / − die, beside the faces in the options row: a reading with too few or too
        many dice, a die touched, or nothing read (entered by hand)."""
        request, proposal = self.dice_request(), self.turn.proposal
        if request is None:
            return []
        if proposal is None:
            return [Target("die:add", self.t("add_die"))]
        fixes = []
        if len(proposal.faces) < request.count:
            fixes.append(Target("die:add", self.t("add_die")))
        if len(proposal.faces) > request.count or self.turn.picking is not None:
            fixes.append(Target("die:remove", self.t("remove_die")))
        return fixes

    def _review_target(self) -> list[Target]:
        """After game over: Review, or that it is being computed (its touch says so)."""
        status, language = self.review_status(), self.view.language
        if status == "ready":
            return [Target("review:", text(language, "review"))]
        if status == "computing":
            return [Target("review:", text(language, "review.computing_button"), "quiet")]
        return []

    def _confirm_target(self, request: DiceRequest, proposal: DiceProposal) -> Target:
        """Confirm, or what it waits for: a touch on each die marked "?"."""
        if proposal.unsure:
            return Target("confirm:", self.t("confirm_unsure"), "quiet")
        style = "primary" if proposal.complete(request.count) else "quiet"
        return Target("confirm:", self.t("confirm"), style)

    def _add_moves(self, screen: Screen, state: engines.State) -> None:
        request, turn = self.dice_request(), self.turn
        if turn.picking is not None and request is not None:
            faces = POKER_FACES if request.kind == "poker" else D6_FACES
            screen.options = [Target(f"face:{f}", face_letter(self.view.language, f),
                                     self._face_style(f)) for f in faces]  # fmt: skip
            screen.options += self._dice_fixes()
            return
        screen.options = [
            Target(
                f"hand:{i}",
                face_letter(self.view.language, face),
                "selected" if i in turn.rethrow else "normal",
            )  # fmt: skip
            for i, face in enumerate(self.hand())
        ] + self._dice_fixes()
        if state.is_over:  # Analyse and New game beside the board, not in a slot of play
            # (New game sat where Confirm had been: the last move's touch, repeated, restarted)
            new_game = Target(f"game:{state.game.name}", self.t("new_game"), "primary")
            screen.options = self._review_target() + [new_game]
        session = self.view.session
        assert session is not None
        if self.bots.choosing():  # the bot's move is shown on the board, not offered to touch
            screen.preview = session.table.preview(state, turn.guess) if turn.guess else {}
            return
        screen.moves = self.move_targets(state)  # the renderer pages them as they fit
        screen.moves_note = self.moves_note(state)
        beside_board = session.table.moves_beside_board
        screen.page = (turn.page, self.side_moves_per_page if beside_board else self.moves_per_page)
        screen.pieces = self.telling_pieces(state)
        screen.selected = sorted(turn.selected)
        screen.preview = self._preview(state) or session.table.marked(state)
        if state.is_over:  # the result beside the board, its winning lines marked
            screen.moves_note, screen.preview = session.table.result(state, self.view.language)
        if turn.guess:  # the square's card, shown on the board, played by one more touch
            label = session.table.guess_label(state, turn.guess, self.view.language)
            screen.actions.insert(0, Target(f"move:{turn.guess}", label, "primary"))
            screen.preview = session.table.preview(state, turn.guess)
        if self.typing.open_on(state):
            spent = session.table.spent_keys(turn.entry)
            keys = [replace(key, style="disabled") if key.id.removeprefix("key:") in spent else key
                    for key in session.table.keys(state, self.view.language)]  # fmt: skip
            screen.keys = keys + entry_controls(self.view)
            screen.entry = session.table.entry_words(state, turn.entry, self.view.language)
            screen.board_targets = True

    def _face_style(self, face: str) -> str:
        """An unsure die's best guess is offered preselected: one touch settles it as read."""
        proposal, index = self.turn.proposal, self.turn.picking
        if proposal is not None and index in proposal.unsure and proposal.faces[index] == face:
            return "selected"
        return "primary"

    def _preview(self, state: engines.State) -> dict[str, Any]:
        """The outcome shown on the board: the one move left, else where the pieces may go."""
        if not self.turn.selected:
            return {}
        left = self.narrowed(state)
        session = self.view.session
        if len(left) == 1 or session is None:
            return left[0].preview if left else {}
        focus = session.table.preview_of
        return {"options": [focus(c.preview, self.turn.selected) for c in left]}

    def telling_pieces(self, state: engines.State) -> list[str]:
        """The pieces worth touching: those some moves left involve and others do not (a pawn
        every move moves tells nothing), and those touched already (to let them go). The rings
        of where they go are drawn from the preview, not listed here."""
        left = self.narrowed(state)
        every = frozenset.intersection(*(c.pieces for c in left)) if left else frozenset()
        telling = {p for c in left for p in c.pieces} - every
        return sorted(p for p in telling | self.turn.selected if not is_mark(p))

    def move_targets(self, state: engines.State) -> list[Target]:
        """The moves to touch; a move shown to confirm (a hint's choice) first, selected. A
        list longer than a page shows, for the games that group it, one line per pawn not
        touched yet (touched, it narrows the list as the pawn on the board does). A bot
        chooses among every move (companion.bots.every_move), not these."""
        if state.is_over or self.dice_request() is not None:
            return []
        guess = self.turn.guess
        left = self.listed(state)
        groups = self._groups(left)
        grouped = {c.notation for choices in groups.values() for c in choices} - {guess}
        targets = [
            Target(f"move:{c.notation}", c.label, "selected" if c.notation == guess else "normal")
            for c in left
            if c.notation not in grouped
        ]
        session = self.view.session
        assert session is not None
        for piece, choices in groups.items():
            label = session.table.group_label(state, piece, choices, self.view.language)
            targets.append(Target(f"piece:{piece}", label))
        return sorted(targets, key=lambda target: target.style != "selected")

    def _groups(self, left: list[Choice]) -> dict[str, list[Choice]]:
        """The moves that involve a pawn not touched yet, by the first such pawn, when they
        would fill more than a page. With nothing touched every pawn gets its line, one move
        or many: a first page mixing whole moves with pawns' lines read as two lists."""
        session = self.view.session
        if session is None or len(left) <= self.moves_per_page:
            return {}
        groups: dict[str, list[Choice]] = {}
        for choice in left:
            for key in session.table.group_keys(choice, self.turn.selected):
                groups.setdefault(key, []).append(choice)
        if self.turn.selected:  # the partners of a touched pawn: one move stays a move
            groups = {piece: choices for piece, choices in groups.items() if len(choices) > 1}
        groups = dict(sorted(groups.items(), key=lambda group: _in_number_order(group[0])))
        grouped = len({c.notation for choices in groups.values() for c in choices})
        if len(left) - grouped + len(groups) >= len(left) - 1:
            return {}  # grouping would save no line
        return groups

    def listed(self, state: engines.State) -> list[Choice]:
        """The moves listed: with a hand to touch, those laying no card until a card is
        touched, and no list where the board's marked squares are the way to play."""
        left = self.narrowed(state)
        if not self.hand_leads(state):
            return left
        if not self.turn.selected:
            always = self.view.session.table.always_listed if self.view.session else ()
            shown = [c for c in left if c.notation in always
                     or not any(p.startswith("card:") for p in c.pieces)]  # fmt: skip
            return left if len(left) - len(shown) == 1 else shown  # a lone play: one touch
        if len(left) > SQUARES_LISTED and all(self._on_square(c) for c in left):
            return []
        return left

    def _on_square(self, choice: Choice) -> bool:
        return any(p.startswith("square:") for p in choice.pieces)

    def moves_note(self, state: engines.State) -> str:
        """What the list leaves out, in one short line: the plays behind the cards, or the
        squares marked on the board."""
        if state.is_over or not self.hand_leads(state):
            return ""
        left, listed = self.narrowed(state), self.listed(state)
        if not self.turn.selected:
            behind = len(left) - len(listed)  # nothing behind the cards: no card to ask for
            return text(self.view.language, "hand.summary", n=behind) if behind else ""
        if not listed:
            return text(self.view.language, "hand.touch_square", n=len(left))
        return ""


def _in_number_order(piece: str) -> tuple[str, int]:
    """A piece's name without its number, then its number: White 2 before White 10."""
    number = "".join(ch for ch in piece if ch.isdigit())
    return piece.rstrip("0123456789"), int(number or 0)
