"""The unit never gives up on a table (#22), and exit status 2 stays for configuration errors."""

from __future__ import annotations

import re
from pathlib import Path

from companion import errors

REPO = Path(__file__).resolve().parents[1]


def settings(section: str) -> dict[str, list[str]]:
    text = (REPO / "systemd" / "tabletop.service").read_text()
    body = re.search(rf"^\[{section}\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
    found: dict[str, list[str]] = {}
    for line in body.splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_no_start_limit_and_a_restart_after_every_failure():
    unit, service = settings("Unit"), settings("Service")
    assert unit["StartLimitIntervalSec"] == ["0"] and "StartLimitBurst" not in unit
    assert service["Restart"] == ["on-failure"] and service["RestartSec"]


def test_only_configuration_errors_stop_the_restarts():
    assert settings("Service")["RestartPreventExitStatus"] == [str(errors.CONFIG)]
    statuses = (REPO / "docs" / "errors.md").read_text()
    for status in (errors.FAILED, errors.CONFIG, errors.STATE_UNUSABLE, errors.INTERNAL):
        assert f"| {status} |" in statuses
