"""The kiosk config: defaults, a full file, and errors that name the key at fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import ConfigError, default_state_dir, load_config

GOOD = """
language = "en"
state_dir = "{state}"

[camera]
spec = "webcam:1"
tray_roi = [40, 30, 560, 420]

[display]
size = [720, 1280]
rotation = 90
fullscreen = false

[gpio]
confirm_pin = 5
reroll_pin = 6
long_press_s = 1.5
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tabletop.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file():
    config = load_config(None)
    assert config.language == "fr"
    assert config.display.size == (800, 480) and config.display.rotation == 0
    assert config.camera.spec == "auto" and config.camera.tray_roi is None
    assert (config.gpio.confirm_pin, config.gpio.reroll_pin) == (17, 27)


def test_full_file(tmp_path):
    config = load_config(write(tmp_path, GOOD.format(state=tmp_path / "s")))
    assert config.language == "en"
    assert config.state_dir == tmp_path / "s"
    assert config.camera.spec == "webcam:1" and config.camera.tray_roi == (40, 30, 560, 420)
    assert config.display.size == (720, 1280) and config.display.rotation == 90
    assert config.display.fullscreen is False
    assert config.gpio.long_press_s == 1.5


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('language = "de"', "language"),
        ('colour = "blue"', "colour"),
        ('[camera]\nspec = "dslr"', "camera.spec"),
        ("[camera]\ntray_roi = [1, 2, 3]", "camera.tray_roi"),
        ("[camera]\ntray_roi = [0, 0, 0, 10]", "camera.tray_roi"),
        ("[display]\nsize = [1024, 600]", "display.size"),
        ("[display]\nrotation = 45", "display.rotation"),
        ('[display]\nfullscreen = "yes"', "display.fullscreen"),
        ("[gpio]\nconfirm_pin = 40", "gpio.confirm_pin"),
        ("[gpio]\nconfirm_pin = 4\nreroll_pin = 4", "gpio.reroll_pin"),
        ("[gpio]\nlong_press_s = 0", "gpio.long_press_s"),
        ("[gpio]\nbutton = 3", "gpio.button"),
        ("camera = 3", "camera"),
        ("state_dir = 3", "state_dir"),
    ],
)
def test_bad_values_name_their_key(tmp_path, text, key):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert str(caught.value).startswith(key)


def test_unreadable_files_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "language = "))


def test_state_dir_from_environment():
    assert default_state_dir({"TABLETOP_STATE_DIR": "/x"}) == Path("/x")
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/tabletop:/other"}) == Path(
        "/var/lib/tabletop"
    )
    assert default_state_dir({}).name == "tabletop"
