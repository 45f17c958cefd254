"""What is (and isn't) connected: cameras, GPIO, display and touch, as checks the app can reuse.

Each check returns `Check(ok, label, detail, fix)`; `blocking` says whether the companion cannot
do its job without it (no camera, no display) or merely loses a convenience (no buttons).
Nothing here changes the machine; every probe has a time limit.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

from hardware.camera import CameraSource, CameraStatus, Frame

T = TypeVar("T")

PROBE_TIMEOUT_S = 8.0
MAX_PROBED = 12  # /dev/video* nodes tried for a frame (a Pi 5 has ~30 ISP and codec nodes)
ABS_MT_POSITION_X = 0x35
BTN_TOUCH = 0x14A


class Check(NamedTuple):
    ok: bool
    label: str
    detail: str
    fix: str = ""  # one sentence telling the user what to do, when not ok
    blocking: bool = True  # a problem here stops the companion from working


def with_time_limit(probe: Callable[[], T], seconds: float, default: T) -> T:
    """probe() in a daemon thread, or `default` when it takes longer (a hung driver)."""
    result: list[T] = []
    worker = threading.Thread(target=lambda: result.append(probe()), daemon=True)
    worker.start()
    worker.join(seconds)
    return result[0] if result else default


# --- cameras ----------------------------------------------------------------------------------
def check_picamera2() -> Check:
    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401
    except ImportError as error:
        return Check(
            False,
            "picamera2",
            f"not importable ({error})",
            "Install it with `sudo apt install python3-picamera2` and make the venv with "
            "--system-site-packages (it only matters for a Pi camera module).",
            blocking=False,
        )
    return Check(True, "picamera2", "importable", blocking=False)


def list_libcamera_cameras() -> tuple[list[str], str]:
    """Camera names libcamera sees, and how they were listed ('' when it can't be asked)."""
    from hardware.picam import list_pi_cameras

    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401

        cameras = with_time_limit(list_pi_cameras, PROBE_TIMEOUT_S, [])
        return [str(c.get("Model", "?")) for c in cameras], "picamera2"
    except ImportError:
        pass
    for tool in ("rpicam-hello", "libcamera-hello"):
        if shutil.which(tool):
            return cameras_from_tool(tool), tool
    return [], ""


def cameras_from_tool(tool: str) -> list[str]:
    try:
        listing = subprocess.run(
            [tool, "--list-cameras"], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    # lines look like "0 : imx708 [4608x2592 10-bit RGGB] (/base/soc/...)"
    return re.findall(r"^\s*\d+\s*:\s*(\S+)", listing.stdout, flags=re.MULTILINE)


def check_libcamera() -> Check:
    cameras, how = list_libcamera_cameras()
    if cameras:
        return Check(True, "Pi camera", f"{', '.join(cameras)} (listed by {how})", blocking=False)
    if not how:
        return Check(
            False,
            "Pi camera",
            "cannot ask libcamera: neither picamera2 nor rpicam-hello is installed",
            "On a Pi, `sudo apt install python3-picamera2 rpicam-apps`; elsewhere use a webcam.",
            blocking=False,
        )
    return Check(
        False,
        "Pi camera",
        f"libcamera lists no camera ({how})",
        "Check the ribbon cable (contacts facing the right way, power off first) and "
        "`camera_auto_detect=1` in /boot/firmware/config.txt.",
        blocking=False,
    )


def video_devices() -> list[tuple[int, str]]:
    """(N, driver name) for each /dev/videoN."""
    from hardware.factory import webcam_indexes

    found = []
    for index in webcam_indexes():
        name_file = Path(f"/sys/class/video4linux/video{index}/name")
        name = name_file.read_text().strip() if name_file.exists() else "?"
        found.append((index, name))
    return found


def check_video_devices() -> Check:
    devices = video_devices()
    if not devices:
        return Check(
            False,
            "/dev/video*",
            "no video devices",
            "Plug in a USB webcam (or connect the Pi camera); `ls /dev/video*` should list it.",
            blocking=False,
        )
    unreadable = [i for i, _ in devices if not os.access(f"/dev/video{i}", os.R_OK | os.W_OK)]
    gives_frame = {i: webcam_frame_within(i, PROBE_TIMEOUT_S / 2) for i, _ in devices[:MAX_PROBED]}
    listing = ", ".join(
        f"video{i} ({name}): {'gives a frame' if gives_frame[i] else 'no frame'}"
        for i, name in devices[:MAX_PROBED]
    )
    more = f" and {len(devices) - MAX_PROBED} more not tried" if len(devices) > MAX_PROBED else ""
    if unreadable and len(unreadable) == len(devices):
        return Check(
            False,
            "/dev/video*",
            f"{listing}{more}: none can be opened by this user",
            "Add the user to the video group: `sudo usermod -aG video $USER`, then log in again.",
            blocking=False,
        )
    if not any(gives_frame.values()):
        return Check(
            False,
            "/dev/video*",
            listing + more,
            "None gives a picture through OpenCV: try another USB port or cable "
            "(a Pi camera module is read through picamera2 instead).",
            blocking=False,
        )
    return Check(True, "/dev/video*", listing + more, blocking=False)


def webcam_frame_within(index: int, seconds: float) -> bool:
    from hardware.factory import webcam_gives_frame
    from hardware.webcam import opencv_capture

    return with_time_limit(lambda: webcam_gives_frame(index, opencv_capture), seconds, False)


def check_camera_frame(spec: str = "auto", timeout: float = PROBE_TIMEOUT_S) -> Check:
    """Opens the camera the app would use and waits for one frame."""
    from hardware.factory import DOCTOR_HINT, open_camera

    try:
        source = open_camera(spec)
    except ValueError as error:
        return Check(False, "camera frame", str(error), "Fix the camera setting in the config.")
    chosen = source.auto_choice or spec
    with source:
        frame, status = first_frame(source, timeout)
    if frame is None:
        waited = "" if status.state == "no-camera" else f"no frame in {timeout:.0f} s — "
        return Check(
            False,
            "camera frame",
            f"{chosen}: {waited}{status.message.removesuffix(DOCTOR_HINT)}",
            "Connect a camera (Pi camera module or USB webcam) and check the lines above.",
        )
    height, width = frame.image.shape[:2]
    return Check(True, "camera frame", f"{chosen} gives {width}x{height} frames")


def first_frame(source: CameraSource, timeout: float) -> tuple[Frame | None, CameraStatus]:
    """Waits for a frame, giving up early once the source knows there is no camera."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = source.read(timeout=min(0.25, max(0.0, deadline - time.monotonic())))
        if frame is not None or source.status.state == "no-camera":
            return frame, source.status
    return None, source.status


# --- GPIO ------------------------------------------------------------------------------------
def on_raspberry_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.exists() and "Raspberry Pi" in model.read_text(errors="replace")


def check_gpio() -> Check:
    from gpiozero import Device

    from hardware.gpio import default_pin_factory, factory_name

    factory, reason = default_pin_factory()
    if factory is not None:
        name = factory_name(factory)
        if factory is not Device.pin_factory:
            factory.close()  # only probed: leave the pins to the app
        if os.environ.get("GPIOZERO_PIN_FACTORY"):
            name += " (set by GPIOZERO_PIN_FACTORY)"
        return Check(True, "GPIO", f"pin factory {name}", blocking=False)
    return Check(False, "GPIO", reason, gpio_fix(), blocking=False)


def gpio_fix() -> str:
    chips = glob.glob("/dev/gpiochip*")
    if chips and not all(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return "Add the user to the gpio group: `sudo usermod -aG gpio $USER`, then log in again."
    if on_raspberry_pi():
        return (
            "Install a pin library: `sudo apt install python3-lgpio` "
            "(venv made with --system-site-packages)."
        )
    return "No GPIO header on this machine: buttons are off, the touch screen still works."


# --- display and touch -----------------------------------------------------------------------
def display_candidates() -> list[tuple[str, str]]:
    """(SDL driver, why it could work here) for each driver whose prerequisites exist."""
    candidates = []
    cards = sorted(glob.glob("/dev/dri/card*"))
    if cards:
        candidates.append(("kmsdrm", ", ".join(cards)))
    if os.environ.get("WAYLAND_DISPLAY"):
        candidates.append(("wayland", f"WAYLAND_DISPLAY={os.environ['WAYLAND_DISPLAY']}"))
    if os.environ.get("DISPLAY"):
        candidates.append(("x11", f"DISPLAY={os.environ['DISPLAY']}"))
    return candidates


def sdl_driver_works(driver: str) -> bool:
    """Whether pygame can open `driver` (tried in a child process: a failing init can hang)."""
    code = "import pygame; pygame.display.init(); print(pygame.display.get_driver())"
    env = dict(os.environ, SDL_VIDEODRIVER=driver, PYGAME_HIDE_SUPPORT_PROMPT="1")
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return False
    return result.returncode == 0 and result.stdout.strip() == driver


def check_display() -> Check:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
    except ImportError as error:
        return Check(
            False, "display", f"pygame-ce missing ({error})", "Reinstall: `pip install pygame-ce`."
        )
    candidates = display_candidates()
    working = [(driver, why) for driver, why in candidates if sdl_driver_works(driver)]
    if working:
        return Check(True, "display", ", ".join(f"SDL {d} works ({why})" for d, why in working))
    tried = ", ".join(f"{d} ({why}) fails" for d, why in candidates) or (
        "no /dev/dri/card*, no DISPLAY or WAYLAND_DISPLAY"
    )
    return Check(
        False,
        "display",
        tried,
        "On a Pi enable KMS (`dtoverlay=vc4-kms-v3d` in /boot/firmware/config.txt) and add the "
        "user to the video and render groups; elsewhere run from a desktop session.",
    )


def touch_devices() -> list[tuple[str, str, bool]]:
    """(event device, name, readable) for input devices that report touch positions."""
    found = []
    for device in sorted(glob.glob("/dev/input/event*")):
        sys_dir = Path("/sys/class/input") / Path(device).name / "device"
        if not is_touch(sys_dir):
            continue
        name_file = sys_dir / "name"
        name = name_file.read_text().strip() if name_file.exists() else "?"
        found.append((device, name, os.access(device, os.R_OK)))
    return found


def capability_bits(path: Path) -> int:
    """A sysfs capability bitmap ("1 0 3f" = words, most significant first) as one int."""
    if not path.exists():
        return 0
    bits = 0
    for word in path.read_text().split():
        bits = (bits << 64) | int(word, 16)
    return bits


def is_touch(sys_dir: Path) -> bool:
    absolute = capability_bits(sys_dir / "capabilities" / "abs")
    keys = capability_bits(sys_dir / "capabilities" / "key")
    return bool(absolute >> ABS_MT_POSITION_X & 1) or (
        bool(absolute & 1) and bool(keys >> BTN_TOUCH & 1)
    )


def check_touch() -> Check:
    devices = touch_devices()
    if not devices:
        inputs = len(glob.glob("/dev/input/event*"))
        return Check(
            False,
            "touch input",
            f"no touch device among {inputs} /dev/input/event* devices",
            "Connect the touch panel (DSI ribbon or USB touch cable); the buttons still work.",
            blocking=False,
        )
    listing = ", ".join(f"{device} ({name})" for device, name, _ in devices)
    if not any(readable for _, _, readable in devices):
        return Check(
            False,
            "touch input",
            f"{listing}: not readable by this user",
            "Add the user to the input group: `sudo usermod -aG input $USER`, then log in again.",
            blocking=False,
        )
    return Check(True, "touch input", listing, blocking=False)


def hardware_checks(camera_spec: str = "auto") -> list[Check]:
    return [
        check_picamera2(),
        check_libcamera(),
        check_video_devices(),
        check_camera_frame(camera_spec),
        check_gpio(),
        check_display(),
        check_touch(),
    ]
