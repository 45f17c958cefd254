"""tools/pi_check.py's own logic (the emulated run itself is `python3 dev.py pi-check`, too slow
and too privileged for the suite): the verdict, the reading comparison, the stand-in packages."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tools import pi_check


def passing() -> pi_check.Report:
    return pi_check.Report(
        arch="aarch64",
        install="ok",
        doctor="ok",
        demo="ok",
        tests_passed=10,
        readings_compared=120,
        readings_identical=True,
        readings_by_kind={"rendered d6": [50, 50], "rendered poker": [50, 50], "webcam": [20, 20]},
        locked=True,
    )


def test_the_summary_has_exactly_the_promised_keys() -> None:
    assert list(passing().summary()) == [
        "arch",
        "install",
        "doctor",
        "demo",
        "tests_passed",
        "tests_failed",
        "readings_compared",
        "readings_identical",
        "readings_by_kind",
        "locked",
        "not_at_pin",
        "minutes",
    ]
    assert passing().passed


@pytest.mark.parametrize(
    "change",
    [
        {"arch": "x86_64"},
        {"install": "failed"},
        {"doctor": "problems beyond missing hardware"},
        {"tests_failed": 1},
        {"tests_passed": 0},
        {"readings_identical": False},
        {"readings_compared": 99},
        {"readings_by_kind": {"rendered d6": [120, 120]}},
        {"locked": False},
    ],
)
def test_any_shortfall_fails_the_check(change: dict[str, object]) -> None:
    report = passing()
    for key, value in change.items():
        setattr(report, key, value)
    assert not report.passed


def test_readings_compare_values_and_unreadable_not_timings_or_paths() -> None:
    host = json.dumps({"image": "/a/x.jpg", "dice": [{"value": 3}], "unreadable": 0, "ms": 5})
    pi = json.dumps({"image": "/mnt/x.jpg", "dice": [{"value": 3}], "unreadable": 0, "ms": 90})
    assert pi_check.readings(host) == pi_check.readings(pi) == [([3], 0)]
    other = json.dumps({"image": "/mnt/x.jpg", "dice": [{"value": 4}], "unreadable": 0})
    assert pi_check.readings(other) != pi_check.readings(host)


def test_not_root_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(pi_check.os, "geteuid", lambda: 1000)
    assert pi_check.main([]) == 1
    assert capsys.readouterr().err.strip() == (
        "pi-check: needs root (debootstrap, chroot, mount): sudo python3 dev.py pi-check"
    )


@pytest.mark.skipif(not shutil.which("dpkg-deb"), reason="dpkg-deb (Debian) builds the stand-ins")
def test_stand_ins_say_they_are_stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pi_check, "CACHE", tmp_path / "cache")
    root = tmp_path / "root"
    (root / "etc/apt/sources.list.d").mkdir(parents=True)
    pi_check.build_standins(root, tmp_path / "log")
    packages = (root / "opt/pi-check-standins/Packages").read_text()
    for name in pi_check.STANDINS:
        assert f"Package: {name}\n" in packages
        deb = next((root / "opt/pi-check-standins").glob(f"{name}_*.deb"))
        info = subprocess.run(["dpkg-deb", "-I", str(deb)], capture_output=True, text=True)
        assert "STAND-IN" in info.stdout
        assert "SHA256: " in packages
    assert "trusted=yes" in (root / "etc/apt/sources.list.d/pi-check-standins.list").read_text()


def test_test_counts_come_from_the_junit_report(tmp_path: Path) -> None:
    junit = tmp_path / "tests.xml"
    junit.write_text(
        '<testsuites><testsuite name="pytest" tests="12" failures="1" errors="1" skipped="2">'
        "</testsuite></testsuites>"
    )
    assert pi_check.junit_counts(junit) == {"passed": 8, "failed": 2, "skipped": 2}
    assert pi_check.junit_counts(tmp_path / "none.xml") == {"passed": 0, "failed": 0, "skipped": 0}


def test_package_names_are_compared_as_pypi_does(tmp_path: Path) -> None:
    lock = tmp_path / "pi.txt"
    lock.write_text("typing-extensions==4.16.0 \\\n    --hash=sha256:00\nNumPy==2.4.6\n")
    assert pi_check.pins(lock) == {"typing-extensions": "4.16.0", "numpy": "2.4.6"}
    assert pi_check.canonical("typing_extensions") == pi_check.canonical("Typing.Extensions")
