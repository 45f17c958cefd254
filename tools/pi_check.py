"""`python3 dev.py pi-check`: the product installed and run as on a fresh Raspberry Pi, emulated.

A Debian Bookworm arm64 root is built once with debootstrap and cached under
~/.cache/tabletop/pi-check/ (TABLETOP_PI_CHECK_CACHE overrides); every run copies it afresh and,
inside it under qemu-user (binfmt_misc), as a Pi owner would: clones this repository's HEAD,
runs firmware/install-pi.sh, `tabletop doctor`, `tabletop demo`, the test suite, and
`tabletop read` on rendered frames and on the development photos, compared reading for reading
with the same command on this machine. The Raspberry Pi archive's python3-picamera2 and
python3-lgpio are not in Debian: the check builds stand-in packages that install only a note
saying so. Needs root (debootstrap, chroot, mount); downloaded .debs and wheels are cached too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("TABLETOP_PI_CHECK_CACHE", Path.home() / ".cache/tabletop/pi-check"))
MIRROR = "http://deb.debian.org/debian"
# What a fresh Raspberry Pi OS Lite has that the installer relies on; the rest it installs.
BASE_PACKAGES = ("python3", "git", "ca-certificates", "systemd", "sudo")
BASE_RECIPE = f"debootstrap bookworm arm64 minbase +{','.join(BASE_PACKAGES)} v1"
HOST_TOOLS = {
    "debootstrap": "debootstrap",
    "qemu-aarch64-static": "qemu-user-static",
    "update-binfmts": "binfmt-support",
    "dpkg-deb": "dpkg",
    "git": "git",
}
BINFMT = Path("/proc/sys/fs/binfmt_misc")
CHECKOUT = "/home/pi/tabletop"
VENV = "/opt/tabletop/venv"
# The readings compared: the labelled photos of each set where shared/ is beside the clone, and
# rendered trays (a d6 and a poker tray per seed) to make up at least LEAST_READINGS in all, so a
# clone without shared/ reaches the bar too. Emulated, a photo takes 3-15 s to read.
LEAST_READINGS = 100
LEAST_RENDERED_SEEDS = 20
STANDINS = {
    "python3-picamera2": "picamera2, libcamera's Python binding",
    "python3-lgpio": "lgpio, gpiozero's GPIO driver",
}
# Doctor's problems that are about hardware an emulated Pi has none of.
HARDWARE_WORDS = ("camera", "picamera2", "video", "gpio", "display", "touch")
ONLY_ON_A_REAL_PI = (
    "libcamera, picamera2 and the camera module (here a stand-in package that installs nothing)",
    "the panel: KMS/DRM display through SDL's kmsdrm driver, touch input",
    "the GPIO pins and buttons (lgpio here is a stand-in)",
    "the boot settings taking effect (config.txt, cmdline.txt) and the unit under a running "
    "systemd: watchdog, sandbox, `tabletop doctor --as-service`",
    "speed: qemu emulates the instructions, not a Pi's CPU, so no timing here means anything",
)
# The whole suite takes about 7 minutes here on a busy machine; emulated, its first files (the
# vision benchmarks) ran 9 tests in 2 minutes, so it was never run to its end. By default the
# check runs the tests of what differs between a Pi and this machine (52 s emulated): the
# aarch64 wheels of OpenCV and numpy (finding dice, outlines, pips), pygame-ce (fonts,
# translations), sqlite3 (the store), gpiozero, sdnotify and the watchdog, the camera and doctor
# plumbing, ruff's aarch64 binary, the locks. Left out: the game engines and the referee (pure
# Python: the interpreter does not care about the CPU), the slow vision, display and demo tests
# (the readings comparison, rendered and real, and the demo step run the same code end to end),
# the installer's --root tests (the real install runs instead).
# `python3 dev.py pi-check tests` runs every test.
PLATFORM_TESTS = (
    "tests/test_vision_find.py",
    "tests/test_vision_outline.py",
    "tests/test_vision_pips.py",
    "tests/test_display_i18n.py",
    "tests/test_companion_store.py",
    "tests/test_companion_config.py",
    "tests/test_companion_tray.py",
    "tests/test_companion_app.py",
    "tests/test_hardware_buttons.py",
    "tests/test_hardware_camera.py",
    "tests/test_hardware_doctor.py",
    "tests/test_watchdog.py",
    "tests/test_service_check.py",
    "tests/test_lint.py",
    "tests/test_locks.py",
    "tests/test_pi_check.py",
)
# Tests that measure time against the wall clock, which emulation stretches: left out of the
# emulated run with the reason, which the report lists.
EMULATION_DESELECTED = {
    "tests/test_hardware_buttons.py::test_bouncing_contacts_give_one_event": (
        "its 'chatter' (six pin toggles) must fit in the 20 ms bounce window; under qemu the "
        "toggles take longer than that, so each one is a real press"
    ),
    "tests/test_hardware_buttons.py::test_glitch_shorter_than_bounce_time_is_ignored": (
        "its glitch (one pin toggle) must be shorter than the 20 ms bounce window; under qemu on "
        "a busy machine the toggle took longer, so it was a real press"
    ),
}


class PiCheckError(Exception):
    """pi-check cannot go on; the message is one line saying why and what to do."""


@dataclass
class Report:
    arch: str = ""
    install: str = "not run"
    doctor: str = "not run"
    demo: str = "not run"
    tests_passed: int = 0
    tests_failed: int = 0
    readings_compared: int = 0
    readings_identical: bool = False
    # Each kind of photo: [images read the same in both places, images].
    readings_by_kind: dict[str, list[int]] = field(default_factory=dict)
    locked: bool = False
    not_at_pin: list[str] = field(default_factory=list)
    minutes: float = 0.0
    notes: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        summary = asdict(self)
        del summary["notes"]
        return summary

    @property
    def passed(self) -> bool:
        return (
            self.arch == "aarch64"
            and self.install == self.doctor == self.demo == "ok"
            and self.tests_failed == 0
            and self.tests_passed > 0
            and self.readings_identical
            and self.readings_compared >= LEAST_READINGS
            and len(self.readings_by_kind) >= 2
            and self.locked
        )


def say(message: str) -> None:
    print(f"pi-check: {message}", file=sys.stderr, flush=True)


def run(command: list[str], log: Path, *, check: bool = True, **kwargs) -> int:
    """Run a host command, its output appended to `log`."""
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(map(str, command))}\n")
        out.flush()
        code = subprocess.call(command, stdout=out, stderr=subprocess.STDOUT, **kwargs)
    if check and code != 0:
        raise PiCheckError(f"`{' '.join(map(str, command[:3]))} …` failed (exit {code}): see {log}")
    return code


LOCAL_CAS = Path("/usr/local/share/ca-certificates")


def trust_local_cas(root: Path, log: Path) -> None:
    """Where this machine reaches PyPI through a proxy with its own CA, the root trusts it too
    (a Pi on an ordinary network needs neither this nor PIP_CERT). Done once in the cached base:
    update-ca-certificates takes minutes emulated."""
    certificates = sorted(LOCAL_CAS.glob("*.crt")) if LOCAL_CAS.is_dir() else []
    stamp = root / ".pi-check-cas"
    wanted = hashlib.sha256(b"".join(c.read_bytes() for c in certificates)).hexdigest()
    if not certificates or (stamp.exists() and stamp.read_text() == wanted):
        return
    target = root / LOCAL_CAS.relative_to("/")
    target.mkdir(parents=True, exist_ok=True)
    for certificate in certificates:
        shutil.copy(certificate, target)
    in_root(root, "update-ca-certificates", log)
    stamp.write_text(wanted)


def in_root(root: Path, script: str, log: Path, *, check: bool = True) -> int:
    """Run a bash script inside the emulated root, with a clean environment."""
    local_ca = LOCAL_CAS.is_dir() and any(LOCAL_CAS.glob("*.crt"))
    environment = [
        *(["PIP_CERT=/etc/ssl/certs/ca-certificates.crt"] if local_ca else []),
        "HOME=/root",
        "LANG=C.UTF-8",
        "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "SDL_VIDEODRIVER=dummy",
        "SDL_AUDIODRIVER=dummy",
        "PYGAME_HIDE_SUPPORT_PROMPT=1",
        "DEBIAN_FRONTEND=noninteractive",
    ]
    command = ["chroot", str(root), "/usr/bin/env", "-i", *environment, "bash", "-c", script]
    return run(command, log, check=check)


def captured(root: Path, script: str) -> str:
    command = [
        "chroot",
        str(root),
        "/usr/bin/env",
        "-i",
        "LANG=C.UTF-8",
        "PATH=/usr/bin:/bin:/usr/sbin:/sbin",
        "bash",
        "-c",
        script,
    ]
    return subprocess.run(command, capture_output=True, text=True, check=False).stdout


# ------------------------------------------------------------------ the emulated root


def ensure_host_tools(log: Path) -> None:
    missing = sorted({pkg for tool, pkg in HOST_TOOLS.items() if not shutil.which(tool)})
    if not missing:
        return
    say(f"installing {' '.join(missing)} (apt)")
    run(["apt-get", "update"], log)
    run(
        ["apt-get", "install", "-y", "--no-install-recommends", *missing],
        log,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def ensure_binfmt(log: Path) -> Path:
    """The kernel hands aarch64 programs to qemu; returns the interpreter path it uses."""
    if not (BINFMT / "status").exists():
        run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], log, check=False)
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        run(["update-binfmts", "--enable", "qemu-aarch64"], log, check=False)
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        raise PiCheckError(
            "the kernel cannot hand aarch64 programs to qemu (binfmt_misc): run "
            "`update-binfmts --enable qemu-aarch64` as root on a machine that allows it"
        )
    interpreter = next(
        line.split()[1] for line in entry.read_text().splitlines() if line.startswith("interpreter")
    )
    return Path(interpreter)


def place_interpreter(root: Path, interpreter: Path) -> None:
    """Without binfmt's F flag the kernel opens the interpreter inside the chroot: put it there."""
    target = root / interpreter.relative_to("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(shutil.which("qemu-aarch64-static") or interpreter, target)


def ensure_base(interpreter: Path, log: Path) -> Path:
    base = CACHE / "base"
    stamp = base / ".pi-check-base"
    if stamp.exists() and stamp.read_text() == BASE_RECIPE:
        return base
    say("building the Debian Bookworm arm64 root once (debootstrap; about 10 minutes)")
    shutil.rmtree(base, ignore_errors=True)
    run(
        [
            "debootstrap",
            "--arch=arm64",
            "--foreign",
            "--variant=minbase",
            f"--include={','.join(BASE_PACKAGES)}",
            "bookworm",
            str(base),
            MIRROR,
        ],
        log,
    )
    place_interpreter(base, interpreter)
    run(["chroot", str(base), "/debootstrap/debootstrap", "--second-stage"], log)
    stamp.write_text(BASE_RECIPE)
    return base


def mounted_under(path: Path) -> list[str]:
    points = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    prefix = str(path.resolve())
    return sorted((p for p in points if p == prefix or p.startswith(prefix + "/")), reverse=True)


def unmount_all(path: Path, log: Path) -> None:
    for point in mounted_under(path):
        if run(["umount", point], log, check=False) != 0:
            run(["umount", "-l", point], log, check=False)


def fresh_root(base: Path, interpreter: Path, log: Path) -> Path:
    """A copy of the cached base, as a fresh Pi: nothing of the last run left in it."""
    work = CACHE / "work"
    unmount_all(work, log)
    shutil.rmtree(work, ignore_errors=True)
    run(["cp", "-a", "--reflink=auto", str(base), str(work)], log)
    place_interpreter(work, interpreter)
    shutil.copy("/etc/resolv.conf", work / "etc/resolv.conf")
    return work


def mount_into(root: Path, log: Path) -> None:
    """proc, sys and dev as on any system; the apt and pip caches, so a rerun downloads nothing."""
    binds = {
        "dev": Path("/dev"),
        "dev/pts": Path("/dev/pts"),
        "var/cache/apt/archives": CACHE / "apt-archives",
        "root/.cache/pip": CACHE / "pip",
    }
    (CACHE / "apt-archives/partial").mkdir(parents=True, exist_ok=True)
    (CACHE / "pip").mkdir(parents=True, exist_ok=True)
    run(["mount", "-t", "proc", "proc", str(root / "proc")], log)
    run(["mount", "-t", "sysfs", "sysfs", str(root / "sys")], log)
    for inside, outside in binds.items():
        (root / inside).mkdir(parents=True, exist_ok=True)
        run(["mount", "--bind", str(outside), str(root / inside)], log)


def build_standins(root: Path, log: Path) -> None:
    """Empty packages named as the Raspberry Pi archive's, in a local apt repository."""
    repo = root / "opt/pi-check-standins"
    repo.mkdir(parents=True, exist_ok=True)
    stanzas = []
    for name, what in STANDINS.items():
        tree = CACHE / "standin-build" / name
        shutil.rmtree(tree, ignore_errors=True)
        (tree / "DEBIAN").mkdir(parents=True)
        note = tree / f"usr/share/doc/{name}/STAND-IN"
        note.parent.mkdir(parents=True)
        note.write_text(
            f"This is not {name}. It is a stand-in built by tabletop's pi-check for an emulated\n"
            f"Raspberry Pi OS without the Raspberry Pi archive: it installs no {what}.\n"
        )
        control = (
            f"Package: {name}\nVersion: 0~pi-check-stand-in\nArchitecture: all\n"
            "Maintainer: tabletop pi-check <pi-check@localhost>\nSection: python\n"
            f"Priority: optional\nDescription: STAND-IN for the Raspberry Pi archive's {name}\n"
            f" Built by tabletop's pi-check; installs no {what}, only a note saying so.\n"
        )
        (tree / "DEBIAN/control").write_text(control)
        deb = repo / f"{name}_0~pi-check-stand-in_all.deb"
        run(["dpkg-deb", "--root-owner-group", "--build", str(tree), str(deb)], log)
        data = deb.read_bytes()
        stanzas.append(
            control.replace(
                "Description:",
                f"Filename: ./{deb.name}\nSize: {len(data)}\n"
                f"SHA256: {hashlib.sha256(data).hexdigest()}\nDescription:",
            )
        )
    (repo / "Packages").write_text("\n".join(stanzas))
    (root / "etc/apt/sources.list.d/pi-check-standins.list").write_text(
        "deb [trusted=yes] file:/opt/pi-check-standins ./\n"
    )


def clone_head(root: Path, log: Path) -> str:
    """A clean clone of this repository's HEAD where a Pi owner would put it."""
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    target = root / CHECKOUT.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(target)], log)
    run(["git", "-C", str(target), "checkout", "--quiet", head], log)
    return head


