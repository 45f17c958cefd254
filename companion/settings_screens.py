"""The settings and rules screens: language, camera, tray region, poker dice taught, rules text.

A mixin of the controller: it keeps its state (camera choice, tray region, teaching) on the
controller, which the app reads to apply them.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from companion import diagnostics
from display.i18n import RULES, game_title, languages, offered, text
from display.model import Screen, Target

log = logging.getLogger(__name__)

POKER_FACES = ("9", "10", "J", "Q", "K", "A")
CAMERA_CHOICES = ("auto", "picamera2", "webcam:0", "sim")
MIN_TRAY_SIDE = 40  # px of camera image: a smaller tray region is surely a slip of the finger
GAMES = ("struggle", "traverse", "strategix", "sequence", "roudalon")
Roi = tuple[int, int, int, int]  # x, y, w, h in camera image pixels


class SettingsScreens:
    """Settings and rules: screens and touches (mixed into the Controller)."""

    language: str
    store: Any
    status: dict[str, str]
    image: Any
    teaching: int | None
    taught: dict[str, list[Any]]
    tray_points: list[tuple[int, int]] | None
    tray_roi: Roi | None
    camera_choice: str
    profile_path: str
    rules_game: str
    screen_name: str
    examples_open: bool  # companion.examples_settings
    _examples_options: Any
    _examples_line: Any

    def _screen_settings(self) -> Screen:
        screen = Screen("settings", self._t("settings"))
        screen.options = [
            Target(
                f"lang:{lang}",
                text(lang, "language_name"),
                "selected" if self.language == lang else "normal",
            )  # fmt: skip
            for lang in offered()
        ] + [
            Target(f"camera:{spec}", spec, "selected" if spec == self.camera_choice else "quiet")
            for spec in CAMERA_CHOICES
        ]
        if self.tray_points is not None:
            return self._screen_tray(screen)
        if self.examples_open:
            screen.options = self._examples_options()
            screen.actions = [Target("examples:close", self._t("ok"), "primary")]
        elif self.teaching is None:
            screen.options += self._examples_options()
            screen.actions = [
                Target("tray:edit", self._t("tray_edit"), "normal"),
                Target("teach:start", self._t("teach"), "primary"),
            ]
        else:
            face = POKER_FACES[self.teaching]
            screen.actions = [
                Target("teach:capture", self._t("teach_capture", face=face), "primary"),
                Target("teach:cancel", self._t("cancel"), "quiet"),
            ]
            screen.camera = self.image
        screen.lines = [
            self._t("camera", status=self.status.get("camera", "?")),
            self._t("tray", roi=self._roi_text(self.tray_roi)),
            *self._tray_problem(),
            self._t("buttons", status=self.status.get("buttons", "?") or self._t("buttons_ok")),
            self._t("state_dir", path=self.store.state_dir),
            self._t("profile", path=self.profile_path or self._t("profile_default")),
            *([self._examples_line()] if self.examples_open else []),
        ]
        return screen

    def _roi_text(self, roi: Roi | None) -> str:
        if roi is None:
            return self._t("tray_all")
        return f"x={roi[0]} y={roi[1]}, {roi[2]}×{roi[3]}"

    def _screen_tray(self, screen: Screen) -> Screen:
        """The live camera view to touch two opposite corners of the tray on."""
        points = self.tray_points or []
        screen.camera = self.image
        screen.point_target = "trayat:"
        screen.tray_points = list(points)
        screen.tray = tray_rect(points) if len(points) == 2 else self.tray_roi
        screen.actions = [
            Target("tray:ok", self._t("ok"), "primary" if len(points) == 2 else "quiet"),
            Target("tray:reset", self._t("tray_reset"), "danger"),
            Target("tray:cancel", self._t("cancel"), "quiet"),
        ]
        shown = tray_rect(points) if len(points) == 2 else self.tray_roi
        screen.lines = [self._t("tray_help"), self._t("tray", roi=self._roi_text(shown))]
        return screen

    # ----- settings: tray region ------------------------------------------------------------

    def _tray_problem(self) -> list[str]:
        problem = self.status.get("tray_problem")
        return [self._t("tray_not_saved", problem=problem)] if problem else []

    def _tap_tray(self, step: str) -> None:
        if self.screen_name != "settings":
            self._not_here(f"tray:{step}")
        elif step == "edit":
            self.teaching, self.taught = None, {}
            self.tray_points = []
            self._say(self._t("tray_touch") if self.image is not None
                      else self._t("no_camera_frame"), self.image is None)  # fmt: skip
        elif step in ("ok", "reset", "cancel") and self.tray_points is not None:
            getattr(self, f"_tray_{step}")()
        else:
            self._not_here(f"tray:{step}")

    def _tray_ok(self) -> None:
        points = self.tray_points or []
        if len(points) != 2:
            self._say(self._t("tray_two", n=len(points)), True)
            return
        roi = tray_rect(points)
        if min(roi[2], roi[3]) < MIN_TRAY_SIDE:
            self._say(self._t("tray_small", side=MIN_TRAY_SIDE), True)
            return
        self.tray_roi, self.tray_points = roi, None
        self._say(self._t("tray_saved", roi=self._roi_text(roi)))

    def _tray_reset(self) -> None:
        self.tray_roi, self.tray_points = None, None
        self._say(self._t("tray_saved", roi=self._t("tray_all")))

    def _tray_cancel(self) -> None:
        self.tray_points = None
        self._say("")

    def _tap_trayat(self, where: str) -> None:
        """A touch on the camera view while choosing the tray: `x,y` in camera image pixels."""
        if self.tray_points is None or self.screen_name != "settings":
            self._not_here(f"trayat:{where}")
            return
        if self.image is None:
            self._say(self._t("no_camera_frame"), True)
            return
        match = re.fullmatch(r"(-?\d+),(-?\d+)", where)
        height, width = self.image.shape[:2]
        if match is None:
            self._not_here(f"trayat:{where}")
            return
        x = min(max(int(match.group(1)), 0), width)
        y = min(max(int(match.group(2)), 0), height)
        if len(self.tray_points) == 2:
            self.tray_points = []  # a third touch starts a new rectangle
        self.tray_points.append((x, y))
        self._say(self._t("tray_touch_second") if len(self.tray_points) == 1
                  else self._t("tray_confirm"))  # fmt: skip

    # ----- settings: camera, teaching poker dice --------------------------------------------

    def _tap_lang(self, language: str) -> None:
        if language not in languages(with_pseudo=True):
            self._not_here(f"lang:{language}")
            return
        self.language = language
        self.store.set_setting("language", language)

    def _tap_camera(self, spec: str) -> None:
        if spec not in CAMERA_CHOICES:
            self._not_here(f"camera:{spec}")
            return
        self.camera_choice = spec
        self.store.set_setting("camera", spec)
        self._say(self._t("camera", status=spec))

    def _tap_teach(self, step: str) -> None:
        if self.screen_name != "settings":
            self._not_here(f"teach:{step}")
        elif step == "start":
            self.teaching, self.taught, self.tray_points = 0, {}, None
            self._say(self._t("teach_show", face=POKER_FACES[0]))
        elif step == "cancel":
            self.teaching, self.taught = None, {}
            self._say("")
        elif step == "capture" and self.teaching is not None:
            self._teach_capture()
        else:
            self._not_here(f"teach:{step}")

    def _teach_capture(self) -> None:
        from companion import teach

        assert self.teaching is not None
        if self.image is None:
            self._say(self._t("no_camera_frame"), True)
            return
        crops = teach.crop_dice(self.image)
        if not crops:
            self._say(self._t("teach_none"), True)
            return
        face = POKER_FACES[self.teaching]
        self.taught[face] = crops
        if self.teaching + 1 < len(POKER_FACES):
            self.teaching += 1
            self._say(self._t("teach_got", n=len(crops), face=face,
                              next=POKER_FACES[self.teaching]))  # fmt: skip
            return
        try:
            path, percent = teach.learn_and_check(self.taught, self.store.state_dir)
        except ValueError:  # the examples cannot make a profile: the log says why
            log.warning("teaching the poker faces failed", exc_info=True)
            self._say(self._t("illegal", reason=diagnostics.teach_failed()), True)
            return
        finally:
            self.teaching = None
        self.profile_path = str(path)
        self.store.set_setting("poker_profile", self.profile_path)
        done = self._t("teach_done", path=path)
        if percent is not None:
            done += " " + self._t("teach_check", percent=percent)
        self._say(done)

    def _screen_rules(self) -> Screen:
        game = self.rules_game or (self.session.record.game if self.session else self.draft.game)
        game = game or "struggle"
        title = self._t("titled", title=self._t("rules"), what=game_title(game, self.language))
        screen = Screen("rules", title, game=game)
        screen.lines = RULES[game][self.language]
        screen.options = [
            Target(
                f"rules:{g}", game_title(g, self.language), "selected" if g == game else "normal"
            )  # fmt: skip
            for g in GAMES
        ]
        return screen

    def _tap_rules(self, game: str) -> None:
        if game not in GAMES:
            self._not_here(f"rules:{game}")
            return
        self.rules_game = game


def tray_rect(corners: list[tuple[int, int]]) -> Roi:
    """The x, y, w, h rectangle with these two opposite corners."""
    (x1, y1), (x2, y2) = corners
    return (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
