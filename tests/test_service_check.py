"""`tabletop doctor --as-service`: the unit's settings become systemd-run's, supervision left out;
where systemd is not PID 1 it says so in one line."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion import service_check
from tabletop.cli import main

REPO = Path(__file__).resolve().parents[1]
UNIT = (REPO / "systemd" / "tabletop.service").read_text()


def properties(command: list[str]) -> list[str]:
    return [arg.removeprefix("--property=") for arg in command if arg.startswith("--property=")]


def test_the_sandbox_user_and_directories_of_the_unit_are_passed() -> None:
    settings = service_check.service_settings([UNIT])
    given = properties(service_check.systemd_run_command(settings))
    for wanted in (
        "User=tabletop",
        "SupplementaryGroups=video render input gpio",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "StateDirectory=tabletop",
        "Environment=TABLETOP_STATE_DIR=/var/lib/tabletop",
        "DevicePolicy=closed",
        "CapabilityBoundingSet=",
        "MemoryDenyWriteExecute=yes",
    ):
        assert wanted in given
    # Repeated keys keep their order, as in the unit.
    filters = [p for p in given if p.startswith("SystemCallFilter=")]
    assert filters == [
        "SystemCallFilter=@system-service",
        "SystemCallFilter=~@privileged @resources",
    ]


def test_supervision_settings_are_left_out_and_the_doctor_is_run() -> None:
    command = service_check.systemd_run_command(service_check.service_settings([UNIT]))
    keys = {p.split("=", 1)[0] for p in properties(command)}
    assert not keys & {"Type", "WatchdogSec", "ExecStart", "Restart", "StandardOutput"}
    assert command[:3] == ["systemd-run", "--pipe", "--wait"]
    assert command[command.index("--") + 1 :] == ["/opt/tabletop/venv/bin/tabletop", "doctor"]


def test_a_drop_in_execstart_with_a_config_is_the_one_checked(tmp_path: Path) -> None:
    (tmp_path / "tabletop.service").write_text(UNIT)
    drop_in = tmp_path / "tabletop.service.d" / "override.conf"
    drop_in.parent.mkdir()
    drop_in.write_text(
        "[Service]\nExecStart=\n"
        "ExecStart=/opt/tabletop/venv/bin/tabletop run --config /home/pi/table.toml\n"
    )
    files = service_check.unit_files(dirs=[tmp_path])
    assert files == [tmp_path / "tabletop.service", drop_in]
    settings = service_check.service_settings([f.read_text() for f in files])
    command = service_check.systemd_run_command(settings, ["--camera", "usb:0"])
    assert command[command.index("--") + 1 :] == [
        "/opt/tabletop/venv/bin/tabletop",
        "doctor",
        "--camera",
        "usb:0",
        "--config",
        "/home/pi/table.toml",
    ]


def test_a_missing_unit_is_told_with_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(service_check.ServiceCheckError, match="run firmware/install-pi.sh"):
        service_check.unit_files(dirs=[tmp_path])


def test_without_systemd_as_pid_1_it_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(service_check, "systemd_is_pid1", lambda: False)
    assert main(["doctor", "--as-service"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "systemd is not running as PID 1" in error


@pytest.mark.skipif(
    not service_check.systemd_is_pid1() or not shutil.which("systemd-run"),
    reason="systemd is not PID 1 here (container or CI sandbox): the unit's sandbox cannot be run",
)
def test_the_doctor_runs_under_the_installed_units_sandbox() -> None:
    if not Path("/etc/systemd/system/tabletop.service").exists():
        pytest.skip("the unit is not installed on this machine (firmware/install-pi.sh)")
    result = subprocess.run(
        ["sudo", "-n", str(REPO / ".venv/bin/tabletop"), "doctor", "--as-service"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "As the service runs it: user tabletop" in result.stdout
    assert "state directory" in result.stdout