# ------------------------------------------------------------------ what is checked


def check_install(root: Path, report: Report, logs: Path) -> None:
    say("apt update, then firmware/install-pi.sh as on a fresh Pi")
    in_root(root, "apt-get update", logs / "apt-update.log")
    script = f"cd {CHECKOUT} && ./firmware/install-pi.sh"
    report.install = (
        "ok" if in_root(root, script, logs / "install.log", check=False) == 0 else ("failed")
    )
    if report.install != "ok":
        raise PiCheckError(
            f"firmware/install-pi.sh failed in the emulated Pi: see {logs}/install.log"
        )
    again = in_root(root, script, logs / "install-again.log", check=False)
    if again != 0 or "nothing changed" not in (logs / "install-again.log").read_text():
        report.install = "second run changed something"
    frozen = captured(root, f"{VENV}/bin/pip freeze --all")
    installed = {
        canonical(name): version
        for name, version in (line.split("==", 1) for line in frozen.splitlines() if "==" in line)
    }
    locked = pins(ROOT / "locks/pi.txt")
    report.not_at_pin = [
        f"{name} {installed.get(name, 'missing')} (lock {version})"
        for name, version in sorted(locked.items())
        if installed.get(name) != version
    ]
    report.locked = not report.not_at_pin
    # The venv holds exactly the lock's versions, and the installer said it required hashes.
    used_hashes = "(hashes required)" in (logs / "install.log").read_text()
    if not used_hashes:
        report.not_at_pin.append("the installer did not say it required hashes")
    report.locked = report.locked and used_hashes
    report.notes.append(f"installed from locks/pi.txt: {len(locked)} packages at their pins")


