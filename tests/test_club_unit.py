"""The club server's and the table's web systemd units: `systemd-analyze verify` says nothing,
and their exposure under `systemd-analyze security` stays low (as .ci/system-checks holds the
table's kiosk unit)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
BINARY = "/opt/tabletop/venv/bin/tabletop"
UNITS = {
    "tabletop-club.service": f"ExecStart={BINARY} club serve\n",
    "tabletop-web.service": f"ExecStart={BINARY} serve-web --config "
    "/var/lib/tabletop/tabletop.toml --port 8080\n",
}
MAX_EXPOSURE = 2.0


@pytest.fixture(params=sorted(UNITS))
def unit_copy(request, tmp_path) -> Path:
    """The unit pointing at stand-ins, as verify insists its binary and env file exist."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package)")
    text = (SYSTEMD / request.param).read_text(encoding="utf-8")
    assert UNITS[request.param] in text
    env = tmp_path / "club.env"
    env.write_text("TABLETOP_CLUB_PORT=8300\n")
    text = text.replace(f"ExecStart={BINARY} ", f"ExecStart={shutil.which('true')} ")
    text = text.replace("EnvironmentFile=/etc/tabletop/club.env", f"EnvironmentFile={env}")
    copy = tmp_path / request.param
    copy.write_text(text, encoding="utf-8")
    return copy


def test_the_unit_verifies_without_a_warning(unit_copy):
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit_copy)], capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stdout + result.stderr == ""


def test_the_unit_is_hardened(unit_copy):
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit_copy)],
        capture_output=True, text=True,
    )  # fmt: skip
    found = re.search(r"Overall exposure level for [^:]*: ([0-9.]+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= MAX_EXPOSURE, result.stdout
