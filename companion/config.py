"""The kiosk's settings, read from a small TOML file; a broken file names the key at fault.

language = "fr"                  # fr, en: any language with a catalogue in display/locale
state_dir = "/var/lib/tabletop"  # optional; else $TABLETOP_STATE_DIR, $STATE_DIRECTORY, ~/...

[camera]
spec = "auto"                    # auto, picamera2[:N], webcam[:N], sim, replay:PATH
tray_roi = [40, 30, 560, 420]    # optional x, y, w, h of the tray in the camera frame
capture_size = [2304, 1296]      # optional; set by the kiosk when the tray's dice are too small
poker_profile = ""               # optional path of a taught poker-dice profile (.npz)

[display]
size = [800, 480]                # 800x480 (official 7") or 720x1280 (Touch Display 2)
rotation = 0                     # 0, 90, 180, 270: done in software, touch remapped
fullscreen = true

[gpio]
confirm_pin = 17
reroll_pin = 27
long_press_s = 1.0

[club]                           # optional: push games to a club server (docs/club.md)
url = "http://club.local:8300"
token = "..."                    # the table's token, from `tabletop club add-table`
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from display.i18n import languages

LANGUAGES = languages(with_pseudo=True)  # a language is available once its catalogue is
ROTATIONS = (0, 90, 180, 270)
SIZES = ((800, 480), (720, 1280))
DEFAULT_STATE_DIR = Path.home() / ".local" / "state" / "tabletop"


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the key."""


@dataclass(frozen=True)
class CameraConfig:
    spec: str = "auto"
    tray_roi: tuple[int, int, int, int] | None = None
    poker_profile: str = ""
    capture_size: tuple[int, int] | None = None  # None: the camera's own default


@dataclass(frozen=True)
class DisplayConfig:
    size: tuple[int, int] = (800, 480)
    rotation: int = 0
    fullscreen: bool = True


@dataclass(frozen=True)
class GpioConfig:
    confirm_pin: int = 17
    reroll_pin: int = 27
    long_press_s: float = 1.0


@dataclass(frozen=True)
class ClubConfig:
    url: str = ""  # empty: the table belongs to no club
    token: str = ""


@dataclass(frozen=True)
class Config:
    language: str = "fr"
    state_dir: Path = field(default_factory=lambda: default_state_dir(os.environ))
    camera: CameraConfig = field(default_factory=CameraConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    club: ClubConfig = field(default_factory=ClubConfig)
    source: Path | None = None  # the file it was read from

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **changes)


def default_state_dir(environ: os._Environ[str] | dict[str, str]) -> Path:
    """$TABLETOP_STATE_DIR, else systemd's $STATE_DIRECTORY (first entry), else ~/.local/state."""
    explicit = environ.get("TABLETOP_STATE_DIR", "").strip()
    if explicit:
        return Path(explicit)
    systemd = environ.get("STATE_DIRECTORY", "").strip()
    if systemd:
        return Path(systemd.split(":")[0])
    return DEFAULT_STATE_DIR