def canonical(name: str) -> str:
    """A package's name as PyPI compares them: pip freeze says typing_extensions, the lock
    typing-extensions (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: Path) -> dict[str, str]:
    found = {}
    for line in lock.read_text().splitlines():
        if match := re.match(r"^([A-Za-z0-9_.-]+)==([^ ;\\]+)", line):
            found[canonical(match[1])] = match[2]
    return found


def check_doctor(root: Path, report: Report, logs: Path) -> None:
    say("tabletop doctor")
    log = logs / "doctor.log"
    code = in_root(root, f"{VENV}/bin/tabletop doctor", log, check=False)
    text = log.read_text()
    problems = re.findall(r"^PROBLEM\s+(\S+(?: \S+)?)\s{2,}", text, flags=re.MULTILINE)
    other = [p for p in problems if not any(word in p.lower() for word in HARDWARE_WORDS)]
    ok = (
        code in (0, 1)
        and "Traceback" not in text
        and not other
        and re.search(r"^OK\s+config\b", text, re.M) is not None
    )
    report.doctor = "ok" if ok else f"problems beyond missing hardware: {other or code}"
    report.notes.append(
        "doctor: every check ran; problems only where a Pi's hardware is missing here: "
        + ", ".join(problems)
    )


# The demo's shortest game (24 actions, 13 rolls read by the real reader from rendered frames,
# a screenshot per turn; 8 s here, minutes emulated). All five take over an hour emulated.
DEMO_GAME = "roudalon"


def check_demo(root: Path, report: Report, logs: Path) -> None:
    say(f"tabletop demo --game {DEMO_GAME}, here and in the emulated Pi")
    host_out = CACHE / "host-demo"
    shutil.rmtree(host_out, ignore_errors=True)
    demo = ["demo", "--game", DEMO_GAME, "--out"]
    run(
        [str(ROOT / ".venv/bin/tabletop"), *demo, str(host_out)],
        logs / "demo-host.log",
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    script = f"{VENV}/bin/tabletop {' '.join(demo)} /tmp/demo-out"
    code = in_root(root, script, logs / "demo.log", check=False)
    if code != 0:
        report.demo = f"exit {code}"
        return
    here = json.loads((host_out / "result.json").read_text())["scores"]
    there = json.loads((root / "tmp/demo-out/result.json").read_text())["scores"]
    report.demo = "ok" if here == there else f"scores differ: {there} here {here}"
    report.notes.append(f"demo {DEMO_GAME}: final scores {there[DEMO_GAME]}, as on this machine")


def check_tests(root: Path, report: Report, logs: Path, selection: list[str]) -> None:
    say("the test suite (nice -n 10; slow under emulation)")
    in_root(
        root,
        f"{VENV}/bin/pip install --no-input --require-hashes -r {CHECKOUT}/locks/pi-all.txt",
        logs / "test-tools.log",
    )
    log = logs / "tests.log"
    chosen = " ".join(
        [*(selection or PLATFORM_TESTS), *(f"--deselect {t}" for t in EMULATION_DESELECTED)]
    )
    subset = f"{len(PLATFORM_TESTS)} files of what differs on a Pi (PLATFORM_TESTS says why)"
    report.notes.append(f"tests: {'the selection given' if selection else subset}")
    junit = root / "tmp/pi-check-tests.xml"
    junit.unlink(missing_ok=True)
    in_root(
        root,
        f"cd {CHECKOUT} && nice -n 10 {VENV}/bin/python -m pytest -rs "
        f"-p no:cacheprovider --junitxml=/tmp/pi-check-tests.xml {chosen}",
        log,
        check=False,
    )
    counts = junit_counts(junit)
    report.tests_passed = counts["passed"]
    report.tests_failed = counts["failed"]
    skipped = [line for line in log.read_text().splitlines() if line.startswith("SKIPPED")]
    report.notes.append(
        f"tests: {report.tests_passed} passed, {report.tests_failed} failed, "
        f"{counts['skipped']} skipped (reasons below and in {log})"
    )
    report.notes.extend(f"  {line}" for line in skipped)
    report.notes.extend(f"  DESELECTED {t}: {why}" for t, why in EMULATION_DESELECTED.items())


def junit_counts(junit: Path) -> dict[str, int]:
    """passed, failed (failures and errors) and skipped from pytest's JUnit XML; all 0 when
    pytest wrote none (it did not run)."""
    if not junit.exists():
        return {"passed": 0, "failed": 0, "skipped": 0}
    suites = ElementTree.parse(junit).getroot().iter("testsuite")
    total = {key: 0 for key in ("tests", "failures", "errors", "skipped")}
    for suite in suites:
        for key in total:
            total[key] += int(suite.get(key, 0))
    failed = total["failures"] + total["errors"]
    passed = total["tests"] - failed - total["skipped"]
    return {"passed": passed, "failed": failed, "skipped": total["skipped"]}


def photos_dir() -> Path | None:
    """The labelled photos: $TABLETOP_SHARED/dice-photos or shared/ beside the clone, if there."""
    for shared in (os.environ.get("TABLETOP_SHARED"), ROOT.parent / "shared"):
        if shared and (Path(shared) / "dice-photos").is_dir():
            return Path(shared) / "dice-photos"
    return None


def photo_sets(per_set: int | None) -> list[tuple[str, list[Path]]]:
    """(set name, its photos) for each labelled set; none where shared/ is not beside the clone."""
    photos = photos_dir()
    if photos is None:
        return []
    sets = []
    for folder in sorted(p for p in photos.iterdir() if p.is_dir()):
        images = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".png"))
        sets.append((folder.name, images if per_set is None else images[:per_set]))
    return sets


RENDER = """
import sys, cv2
from vision.synth.render import render_scene
out = sys.argv[1]
for seed in range(int(sys.argv[2])):
    for kind, faces in (("d6", [1 + (seed + i) % 6 for i in range(1 + seed % 5)]),
                        ("poker", ["9", "10", "J", "Q", "K", "A"][: 1 + seed % 5])):
        cv2.imwrite(f"{out}/{kind}-{seed}.png", render_scene(faces, kind=kind, seed=seed).frame)
