"""The settings and rules screens: language, camera, tray region, poker dice taught, rules text.

The settings screen keeps what was chosen (camera, tray region, poker profile); the app reads it
from there to apply it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping

import numpy as np

from companion import diagnostics
from companion.examples_settings import ExamplesPanel
from companion.screen_base import Handler, KioskView, ScreenName, ScreenObject
from companion.setup_screens import GAMES
from companion.teach import LookAlike
from display.i18n import RULES, game_title, languages, offered, text
from display.model import Screen, Target
from engines.dice import POKER_FACES

log = logging.getLogger(__name__)

CAMERA_CHOICES = ("auto", "picamera2", "webcam:0", "sim")
MIN_TRAY_SIDE = 40  # px of camera image: a smaller tray region is surely a slip of the finger
Roi = tuple[int, int, int, int]  # x, y, w, h in camera image pixels


class SettingsScreen(ScreenObject):
    """Language, camera, tray region, the examples kept, poker dice taught."""

    name: ScreenName = "settings"

    def __init__(self, view: KioskView, tray_roi: Roi | None) -> None:
        super().__init__(view)
        self.examples = ExamplesPanel(view)
        self.teaching: int | None = None  # index of the poker face being taught
        self.taught: dict[str, list[np.ndarray]] = {}
        self.look_alikes: list[LookAlike] = []  # taught dice to check, shown one by one
        self.profile_path: str = view.store.setting("poker_profile")  # the app loads it
        self.camera_choice: str = view.store.setting("camera")  # the app reopens the camera
        self.tray_roi = tray_roi  # the app saves it to the config file and the reader
        self.tray_points: list[tuple[int, int]] | None = None  # corners touched (None: not editing)

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {
            "lang": self.choose_language, "camera": self.choose_camera, "tray": self.tray,
            "trayat": self.tray_at, "teach": self.teach, "examples": self.examples.tap,
        }  # fmt: skip

    def enter(self, arg: str) -> bool:
        self.tray_points = None
        self.examples.open = False
        return True

    def draw(self) -> Screen:
        screen = Screen("settings", self.t("settings"))
        screen.options = [
            Target(
                f"lang:{lang}",
                text(lang, "language_name"),
                "selected" if self.view.language == lang else "normal",
            )  # fmt: skip
            for lang in offered()
        ] + [
            Target(f"camera:{spec}", spec, "selected" if spec == self.camera_choice else "normal")
            for spec in CAMERA_CHOICES
        ]
        if self.tray_points is not None:
            return self._screen_tray(screen)
        if self.examples.open:
            screen.options = self.examples.options()
            screen.actions = [Target("examples:close", self.t("ok"), "primary")]
        elif self.look_alikes:
            self._screen_look_alike(screen)
            return screen
        elif self.teaching is None:
            screen.options += self.examples.options()
            screen.actions = [
                Target("tray:edit", self.t("tray_edit"), "normal"),
                Target("teach:start", self.t("teach"), "primary"),
            ]
        else:
            face = POKER_FACES[self.teaching]
            screen.actions = [
                Target("teach:capture", self.t("teach_capture", face=face), "primary"),
                Target("teach:cancel", self.t("cancel")),
            ]
            screen.camera = self.view.image
        screen.lines = [
            self.t("camera", status=self.view.status.get("camera", "?")),
            self.t("tray", roi=self._roi_text(self.tray_roi)),
            *self._tray_problem(),
            self.t("buttons", status=self.view.status.get("buttons", "?") or self.t("buttons_ok")),
            self.t("state_dir", path=self.view.store.state_dir),
            self.t("profile", path=self.profile_path or self.t("profile_default")),
            *([self.examples.line()] if self.examples.open else []),
        ]
        return screen

    def _screen_look_alike(self, screen: Screen) -> None:
        """The first taught die to check, beside the die it looks like, in the report's words."""
        alike = self.look_alikes[0]
        own = self.t("teach_die", face=alike.face, number=alike.number)
        screen.look_alike = [(alike.crop, own)]
        if alike.like is None:
            said = self.t("teach_unlike", die=own, face=alike.face)
        else:
            like = self.t("teach_die", face=alike.like, number=alike.like_number)
            said = self.t("teach_look_alike", die=own, like=alike.like, like_die=like,
                          face=alike.face)  # fmt: skip
            if alike.like_crop is not None:
                screen.look_alike.append((alike.like_crop, like))
        screen.options = []
        screen.lines = [said]
        screen.actions = [Target("teach:seen", self.t("ok"), "primary")]

    def _roi_text(self, roi: Roi | None) -> str:
        if roi is None:
            return self.t("tray_all")
        return f"x={roi[0]} y={roi[1]}, {roi[2]}×{roi[3]}"

    def _screen_tray(self, screen: Screen) -> Screen:
        """The live camera view to touch two opposite corners of the tray on."""
        points = self.tray_points or []
        screen.camera = self.view.image
        screen.point_target = "trayat:"
        screen.tray_points = list(points)
        screen.tray = tray_rect(points) if len(points) == 2 else self.tray_roi
        screen.actions = [
            Target("tray:ok", self.t("ok"), "primary" if len(points) == 2 else "quiet"),
            Target("tray:reset", self.t("tray_reset"), "danger"),
            Target("tray:cancel", self.t("cancel")),
        ]
        shown = tray_rect(points) if len(points) == 2 else self.tray_roi
        screen.lines = [self.t("tray_help"), self.t("tray", roi=self._roi_text(shown))]
        return screen

    # ----- settings: tray region ------------------------------------------------------------

    def _tray_problem(self) -> list[str]:
        """A tray region not saved, and what the tray's dice size made of the capture size."""
        problem = self.view.status.get("tray_problem")
        capture = self.view.status.get("capture")
        lines = [self.t("tray_not_saved", problem=problem)] if problem else []
        return lines + ([self.t(capture.code, **capture.params)] if capture else [])

    def tray(self, step: str) -> None:
        steps: dict[str, Callable[[], None]] = {
            "ok": self._tray_ok, "reset": self._tray_reset, "cancel": self._tray_cancel
        }  # fmt: skip
        if step == "edit":
            self.teaching, self.taught = None, {}
            self.tray_points = []
            image = self.view.image
            self.view.say(self.t("tray_touch") if image is not None
                          else self.t("no_camera_frame"), image is None)  # fmt: skip
        elif step in steps and self.tray_points is not None:
            steps[step]()
        else:
            self.view.not_here(f"tray:{step}")

    def _tray_ok(self) -> None:
        points = self.tray_points or []
        if len(points) != 2:
            self.view.say(self.t("tray_two", n=len(points)), True)
            return
        roi = tray_rect(points)
        if min(roi[2], roi[3]) < MIN_TRAY_SIDE:
            self.view.say(self.t("tray_small", side=MIN_TRAY_SIDE), True)
            return
        self.tray_roi, self.tray_points = roi, None
        self.view.say(self.t("tray_saved", roi=self._roi_text(roi)))

    def _tray_reset(self) -> None:
        self.tray_roi, self.tray_points = None, None
        self.view.say(self.t("tray_saved", roi=self.t("tray_all")))

    def _tray_cancel(self) -> None:
        self.tray_points = None
        self.view.say("")

    def tray_at(self, where: str) -> None:
        """A touch on the camera view while choosing the tray: `x,y` in camera image pixels."""
        if self.tray_points is None:
            self.view.not_here(f"trayat:{where}")
            return
        if self.view.image is None:
            self.view.say(self.t("no_camera_frame"), True)
            return
        match = re.fullmatch(r"(-?\d+),(-?\d+)", where)
        height, width = self.view.image.shape[:2]
        if match is None:
            self.view.not_here(f"trayat:{where}")
            return
        x = min(max(int(match.group(1)), 0), width)
        y = min(max(int(match.group(2)), 0), height)
        if len(self.tray_points) == 2:
            self.tray_points = []  # a third touch starts a new rectangle
        self.tray_points.append((x, y))
        self.view.say(self.t("tray_touch_second") if len(self.tray_points) == 1
                  else self.t("tray_confirm"))  # fmt: skip

    # ----- settings: camera, teaching poker dice --------------------------------------------

    def choose_language(self, language: str) -> None:
        if language not in languages(with_pseudo=True):
            self.view.not_here(f"lang:{language}")
            return
        self.view.language = language
        self.view.store.set_setting("language", language)

    def choose_camera(self, spec: str) -> None:
        if spec not in CAMERA_CHOICES:
            self.view.not_here(f"camera:{spec}")
            return
        self.camera_choice = spec
        self.view.store.set_setting("camera", spec)
        self.view.say(self.t("camera", status=spec))

    def teach(self, step: str) -> None:
        if step == "start":
            self.teaching, self.taught, self.tray_points = 0, {}, None
            self.look_alikes = []
            self.view.say(self.t("teach_show", face=POKER_FACES[0]))
        elif step == "cancel":
            self.teaching, self.taught = None, {}
            self.view.say("")
        elif step == "capture" and self.teaching is not None:
            self._teach_capture()
        elif step == "seen" and self.look_alikes:
            self.look_alikes.pop(0)
        else:
            self.view.not_here(f"teach:{step}")

    def _teach_capture(self) -> None:
        from companion import teach

        assert self.teaching is not None
        if self.view.image is None:
            self.view.say(self.t("no_camera_frame"), True)
            return
        crops = teach.crop_dice(self.view.image)
        if not crops:
            self.view.say(self.t("teach_none"), True)
            return
        face = POKER_FACES[self.teaching]
        self.taught[face] = crops
        if self.teaching + 1 < len(POKER_FACES):
            self.teaching += 1
            self.view.say(self.t("teach_got", n=len(crops), face=face,
                              next=POKER_FACES[self.teaching]))  # fmt: skip
            return
        try:
            taught = teach.learn_and_check(self.taught, self.view.store.state_dir)
        except ValueError:  # the examples cannot make a profile: the log says why
            log.warning("teaching the poker faces failed", exc_info=True)
            self.view.say(self.t("illegal", reason=diagnostics.teach_failed()), True)
            return
        finally:
            self.teaching = None
        self.profile_path = str(taught.path)
        self.view.store.set_setting("poker_profile", self.profile_path)
        self.look_alikes = taught.look_alikes
        done = self.t("teach_done", path=taught.path)
        if taught.percent is not None:
            done += " " + self.t("teach_check", percent=taught.percent)
        self.view.say(done)