def load_config(path: str | Path | None = None) -> Config:
    """Settings from `path` (None: every default). Raises ConfigError naming the bad key."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the config file: {error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None
    return parse_config(data, source=path)


def parse_config(data: dict[str, Any], source: Path | None = None) -> Config:
    _no_unknown(data, {"language", "state_dir", "camera", "display", "gpio", "club"}, "")
    language = _choice(data, "language", LANGUAGES, "fr", "")
    state_dir = data.get("state_dir")
    if state_dir is not None and (not isinstance(state_dir, str) or not state_dir.strip()):
        raise ConfigError("state_dir: expected a directory path as text")
    if state_dir and "\0" in state_dir:
        raise ConfigError("state_dir: a path cannot contain a NUL character")
    return Config(
        language=language,
        state_dir=Path(state_dir).expanduser() if state_dir else default_state_dir(os.environ),
        camera=_camera(_table(data, "camera")),
        display=_display(_table(data, "display")),
        gpio=_gpio(_table(data, "gpio")),
        club=_club(_table(data, "club")),
        source=source,
    )


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{key}: expected a [{key}] table")
    return value


def _no_unknown(data: dict[str, Any], known: set[str], prefix: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(
            f"{prefix}{unknown[0]}: unknown setting (known: {', '.join(sorted(known))})"
        )


def _choice(data: dict[str, Any], key: str, allowed: tuple, default: Any, prefix: str) -> Any:
    value = data.get(key, default)
    if value not in allowed or isinstance(value, bool):
        shown = ", ".join(str(a) for a in allowed)
        raise ConfigError(f"{prefix}{key}: {value!r} is not one of {shown}")
    return value


def _camera(data: dict[str, Any]) -> CameraConfig:
    _no_unknown(data, {"spec", "tray_roi", "poker_profile", "capture_size"}, "camera.")
    spec = data.get("spec", "auto")
    if not isinstance(spec, str):
        raise ConfigError("camera.spec: expected text like auto, sim, webcam:0")
    from hardware.factory import parse_spec

    try:
        parse_spec(spec)
    except ValueError as error:
        raise ConfigError(f"camera.spec: {error}") from None
    roi = data.get("tray_roi")
    if roi is not None:
        roi = _int_list(roi, 4, "camera.tray_roi", "[x, y, w, h]")
        if roi[0] < 0 or roi[1] < 0 or roi[2] <= 0 or roi[3] <= 0:
            raise ConfigError("camera.tray_roi: x, y must be >= 0 and w, h > 0")
    profile = data.get("poker_profile", "")
    if not isinstance(profile, str) or "\0" in profile:
        raise ConfigError("camera.poker_profile: expected a file path as text")
    size = data.get("capture_size")
    if size is not None:
        size = _int_list(size, 2, "camera.capture_size", "[width, height]")
        if min(size) < 16 or max(size) > 16384:
            raise ConfigError("camera.capture_size: width and height must be 16 to 16384 px")
    return CameraConfig(spec=spec, tray_roi=roi, poker_profile=profile, capture_size=size)


def _display(data: dict[str, Any]) -> DisplayConfig:
    _no_unknown(data, {"size", "rotation", "fullscreen"}, "display.")
    size = _int_list(data.get("size", [800, 480]), 2, "display.size", "[width, height]")
    if size not in SIZES:
        raise ConfigError(f"display.size: {list(size)} is not one of [800, 480] or [720, 1280]")
    rotation = _choice(data, "rotation", ROTATIONS, 0, "display.")
    fullscreen = data.get("fullscreen", True)
    if not isinstance(fullscreen, bool):
        raise ConfigError("display.fullscreen: expected true or false")
    return DisplayConfig(size=size, rotation=rotation, fullscreen=fullscreen)


def _gpio(data: dict[str, Any]) -> GpioConfig:
    _no_unknown(data, {"confirm_pin", "reroll_pin", "long_press_s"}, "gpio.")
    pins = {}
    for key, default in (("confirm_pin", 17), ("reroll_pin", 27)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
            raise ConfigError(f"gpio.{key}: expected a BCM pin number 0-27, got {value!r}")
        pins[key] = value
    if pins["confirm_pin"] == pins["reroll_pin"]:
        raise ConfigError("gpio.reroll_pin: must differ from gpio.confirm_pin")
    long_press = data.get("long_press_s", 1.0)
    if isinstance(long_press, bool) or not isinstance(long_press, int | float):
        raise ConfigError(f"gpio.long_press_s: expected seconds, got {long_press!r}")
    if not 0.2 <= long_press <= 10:
        raise ConfigError(f"gpio.long_press_s: {long_press} is outside 0.2..10 seconds")
    return GpioConfig(pins["confirm_pin"], pins["reroll_pin"], float(long_press))


def _club(data: dict[str, Any]) -> ClubConfig:
    _no_unknown(data, {"url", "token"}, "club.")
    url, token = data.get("url", ""), data.get("token", "")
    if not isinstance(url, str) or (url and not re.match(r"https?://[^/\s]+", url)):
        raise ConfigError(
            "club.url: expected the club server's address, like http://club.local:8300"
        )
    if not isinstance(token, str) or (url and not token.strip()):
        raise ConfigError(
            "club.token: expected the table's token as text (tabletop club add-table)"
        )
    return ClubConfig(url=url.strip(), token=token.strip())


def _int_list(value: Any, length: int, key: str, shape: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != length
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise ConfigError(f"{key}: expected {shape} as whole numbers, got {value!r}")
    return tuple(value)


CONFIG_NAME = "tabletop.toml"  # in the state directory, when `tabletop run` is given no --config


def saved_config(state_dir: str | Path | None = None) -> Path | None:
    """The config file settings are saved to when none is named, if it exists."""
    path = Path(state_dir or default_state_dir(os.environ)) / CONFIG_NAME
    return path if path.is_file() else None


def run_config(
    path: str | Path | None, state_dir: str | Path | None = None
) -> tuple[Config, list[str]]:
    """The settings `tabletop run` (and `doctor`) use: the --config file (else the state
    directory's tabletop.toml), the --state-dir, then what was chosen on the screen and saved in
    the state directory. Returns them and warnings: the screen's file, when broken, is ignored
    with a warning (ConfigError is raised only for the file the user named)."""
    config = load_config(path or saved_config(state_dir))
    if state_dir:
        config = config.with_overrides(state_dir=Path(state_dir))
    saved = Path(config.state_dir) / CONFIG_NAME
    if path is None or not saved.is_file() or saved == Path(path):
        return config, []
    try:
        chosen = load_config(saved)
    except ConfigError as error:
        return config, [f"settings chosen on the screen ignored: {error}"]
    if chosen.camera.tray_roi is None:
        return config, []
    # the tray's region is in the pixels of the capture size it was saved with: both go together
    camera = replace(config.camera, tray_roi=chosen.camera.tray_roi,
                     capture_size=chosen.camera.capture_size)  # fmt: skip
    return replace(config, camera=camera), []


def save_tray_roi(path: str | Path, roi: tuple[int, int, int, int] | None) -> Config:
    """Write `camera.tray_roi` (None: remove it, the whole frame) into the TOML file at `path`,
    keeping every other line and comment; creates the file if need be. Returns the config read
    back; a file that would not load again is left untouched (ConfigError)."""
    return save_camera_keys(path, {"tray_roi": roi})


def save_camera_keys(path: str | Path, values: dict[str, tuple[int, ...] | None]) -> Config:
    """Write each `camera.KEY` of `values` (lists of integers; None removes the key) as
    `save_tray_roi` does: every other line kept, nothing written if it would not load again."""
    path = Path(path)
    try:
        old = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the config file: {error}") from None
    new = old
    for key, value in values.items():
        line = None if value is None else f"{key} = [{', '.join(str(int(v)) for v in value)}]"
        new = _with_camera_key(new, key, line)
    names = ", ".join(f"camera.{key}" for key in values)
    try:
        config = parse_config(tomllib.loads(new), source=path)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise ConfigError(f"{path}: cannot update {names}: {error}") from None
    for key, value in values.items():
        if getattr(config.camera, key) != (None if value is None else tuple(value)):
            raise ConfigError(f"{path}: camera.{key} is set in a way this editor cannot change")
    scratch = path.with_name(path.name + ".new")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch.write_text(new, encoding="utf-8")
        os.replace(scratch, path)
    except OSError as error:
        raise ConfigError(f"{path}: cannot write the config file: {error}") from None
    return config


def _with_camera_key(text: str, key: str, line: str | None) -> str:
    """`text` with `key = ...` in its [camera] table replaced by `line` (None: removed)."""
    lines = text.splitlines()
    header = next((i for i, t in enumerate(lines) if re.match(r"\s*\[camera\]\s*(#.*)?$", t)), None)
    if header is None:
        if line is None:
            return text
        return (text.rstrip("\n") + "\n\n" if text.strip() else "") + f"[camera]\n{line}\n"
    end = next(
        (i for i in range(header + 1, len(lines)) if re.match(r"\s*\[", lines[i])), len(lines)
    )
    found = next((i for i in range(header + 1, end) if re.match(rf"\s*{key}\s*=", lines[i])), None)
    if found is not None:
        lines[found : found + 1] = [] if line is None else [line]
    elif line is not None:
        lines.insert(header + 1, line)
    return "\n".join(lines) + "\n"