"""


Batch = tuple[str, str, list[Path]]  # (what the photos are, the dice kind, the images)


def reading_batches(root: Path, per_set: int | None, logs: Path) -> list[Batch]:
    """The images to read, each copied into the root at the same relative place."""
    rendered = CACHE / "rendered"
    shutil.rmtree(rendered, ignore_errors=True)
    rendered.mkdir(parents=True)
    photos = photo_sets(per_set)
    counted = sum(len(images) for _, images in photos)
    seeds = max(LEAST_RENDERED_SEEDS, -(-(LEAST_READINGS - counted) // 2))
    run(
        [str(ROOT / ".venv/bin/python"), "-c", RENDER, str(rendered), str(seeds)],
        logs / "render.log",
        cwd=ROOT,
    )
    batches: list[Batch] = [
        (f"rendered {kind}", kind, sorted(rendered.glob(f"{kind}-*.png")))
        for kind in ("d6", "poker")
    ]
    batches += [(name, "d6", images) for name, images in photos]
    for _, _, images in batches:
        for image in images:
            inside = root / "mnt" / image.relative_to(image.parents[1])
            inside.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(image, inside)
    return batches


def confidences(lines: str) -> list[tuple[float, ...]]:
    return [
        tuple(d["confidence"] for d in json.loads(line)["dice"])
        for line in lines.splitlines()
        if line.startswith("{")
    ]


def readings(lines: str) -> list[tuple[object, object]]:
    """Each image's dice values and unreadable count, in order (timings and paths left out)."""
    found = []
    for line in lines.splitlines():
        if line.startswith("{"):
            reading = json.loads(line)
            found.append(([d["value"] for d in reading["dice"]], reading["unreadable"]))
    return found