DEALT_GAMES = ("strategix", "sequence")  # their rules' entry line depends on the mode


class RulesScreen(ScreenObject):
    """A game's rules in short; the game shown, or the one being set up, to begin with."""

    name: ScreenName = "rules"

    def __init__(self, view: KioskView, chosen_game: Callable[[], str]) -> None:
        super().__init__(view)
        self.chosen_game = chosen_game
        self.game = ""  # the game whose rules were touched

    @property
    def taps(self) -> Mapping[str, Handler]:
        return {"rules": self.choose}

    def draw(self) -> Screen:
        session = self.view.session
        game = self.game or (session.record.game if session else self.chosen_game())
        game = game or "struggle"
        language = self.view.language
        title = self.t("titled", title=self.t("rules"), what=game_title(game, language))
        screen = Screen("rules", title, game=game)
        screen.lines = RULES[game][language]
        if session is not None and session.record.game == game and game in DEALT_GAMES:
            screen.lines = self.entry_for_mode(screen.lines, game, session.record.mode)
        if game == "struggle":  # the kiosk never deals Struggle's objective cards
            screen.lines = [*screen.lines, text(language, "struggle.rules_cards")]
        screen.options = [
            Target(
                f"rules:{g}", game_title(g, language), "selected" if g == game else "normal"
            )  # fmt: skip
            for g in GAMES
        ]
        return screen

    def entry_for_mode(self, lines: list[str], game: str, mode: str) -> list[str]:
        """The rules' last line says how a play is entered with physical cards; with cards
        the kiosk dealt, the hand is touched instead."""
        if mode != "full":
            return lines
        language = self.view.language
        dealt = text(language, "rules.dealt_strategix" if game == "strategix"
                     else "rules.dealt_sequence")  # fmt: skip
        return [*lines[:-1], dealt]

    def choose(self, game: str) -> None:
        if game not in GAMES:
            self.view.not_here(f"rules:{game}")
            return
        self.game = game


def tray_rect(corners: list[tuple[int, int]]) -> Roi:
    """The x, y, w, h rectangle with these two opposite corners."""
    (x1, y1), (x2, y2) = corners
    return (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
