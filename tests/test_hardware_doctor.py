"""`tabletop doctor` and the checks behind it, on this machine (no Pi, no camera, no GPIO)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from hardware import checks
from hardware.checks import Check
from tabletop.cli import main
from tabletop.commands.doctor import check_config, check_state_dir, print_report


def run_doctor(capsys, *args: str) -> tuple[int, list[str]]:
    code = main(["doctor", *args])
    return code, capsys.readouterr().out.splitlines()


def line_for(lines: list[str], label: str) -> str:
    found = [line for line in lines if line[8:].startswith(label)]
    assert found, f"no {label!r} line in {lines}"
    return found[0]


def test_doctor_runs_here_and_explains_what_is_missing(tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text('language = "en"\n[camera]\nspec = "sim"\n[gpio]\nconfirm_pin = 17\n')
    code, lines = run_doctor(capsys, "--config", str(config), "--state-dir", str(tmp_path / "s"))
    verdicts = [line for line in lines if line and not line.startswith(" ")][:-1]
    assert all(line.startswith(("OK ", "PROBLEM ")) for line in verdicts)
    for label in ("picamera2", "Pi camera", "/dev/video*", "camera frame", "GPIO", "display"):
        line_for(lines, label)
    assert line_for(lines, "config").startswith("OK") and "config.toml" in line_for(lines, "config")
    assert line_for(lines, "camera frame").startswith("OK")  # the config's camera: sim
    assert line_for(lines, "state directory").startswith("OK")
    gpio = line_for(lines, "GPIO")
    if gpio.startswith("PROBLEM"):  # a laptop or CI: the fix line follows
        assert "fix:" in lines[lines.index(gpio) + 1]
    blocked = any(line.startswith("Blocking:") for line in lines)
    assert code == (1 if blocked else 0)


def test_doctor_reports_a_broken_config_and_fails(tmp_path: Path, capsys) -> None:
    config = tmp_path / "config.toml"
    config.write_text("camera = \n")
    code, lines = run_doctor(capsys, "--config", str(config), "--state-dir", str(tmp_path))
    assert code == 1
    assert line_for(lines, "config").startswith("PROBLEM")
    assert "Blocking:" in lines[-1] and "config" in lines[-1]


def test_config_and_state_dir_checks(tmp_path: Path) -> None:
    missing, settings = check_config(tmp_path / "missing.toml")
    assert not missing.ok and settings is None and "no such config file" in missing.detail
    defaults, settings = check_config(None)
    assert defaults.ok and settings is not None
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = check_state_dir(blocker / "state")
    assert not result.ok and "not a directory" in result.detail and result.fix
    result = check_state_dir(tmp_path)
    assert result.ok and list(tmp_path.iterdir()) == [blocker]  # the probe file is gone


def test_report_exit_depends_only_on_blocking_problems() -> None:
    out = io.StringIO()
    assert print_report([Check(True, "a", "fine"), Check(False, "b", "gone", "plug", False)], out)
    assert "PROBLEM b" in out.getvalue() and "fix: plug" in out.getvalue()
    assert "Ready, without: b" in out.getvalue()
    assert not print_report([Check(False, "c", "broken", "mend")], io.StringIO())


def test_camera_frame_check_with_the_simulated_camera() -> None:
    result = checks.check_camera_frame("sim", timeout=5)
    assert result.ok and "640x480" in result.detail
    bad = checks.check_camera_frame("usb-cam")
    assert not bad.ok and "bad camera spec" in bad.detail


def test_no_camera_check_is_quick_and_says_why(monkeypatch) -> None:
    monkeypatch.setattr("hardware.factory.webcam_indexes", lambda: [])
    result = checks.check_camera_frame("auto", timeout=5)
    assert not result.ok and result.blocking
    assert "No camera found" in result.detail and "tabletop doctor" not in result.detail


def test_gpio_check_names_the_pin_factory(monkeypatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    result = checks.check_gpio()
    assert result.ok and "pin factory mock" in result.detail and not result.blocking


def test_gpio_check_without_pins_is_not_blocking(monkeypatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    if checks.on_raspberry_pi():
        pytest.skip("this machine is a Raspberry Pi")
    result = checks.check_gpio()
    assert not result.ok and not result.blocking and "pin factory" in result.detail


def write_caps(sys_dir: Path, abs_bits: str, key_bits: str) -> None:
    (sys_dir / "capabilities").mkdir(parents=True)
    (sys_dir / "capabilities" / "abs").write_text(abs_bits + "\n")
    (sys_dir / "capabilities" / "key").write_text(key_bits + "\n")


def test_touch_capability_detection(tmp_path: Path) -> None:
    # a multitouch panel: ABS_X, ABS_Y, ABS_MT_POSITION_X/Y ... (bits 0x35, 0x36 set)
    write_caps(tmp_path / "panel", "660800000000003", "400 0 0 0 0 0")
    # a keyboard: no absolute axes
    write_caps(tmp_path / "keyboard", "0", "1000000000007 ff9f207ac14057ff febeffdfffefffff")
    # a single-touch screen: ABS_X/ABS_Y and BTN_TOUCH (key bit 0x14a = word 5, bit 10)
    write_caps(tmp_path / "resistive", "3", "400 0 0 0 0 0")
    assert checks.is_touch(tmp_path / "panel")
    assert not checks.is_touch(tmp_path / "keyboard")
    assert checks.is_touch(tmp_path / "resistive")
    assert checks.capability_bits(tmp_path / "nothing") == 0