def check_readings(root: Path, report: Report, logs: Path, per_set: int | None) -> None:
    say("tabletop read, here and in the emulated Pi")
    largest = 0.0
    for name, kind, images in reading_batches(root, per_set, logs):
        if not images:
            continue
        host = subprocess.run(
            [str(ROOT / ".venv/bin/tabletop"), "read", "--json", "--kind", kind, *map(str, images)],
            capture_output=True,
            text=True,
            check=False,
        )
        inside = ["/mnt/" + str(p.relative_to(p.parents[1])) for p in images]
        pi = captured(root, f"{VENV}/bin/tabletop read --json --kind {kind} " + " ".join(inside))
        here, there = readings(host.stdout), readings(pi)
        with (logs / "readings.log").open("a") as out:
            out.write(f"# {name}\n--- host\n{host.stdout}--- pi\n{pi}")
        same = sum(1 for a, b in zip(here, there, strict=False) if a == b)
        if len(here) != len(images) or len(there) != len(images):
            same = min(same, len(images) - 1)
            report.notes.append(f"readings: {name}: not every image was read")
        report.readings_by_kind[name] = [same, len(images)]
        report.readings_compared += len(images)
        for a, b in zip(confidences(host.stdout), confidences(pi), strict=False):
            if len(a) == len(b):
                largest = max([largest, *(abs(x - y) for x, y in zip(a, b, strict=True))])
    report.readings_identical = bool(report.readings_by_kind) and all(
        same == total for same, total in report.readings_by_kind.values()
    )
    if photos_dir() is None:
        report.notes.append(
            "readings: rendered trays only (no shared/dice-photos beside this clone)"
        )
    report.notes.append(
        f"readings: {report.readings_compared} images (dice values in order, unreadable count); "
        f"largest confidence difference {largest:.3f}"
    )


