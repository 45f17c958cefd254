"""Helpers of the fault-injection tests: a small tmpfs (full or read-only disks), damaged files."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def can_mount() -> str:
    """'' when a tmpfs can be mounted here, else why not (the reason a test skips with)."""
    if os.geteuid() != 0:
        return "mounting a small tmpfs needs root"
    if not shutil.which("mount"):
        return "no mount command"
    return ""


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "512k") -> Iterator[Path]:
    """A tmpfs of `size` mounted at `where` (skips the test when that is not possible here)."""
    reason = can_mount()
    if reason:
        pytest.skip(reason)
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", f"faults-{uuid.uuid4().hex[:6]}",
         str(where)], capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> None:
    """Fill the filesystem holding `folder` to the last byte."""
    with contextlib.suppress(OSError), open(folder / "filler", "wb") as handle:
        while True:
            handle.write(b"\0" * 4096)
            handle.flush()
    with contextlib.suppress(OSError), open(folder / "filler-tail", "wb") as handle:
        while True:
            handle.write(b"\0")
            handle.flush()


def remount_read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
