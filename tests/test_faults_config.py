"""Faults in configuration and deployment (#22): clear messages, a kiosk that starts anyway,
settings kept where the service may write, and a doctor that checks what `run` meets."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import app as app_module
from companion.app import App
from companion.config import CONFIG_NAME, ConfigError, load_config, run_config
from companion.persistence.store import DB_NAME
from companion.setup_checks import check_profile, check_state_dir, safe_fix, setup_checks
from display.i18n import say
from tabletop.cli import main
from tests.faults_support import fill, remount_read_only, small_tmpfs


def write_config(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize("content", [None, b"garbage", b"PK\x03\x04not really a zip"])
def test_a_missing_or_garbage_poker_profile_is_ignored_with_a_warning(
    tmp_path, content, monkeypatch
):
    profile = tmp_path / "poker.npz"
    if content is not None:
        profile.write_bytes(content)
    config = write_config(
        tmp_path / "c.toml", f'[camera]\nspec = "sim"\npoker_profile = "{profile}"\n'
    )
    shown = []
    real = app_module.show_problem
    monkeypatch.setattr(app_module, "show_problem", lambda c, p: shown.append(p) or real(c, p))
    assert main(["run", "--config", str(config), "--state-dir", str(tmp_path / "s"),
                 "--windowed", "--frames", "2"]) == 0  # fmt: skip
    said = say("en", shown[0]) if shown else ""
    assert "poker profile" in said and "ignored" in said
    check = check_profile(load_config(config))
    assert not check.ok and not check.blocking and "ignores it" in check.detail


def test_a_nul_in_state_dir_is_a_configuration_error(tmp_path, capsys):
    config = write_config(tmp_path / "c.toml", 'state_dir = "/var/lib/a\\u0000b"\n')
    with pytest.raises(ConfigError, match="NUL"):
        load_config(config)
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "NUL" in err


def test_doctor_reports_a_state_dir_that_is_a_file(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    check = check_state_dir(a_file)
    assert not check.ok and "not a directory" in check.detail and "chown" not in check.fix


@pytest.mark.parametrize("where", ["/proc/tabletop", "/proc", "/sys/x", "/", "/home"])
def test_doctor_never_suggests_changing_a_system_directory(where):
    fix = safe_fix(Path(where))
    assert "chown" not in fix and "/var/lib/tabletop" in fix
    assert "chown" not in check_state_dir(Path(where)).fix


def test_doctor_writes_real_data_and_sees_a_full_disk(tmp_path):
    with small_tmpfs(tmp_path / "full", "1m") as mount:
        fill(mount)
        check = check_state_dir(mount / "state")
        assert not check.ok and check.blocking
        assert "No space left" in check.detail or "disk full" in check.detail


def test_doctor_sees_a_read_only_disk(tmp_path):
    with small_tmpfs(tmp_path / "ro", "1m") as mount:
        (mount / "state").mkdir()
        remount_read_only(mount)
        check = check_state_dir(mount / "state")
        assert not check.ok and "cannot be written" in check.detail


def test_doctor_reports_a_damaged_database_without_touching_it(tmp_path):
    (tmp_path / DB_NAME).write_bytes(b"not a database at all")
    check = check_state_dir(tmp_path)
    assert not check.ok and not check.blocking and "not an SQLite database" in check.detail
    assert (tmp_path / DB_NAME).read_bytes() == b"not a database at all"


def test_doctor_runs_the_checks_run_meets(tmp_path):
    profile = tmp_path / "missing.npz"
    config = write_config(tmp_path / "c.toml", f'[camera]\npoker_profile = "{profile}"\n')
    labels = [check.label for check in setup_checks(config, tmp_path / "s")]
    assert labels == ["config", "poker profile", "state directory"]


def test_the_tray_region_chosen_on_screen_survives_a_read_only_config(tmp_path):
    state = tmp_path / "state"
    with small_tmpfs(tmp_path / "etc", "1m") as etc:
        config = write_config(etc / "config.toml", '[camera]\nspec = "sim"\n')
        remount_read_only(etc)  # /etc under ProtectSystem=strict
        app = App(run_config(config, state)[0], kiosk=False)
        assert app.config_path == state / CONFIG_NAME
        from companion.app import MissingCamera
        from companion.feed import BackgroundFeed, DiceFeed

        status: dict[str, str] = {}
        app.apply_tray((5, 6, 100, 80), BackgroundFeed(DiceFeed(MissingCamera("x"))), status)
        assert status["tray_problem"] == ""
        restarted, warnings = run_config(config, state)
        assert restarted.camera.tray_roi == (5, 6, 100, 80) and restarted.camera.spec == "sim"
        assert warnings == []


def test_a_broken_screen_settings_file_is_ignored_with_a_warning(tmp_path):
    config = write_config(tmp_path / "c.toml", "")
    (tmp_path / CONFIG_NAME).write_text("[display]\nrotation = 45\n")
    settings, warnings = run_config(config, tmp_path)
    assert settings.display.rotation == 0 and "display.rotation" in warnings[0]


def test_the_docs_no_longer_suggest_a_profile_under_home():
    text = (Path(__file__).resolve().parents[1] / "docs" / "vision.md").read_text()
    assert 'poker_profile = "/home' not in text