# ------------------------------------------------------------------ the run


def pi_check(args: argparse.Namespace) -> Report:
    started = time.monotonic()
    logs = CACHE / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    report = Report()
    setup = logs / "setup.log"
    ensure_host_tools(setup)
    interpreter = ensure_binfmt(setup)
    base = ensure_base(interpreter, setup)
    trust_local_cas(base, setup)
    root = fresh_root(base, interpreter, setup)
    try:
        mount_into(root, setup)
        build_standins(root, setup)
        head = clone_head(root, setup)
        report.notes.append(f"checked: {head[:12]} (committed HEAD; uncommitted changes are not)")
        shutil.copytree(
            ROOT / "tests/data/bookworm-lite", root / "boot/firmware", dirs_exist_ok=True
        )
        report.arch = captured(root, "uname -m").strip()
        check_install(root, report, logs)
        check_doctor(root, report, logs)
        check_demo(root, report, logs)
        check_tests(root, report, logs, args.tests)
        check_readings(root, report, logs, None if args.photos == "all" else int(args.photos))
    except PiCheckError as error:
        report.notes.append(f"stopped: {error}")
    finally:
        unmount_all(root, setup)
    report.notes.append(
        "doctor --as-service: not run, systemd is not running in the emulated root (a chroot)"
    )
    report.minutes = round((time.monotonic() - started) / 60, 1)
    return report


