"""firmware/install-pi.sh --root: its checks and refusals, what it writes, that a second run
changes nothing, that a rerun after a failed run finishes, --check, --uninstall."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
INSTALLER = REPO / "firmware" / "install-pi.sh"
STOCK = REPO / "tests" / "data" / "bookworm-lite"
UNIT = "etc/systemd/system/tabletop.service"
WANTS = "etc/systemd/system/multi-user.target.wants/tabletop.service"

pytestmark = pytest.mark.skipif(
    not (shutil.which("bash") and shutil.which("systemctl") and Path("/usr/bin/python3").exists()),
    reason="the installer needs bash, systemctl and /usr/bin/python3 (Debian)",
)


def install(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALLER), "--root", str(root), "--skip-pip", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=None if env is None else {**os.environ, **env},
    )


# The first 20 bytes of an ELF program: class (1 = 32-bit, 2 = 64-bit) and machine.
ELF_HEADERS = {
    "aarch64": b"\x7fELF\x02\x01\x01" + bytes(11) + b"\xb7\x00",
    "armhf": b"\x7fELF\x01\x01\x01" + bytes(11) + b"\x28\x00",
    "x86_64": b"\x7fELF\x02\x01\x01" + bytes(11) + b"\x3e\x00",
}
PI_ARCHIVE = "deb http://archive.raspberrypi.com/debian/ bookworm main\n"


def make_system(
    root: Path,
    *,
    os_id: str = "debian",
    codename: str = "bookworm",
    arch: str = "aarch64",
    pi_archive: bool = True,
    model: str | None = "Raspberry Pi 5 Model B Rev 1.0",
) -> None:
    """The files the installer's checks read under --root, as on a Pi (or not)."""
    (root / "etc/apt/sources.list.d").mkdir(parents=True, exist_ok=True)
    (root / "etc/os-release").write_text(
        f'PRETTY_NAME="{os_id} {codename}"\nID={os_id}\nVERSION_CODENAME={codename}\n'
    )
    (root / "usr/bin").mkdir(parents=True, exist_ok=True)
    (root / "usr/bin/python3").write_bytes(ELF_HEADERS[arch] + bytes(44))
    sources = root / "etc/apt/sources.list.d/raspi.list"
    sources.write_text(PI_ARCHIVE if pi_archive else "")
    if model is not None:
        (root / "proc/device-tree").mkdir(parents=True, exist_ok=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")


def tree(root: Path) -> dict[str, bytes | str]:
    """Every file's bytes and every symlink's target under root."""
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            found[name] = str(path.readlink())
        elif path.is_file():
            found[name] = path.read_bytes()
    return found


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """An empty system root whose boot partition holds the stock Bookworm files."""
    boot = tmp_path / "root" / "boot" / "firmware"
    boot.mkdir(parents=True)
    for name in ("config.txt", "cmdline.txt"):
        shutil.copy(STOCK / name, boot / name)
    return tmp_path / "root"


@pytest.fixture
def installed(root: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    result = install(root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root, result


def test_install_writes_the_unit_enables_it_and_merges_boot_config(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, result = installed
    assert (root / UNIT).read_bytes() == (REPO / "systemd/tabletop.service").read_bytes()
    assert (root / WANTS).readlink() == Path("/etc/systemd/system/tabletop.service")
    config = (root / "boot/firmware/config.txt").read_text()
    assert "# >>> tabletop >>>" in config and "gpio=17,27=ip,pu" in config
    assert "consoleblank=0" in (root / "boot/firmware/cmdline.txt").read_text()
    assert (root / "boot/firmware/config.txt.tabletop-bak").read_bytes() == (
        STOCK / "config.txt"
    ).read_bytes()
    assert "reboot needed" in result.stdout


def test_venv_sees_the_system_site_packages(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = installed
    venv = root / "opt/tabletop/venv"
    assert (venv / "bin/python").exists()
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()


def test_what_cannot_happen_under_root_is_printed_not_run(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, result = installed
    assert "would run: systemctl daemon-reload" in result.stdout
    assert "skipped (--skip-pip)" in result.stdout
    assert not (root / "etc/passwd").exists()
    if subprocess.run(["id", "tabletop"], capture_output=True).returncode != 0:
        assert "would run: useradd --system --user-group" in result.stdout


def test_second_run_changes_nothing(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = installed
    before = tree(root)
    again = install(root)
    assert again.returncode == 0, again.stderr
    assert tree(root) == before
    assert "nothing changed: already installed" in again.stdout
    assert "reboot needed:" not in again.stdout
    assert "reboot still needed for the boot settings merged before" in again.stdout


def test_uninstall_removes_what_install_wrote_and_keeps_the_scorebook(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = installed
    scorebook = root / "var/lib/tabletop/scorebook.sqlite"
    scorebook.parent.mkdir(parents=True)
    scorebook.write_bytes(b"scores")
    result = install(root, "--uninstall")
    assert result.returncode == 0, result.stderr
    assert not (root / UNIT).exists() and not (root / WANTS).is_symlink()
    assert not (root / "opt/tabletop").exists()
    for name in ("config.txt", "cmdline.txt"):
        assert (root / "boot/firmware" / name).read_bytes() == (STOCK / name).read_bytes()
    assert scorebook.read_bytes() == b"scores"
    again = install(root, "--uninstall")
    assert again.returncode == 0 and "nothing to remove" in again.stdout


def test_uninstall_purge_also_deletes_the_state(
    installed: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    root, _ = installed
    (root / "var/lib/tabletop").mkdir(parents=True)
    result = install(root, "--uninstall", "--purge")
    assert result.returncode == 0, result.stderr
    assert not (root / "var/lib/tabletop").exists()


def test_panel_rotation_reaches_cmdline(root: Path) -> None:
    result = install(root, "--panel", "touch-display-2", "--rotate", "270")
    assert result.returncode == 0, result.stderr
    cmdline = (root / "boot/firmware/cmdline.txt").read_text()
    assert "video=DSI-1:720x1280@60,rotate=270" in cmdline.split()


def test_root_without_boot_partition_skips_the_boot_config(tmp_path: Path) -> None:
    result = install(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "skipped: no" in result.stdout
    assert (tmp_path / UNIT).exists()


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--purge"], "--purge goes with --uninstall"),
        (["--uninstall", "--panel", "touch-display-2", "--rotate", "90"], "takes no --panel"),
    ],
)
def test_bad_options_are_refused_and_change_nothing(
    root: Path, args: list[str], complaint: str
) -> None:
    before = tree(root)
    result = install(root, *args)
    assert result.returncode != 0
    assert complaint in result.stderr
    assert tree(root) == before


def test_missing_root_directory_is_refused(tmp_path: Path) -> None:
    result = install(tmp_path / "nowhere")
    assert result.returncode == 1
    assert "is not a directory" in result.stderr


def test_readme_snippet_is_short_and_starts_with_the_install_command() -> None:
    doc = (REPO / "docs" / "raspberry-pi.md").read_text()
    start, end = "<!-- README-SNIPPET -->\n", "<!-- /README-SNIPPET -->"
    assert doc.count(start) == 1 and doc.count(end) == 1
    snippet = doc[doc.index(start) + len(start) : doc.index(end)].splitlines()
    assert len(snippet) <= 15
    assert snippet[0] == "```sh"
    assert snippet[1].startswith("sudo ./firmware/install-pi.sh")
    assert INSTALLER.stat().st_mode & 0o111, "the installer must be executable"


def unit_settings() -> dict[str, list[str]]:
    """Every KEY=value of the unit, values of repeated keys in order."""
    settings: dict[str, list[str]] = {}
    for line in (REPO / "systemd" / "tabletop.service").read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def installer_value(name: str) -> str:
    """A NAME=... or NAME=(...) assignment's right-hand side in install-pi.sh."""
    for line in INSTALLER.read_text().splitlines():
        if line.startswith(f"{name}="):
            return line.split("=", 1)[1].strip('()"')
    raise AssertionError(f"no {name}= in {INSTALLER.name}")


def test_unit_and_installer_agree_on_paths_user_and_groups() -> None:
    unit = unit_settings()
    assert unit["ExecStart"] == ["/opt/tabletop/venv/bin/tabletop run"]
    assert unit["User"] == [installer_value("APP_USER")]
    assert unit["SupplementaryGroups"][0].split() == installer_value("APP_GROUPS").split()
    environment = dict(value.split("=", 1) for value in unit["Environment"])
    assert environment["TABLETOP_STATE_DIR"] == "/var/lib/" + unit["StateDirectory"][0]
    assert unit["WorkingDirectory"] == ["/run/" + unit["RuntimeDirectory"][0]]
    assert environment["LG_WD"] == unit["WorkingDirectory"][0]
    assert environment["SDL_VIDEODRIVER"] == "kmsdrm"


def test_unit_is_a_watchdogged_notify_service() -> None:
    unit = unit_settings()
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
    assert unit["WatchdogSec"] and unit["Restart"] == ["on-failure"]
    assert unit["StandardOutput"] == ["journal"] and unit["DevicePolicy"] == ["closed"]
    assert unit["CapabilityBoundingSet"] == [""]


def test_a_pi_passes_every_check(root: Path) -> None:
    make_system(root)
    result = install(root)
    assert result.returncode == 0, result.stderr
    for line in (
        "system: debian bookworm",
        "architecture: aarch64 (64-bit)",
        "Raspberry Pi archive: in apt's sources",
        "Pi model: Raspberry Pi 5 Model B Rev 1.0",
        "lock: locks/pi.txt matches pyproject.toml",
    ):
        assert line in result.stdout


@pytest.mark.parametrize(
    ("system", "complaint"),
    [
        ({"arch": "armhf"}, "32-bit Raspberry Pi OS"),
        ({"arch": "x86_64"}, "runs x86_64 programs"),
        ({"pi_archive": False}, "the Raspberry Pi archive (archive.raspberrypi.com) is not in apt"),
        ({"codename": "bullseye"}, "made for Bookworm"),
        ({"os_id": "fedora"}, "not Raspberry Pi OS or Debian"),
        ({"model": "Raspberry Pi 3 Model B Rev 1.2"}, "needs a Raspberry Pi 4 or 5"),
    ],
)
def test_a_system_it_cannot_serve_is_refused_in_one_line_before_any_change(
    root: Path, system: dict[str, object], complaint: str
) -> None:
    make_system(root, **system)  # type: ignore[arg-type]
    before = tree(root)
    result = install(root)
    assert result.returncode == 1
    assert complaint in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Raspberry Pi OS" in result.stderr or "Pi 4 or 5" in result.stderr
    assert tree(root) == before
    assert "== apt packages" not in result.stdout


def test_32_bit_userland_is_told_to_use_the_64_bit_os(root: Path) -> None:
    make_system(root, arch="armhf")
    assert "Use the 64-bit Raspberry Pi OS" in install(root).stderr


def test_any_model_installs_on_an_older_pi(root: Path) -> None:
    make_system(root, model="Raspberry Pi 3 Model B Rev 1.2")
    result = install(root, "--any-model")
    assert result.returncode == 0, result.stderr
    assert "not a Pi 4 or 5; installing anyway" in result.stdout


def test_too_little_free_space_is_refused(root: Path) -> None:
    result = install(root, env={"TABLETOP_MIN_FREE_MB": str(10**12)})
    assert result.returncode == 1
    assert "MB free where /opt is" in result.stderr and "free some" in result.stderr
    assert not (root / "opt").exists()


def test_check_says_what_it_would_do_and_changes_nothing(root: Path) -> None:
    make_system(root)
    before = tree(root)
    result = install(root, "--check")
    assert result.returncode == 0, result.stderr
    assert tree(root) == before
    for line in ("would install the unit file", "would enable the unit at boot", "would merge"):
        assert line in result.stdout
    assert "run without --check to do it" in result.stdout
    install(root)
    again = install(root, "--check")
    assert "would install" not in again.stdout and "would merge" not in again.stdout


def test_a_rerun_after_a_failed_run_finishes_the_install(root: Path, tmp_path: Path) -> None:
    """The first run fails at its last step (a broken boot partition), after writing the unit."""
    cmdline = root / "boot/firmware/cmdline.txt"
    cmdline.unlink()
    cmdline.mkdir()
    failed = install(root)
    assert failed.returncode == 1
    assert "run this again once fixed" in failed.stderr
    assert (root / UNIT).exists()
    cmdline.rmdir()
    shutil.copy(STOCK / "cmdline.txt", cmdline)
    rerun = install(root)
    assert rerun.returncode == 0, rerun.stderr
    # Decided from the state, not from what this run wrote: the unit is loaded all the same.
    assert "would run: systemctl daemon-reload" in rerun.stdout
    assert "reboot needed" in rerun.stdout
    clean = tmp_path / "clean"
    shutil.copytree(tmp_path / "root", clean, dirs_exist_ok=True, ignore=lambda *_: ["opt", "etc"])
    shutil.copy(STOCK / "config.txt", clean / "boot/firmware/config.txt")
    shutil.copy(STOCK / "cmdline.txt", clean / "boot/firmware/cmdline.txt")
    for backup in (clean / "boot/firmware").glob("*.tabletop-bak"):
        backup.unlink()
    assert install(clean).returncode == 0
    assert tree(clean).keys() == tree(root).keys()


def systemd_answers(state: str, tmp_path: Path) -> bool:
    """Whether the installer's unit_needs_reload says yes when systemd reports `state`."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "systemctl").write_text(f"#!/bin/sh\nprintf '{state}\\n'\n")
    (fake / "systemctl").chmod(0o755)
    script = (
        f"source {INSTALLER}; ROOT=; systemd_running() {{ true; }}; "
        "UNIT_NAME=tabletop.service; unit_needs_reload"
    )
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", script], env=env, check=False).returncode == 0


@pytest.mark.parametrize(
    ("state", "reload"),
    [
        ("LoadState=loaded\\nNeedDaemonReload=no", False),
        ("LoadState=loaded\\nNeedDaemonReload=yes", True),
        ("LoadState=not-found\\nNeedDaemonReload=no", True),
    ],
)
def test_daemon_reload_is_decided_by_what_systemd_has_loaded(
    tmp_path: Path, state: str, reload: bool
) -> None:
    assert systemd_answers(state, tmp_path) is reload
