"""The kiosk: camera, dice reader, touch display, GPIO buttons and watchdog around the controller.

It starts with whatever hardware is there and says what is missing (settings screen, systemd
status): no camera means dice are entered by hand, no GPIO means touch only, no display means
headless. The main loop feeds the watchdog on every pass.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion import diagnostics
from companion.capture_fit import fit_capture
from companion.config import CONFIG_NAME, Config, ConfigError, save_camera_keys, save_tray_roi
from companion.controller import CameraImage, Controller, Press, Tap
from companion.examples import ExampleStore, TableAdaptation
from companion.feed import BackgroundFeed, DiceFeed
from companion.kiosk_guard import describe, guarded, screen_or_home, show_problem
from companion.persistence.recovery import open_store
from display.model import Screen
from engines.messages import Message
from hardware.capture_size import scaled_roi

log = logging.getLogger(__name__)
FRAME_SECONDS = 1 / 30


@dataclass
class Hardware:
    """What the app found at start-up, and what it says about it."""

    camera: Any
    buttons: Any
    status: dict[str, Any] = field(default_factory=dict)  # words or catalogue messages


def open_hardware_camera(spec: str, size: tuple[int, int] | None = None) -> Any:
    """The camera for `spec` (at capture `size` if given), started; a stand-in saying why when
    it cannot be opened."""
    from hardware.factory import open_camera

    try:
        camera = open_camera(spec, **({"size": size} if size else {}))
        camera.start()
    except Exception as error:  # a camera problem must never stop the table
        log.warning("camera %s: %s", spec, error)
        camera = MissingCamera(f"camera {spec}: {error}", diagnostics.no_camera(spec))
    return camera


def open_hardware(config: Config, camera_spec: str | None, camera: Any = None) -> Hardware:
    """The camera (`camera` when given, started) and the GPIO buttons, and what they say."""
    from hardware.buttons import Buttons

    if camera is not None:
        camera.start()
    else:
        camera = open_hardware_camera(camera_spec or config.camera.spec, config.camera.capture_size)
    buttons = Buttons.open(
        confirm_pin=config.gpio.confirm_pin,
        reroll_pin=config.gpio.reroll_pin,
        long_press_s=config.gpio.long_press_s,
    )
    status = {
        "camera": camera_line(camera, camera_spec or config.camera.spec),  # the one in use
        "buttons": diagnostics.buttons(buttons.available),  # "": working (said on screen)
    }
    return Hardware(camera, buttons, status)


def camera_line(camera: Any, spec: str) -> Message:
    """Which camera is in use (asked for as `spec`) and how it is, for the settings screen."""
    return getattr(camera, "said", None) or diagnostics.camera_line(spec, camera.status.state)


class MissingCamera:
    """Stands in for a camera that could not be opened: no frames, and the reason."""

    name = "no camera"

    def __init__(self, reason: str, said: Message | None = None) -> None:
        from hardware.camera import CameraStatus

        self.status = CameraStatus("no-camera", reason)
        self.said = said  # the reason in the catalogue's words, for the screen

    def read(self, timeout: float = 0.0) -> None:
        return None

    def stop(self) -> None:
        pass


def unused_state_dir(store: Any) -> str:
    """The state directory a store in memory could not use ('' for a store on disk)."""
    return str(store.state_dir) if store.path is None else ""


def load_profile(path: str) -> Any:
    if not path:
        return None
    from vision.profiles.profile import FaceProfile

    return FaceProfile.load(path)


def load_profile_safely(path: str) -> tuple[Any, Message | str]:
    """The poker profile at `path`, or None and why it is ignored (missing, not a profile)."""
    try:
        return load_profile(path), ""
    except Exception as error:  # a bad profile costs the taught faces, never the table
        log.warning("poker profile %s ignored: %s", path, error)
        return None, diagnostics.profile_ignored(path, error)


class App:
    def __init__(
        self,
        config: Config,
        camera_spec: str | None = None,
        game: str | None = None,
        kiosk: bool = True,
        fullscreen: bool = False,
    ) -> None:
        self.config = config
        self.fullscreen = fullscreen  # asked for on the command line: on a desktop too
        self.camera_spec = camera_spec
        self.game = game
        self.kiosk = kiosk
        self.first_frame_at: float | None = None
        self.applied: tuple[str, str] = ("", "")
        self.applied_roi = config.camera.tray_roi
        self.status_shown = ""
        self.redraws = 0  # screens drawn (a still screen is not drawn again)
        self.frame_seconds = FRAME_SECONDS  # a pass at most this often (0: as fast as it goes)
        self.screen: Screen | None = None  # the screen last drawn

    def run(self, max_frames: int | None = None) -> int:
        self.open()
        try:
            frames = 0
            while max_frames is None or frames < max_frames:
                tick = time.perf_counter()
                if not self.step():
                    return 0
                frames += 1
                time.sleep(max(0.0, self.frame_seconds - (time.perf_counter() - tick)))
            return 0
        finally:
            self.close()

    def open(self, camera: Any = None) -> None:
        """Start the window, the hardware (or this camera), the store and the controller."""
        from companion.watchdog import Watchdog
        from display.window import Window

        self.started = time.perf_counter()
        self.watchdog = Watchdog()
        display = self.config.display
        self.window = Window(display.size, display.rotation, self.kiosk,
                             display.fullscreen, force_fullscreen=self.fullscreen)  # fmt: skip
        if self.window.driver == "dummy":
            log.warning("no display: running headless (%s)",
                        self.window.problem or "SDL dummy driver")  # fmt: skip
        self.store = open_store(
            self.config.state_dir
        )  # before the camera: nothing to stop if it fails
        self.hardware = hardware = open_hardware(self.config, self.camera_spec, camera)
        log.info(
            "camera: %s (%s) — %s",
            hardware.camera.name,
            self.camera_spec or self.config.camera.spec,
            hardware.camera.status.message,
        )
        profile, profile_problem = load_profile_safely(self.config.camera.poker_profile)
        if profile_problem:
            hardware.status["camera"] = profile_problem
        examples = ExampleStore(self.config.state_dir)
        examples.all()  # a damaged examples file is set aside now, and said below
        dice_feed = DiceFeed(hardware.camera, self.config.camera.tray_roi, profile,
                             adaptation=TableAdaptation(examples))  # fmt: skip
        self.feed = BackgroundFeed(dice_feed)
        controller = self._controller(self.store, hardware)
        controller.use_layout(self.window.renderer.layout)
        if not controller.settings.camera_choice:  # the settings screen shows the one in use
            controller.settings.camera_choice = self.camera_spec or self.config.camera.spec
        if not self.config.camera.poker_profile and controller.profile_path:
            dice_feed.poker_profile, problem = load_profile_safely(controller.profile_path)
            hardware.status["camera"] = problem or hardware.status["camera"]
        self.applied = (controller.camera_choice, controller.profile_path)
        if self.window.problem:
            hardware.status["display"] = self.window.problem
        problems = [
            *diagnostics.store_notes(self.store.notes, unused_state_dir(self.store)),
            profile_problem,
            *diagnostics.examples_set_aside(len(examples.problems)),
        ]
        problems = [problem for problem in problems if problem]
        if problems:  # the journal has them all (logged where they happened)
            show_problem(controller, diagnostics.joined(problems[:3]))
        if self.game and controller.session is None:
            guarded(
                controller,
                "opening the game",
                lambda: controller.handle(Tap(f"game:{self.game}")),
                None,
            )
        self.controller = controller
        self.dirty, self.status_seen = True, {}
        self.feed.start()

    def close(self) -> None:
        self.watchdog.stopping()
        self.feed.stop()
        if getattr(self, "controller", None) is not None:
            self.controller.close()  # the review's worker process
        self.hardware.camera.stop()
        self.hardware.buttons.close()
        self.store.close()
        self.window.close()

    def _controller(self, store: Any, hardware: Hardware) -> Controller:
        """The controller, resuming the game in progress; without it if resuming fails."""

        def make(resume: bool) -> Controller:
            return Controller(store, self.config.language, status=hardware.status,
                              auto_resume=resume, tray_roi=self.config.camera.tray_roi)  # fmt: skip

        try:
            return make(True)
        except Exception as error:  # a game that cannot be resumed must not keep the table dark
            log.error("kiosk: resuming the game in progress failed", exc_info=True)
            controller = make(False)
            show_problem(controller, describe(error))
            return controller

    @staticmethod
    def _handle(controller: Controller, events: list) -> None:
        for event in events:
            guarded(controller, type(event).__name__, lambda e=event: controller.handle(e), None)

    def _apply_settings(
        self, controller: Controller, feed: BackgroundFeed, hardware: Hardware
    ) -> None:
        """A camera chosen or a poker profile taught on the settings screen takes effect now."""
        camera_choice, profile_path = self.applied
        if controller.camera_choice and controller.camera_choice != camera_choice:
            hardware.camera.stop()
            fresh = open_hardware_camera(controller.camera_choice)
            hardware.camera = fresh
            feed.swap_camera(fresh)
            hardware.status["camera"] = camera_line(fresh, controller.camera_choice)
        if controller.profile_path and controller.profile_path != profile_path:
            profile, problem = load_profile_safely(controller.profile_path)
            if problem:
                hardware.status["camera"] = problem
            else:
                feed.feed.set_poker_profile(profile)
        self.applied = (controller.camera_choice, controller.profile_path)
        if controller.tray_roi != self.applied_roi:
            self.apply_tray(controller.tray_roi, feed, hardware.status)
            self.fit_capture(controller, feed, hardware)

    @property
    def config_path(self) -> Path:
        """Where settings changed on the screen are saved: tabletop.toml in the state directory,
        the one place the service may write (`tabletop run` lays it over any --config file)."""
        return Path(self.config.state_dir) / CONFIG_NAME

    def apply_tray(
        self, roi: tuple[int, int, int, int] | None, feed: BackgroundFeed, status: dict[str, Any]
    ) -> None:
        """The tray region chosen on the settings screen: read within it now, and keep it."""
        feed.set_roi(roi)
        self.applied_roi = roi
        self.config = replace(self.config, camera=replace(self.config.camera, tray_roi=roi))
        try:
            save_tray_roi(self.config_path, roi)
            status["tray_problem"] = ""
        except ConfigError as error:  # used for this session all the same
            log.warning("tray region not saved: %s", error)
            status["tray_problem"] = diagnostics.tray_not_saved(error)

    def fit_capture(self, controller: Controller, feed: BackgroundFeed, hardware: Hardware) -> None:
        """The tray just chosen holds dice too small to read: the camera captures at a size that
        reads them, if it has one (the tray's region scaled with it), and the screen says so."""
        latest = getattr(hardware.camera, "latest", None)
        frame = latest() if latest else None
        if frame is None:
            return
        offered = getattr(hardware.camera, "capture_sizes", list)()
        fit = fit_capture(frame.image, self.applied_roi, offered)
        hardware.status["capture"] = fit.said() if fit else ""
        if fit is None or fit.raise_to is None:
            return
        hardware.camera.stop()
        spec = controller.camera_choice or self.camera_spec or self.config.camera.spec
        hardware.camera = open_hardware_camera(spec, fit.raise_to)
        feed.swap_camera(hardware.camera)
        roi = scaled_roi(self.applied_roi, fit.current, fit.raise_to)
        controller.settings.tray_roi = self.applied_roi = roi
        feed.set_roi(roi)
        camera = replace(self.config.camera, tray_roi=roi, capture_size=fit.raise_to)
        self.config = replace(self.config, camera=camera)
        try:
            save_camera_keys(self.config_path, {"tray_roi": roi, "capture_size": fit.raise_to})
        except ConfigError as error:  # used for this session all the same
            log.warning("capture size not saved: %s", error)
            hardware.status["tray_problem"] = diagnostics.tray_not_saved(error)

    @staticmethod
    def _throw(controller: Controller, hardware: Hardware) -> None:
        """The simulated camera throws the dice the table waits for when a player asks."""
        wanted, controller.table.dice.throw_wanted = controller.table.dice.throw_wanted, None
        throw = getattr(hardware.camera, "request_roll", None)
        controller.table.dice.can_throw = throw is not None
        if wanted is not None and throw is not None:
            throw(count=wanted.count, kind=wanted.kind)

    def step(self) -> bool:
        """One pass: input, buttons, camera in; the screen redrawn only when something changed
        (a still table costs no drawing; camera frames count only while the camera is shown).
        False when the window was closed."""
        window, controller, hardware, feed = self.window, self.controller, self.hardware, self.feed
        for user_input in window.poll():
            if user_input.kind == "quit":
                return False
            self.dirty = True
            if user_input.kind == "tap":
                self._handle(controller, [Tap(user_input.value)])
            elif user_input.kind == "button":
                self._handle(controller, [Press(user_input.value)])
            elif user_input.kind == "key":
                guarded(controller, "typing",
                        lambda key=user_input.value: controller.type_text(key), None)  # fmt: skip
        while not hardware.buttons.events.empty():
            self._handle(controller, [Press(hardware.buttons.events.get_nowait())])
            self.dirty = True
        # touches first: the readings below are for what follows them
        guarded(controller, "throwing the dice", lambda: self._throw(controller, hardware), None)
        request = guarded(controller, "asking for dice", controller.dice_request, None)
        feed.want(request.kind if request else None, controller.request_number())
        for event in feed.poll():
            self._handle(controller, [event])
            seen = window.renderer.camera_shown or not isinstance(event, CameraImage)
            self.dirty = self.dirty or seen
        if feed.feed.problem:  # its own words are in the log
            hardware.status["camera"] = diagnostics.reader_failed()
        if guarded(controller, "bots and hints", controller.tick, False):
            self.dirty = True  # a hint's choices came, a bot chose or played
        guarded(controller, "applying settings",
                lambda: self._apply_settings(controller, feed, hardware), None)  # fmt: skip
        if hardware.status != self.status_seen:
            self.status_seen, self.dirty = dict(hardware.status), True
        if self.dirty:
            self.screen = self._show(window, controller, self.watchdog, self.started)
            feed.show_camera(window.renderer.camera_shown)
            self.dirty = False
        self.watchdog.feed()
        return True

    def _show(self, window, controller, watchdog, started) -> Screen:
        screen = screen_or_home(controller)
        window.show(screen)
        self.redraws += 1
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter() - started
            watchdog.ready(f"first frame after {self.first_frame_at:.2f} s")
            log.info("first frame after %.2f s", self.first_frame_at)
        status = f"{screen.title}: {screen.turn}" if screen.turn else screen.title
        if status != self.status_shown:  # `systemctl status tabletop` says what is going on
            watchdog.status(status)
            self.status_shown = status
        return screen