def print_report(report: Report, out: TextIO) -> None:
    verdict = "PASSED" if report.passed else "FAILED"
    lines = [f"pi-check: {verdict} in {report.minutes} minutes"]
    lines += [f"  {key:20} {value}" for key, value in report.summary().items()]
    lines += [f"  {note}" for note in report.notes]
    lines += ["Only a real Raspberry Pi can check:", *(f"  - {item}" for item in ONLY_ON_A_REAL_PI)]
    lines.append(f"Logs: {CACHE / 'logs'}")
    out.write("\n".join(lines) + "\n")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py pi-check", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--json", action="store_true", help="print only the summary as JSON")
    parser.add_argument("--photos", default="10", help="photos read per set (a number or 'all')")
    parser.add_argument(
        "tests", nargs="*", help="pytest selection (default: PLATFORM_TESTS; `tests`: every test)"
    )
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.photos != "all" and not args.photos.isdigit():
        print("pi-check: --photos takes a number or 'all'", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print(
            "pi-check: needs root (debootstrap, chroot, mount): sudo python3 dev.py pi-check",
            file=sys.stderr,
        )
        return 1
    if not (ROOT / ".venv/bin/tabletop").exists():
        print(
            "pi-check: run `python3 dev.py setup` first (the host's readings come from .venv)",
            file=sys.stderr,
        )
        return 1
    try:
        report = pi_check(args)
    except (PiCheckError, OSError, subprocess.CalledProcessError) as error:
        print(f"pi-check: {error}", file=sys.stderr)
        return 1
    with (CACHE / "logs/report.txt").open("w") as saved:
        print_report(report, saved)
    if args.json:
        print(json.dumps(report.summary()))
    else:
        print_report(report, sys.stdout)
    return 0 if report.passed else 1
