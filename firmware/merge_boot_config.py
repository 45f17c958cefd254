#!/usr/bin/env python3
"""Merge the tabletop companion's boot settings into a Raspberry Pi boot partition.

config.txt gets firmware/boot-config.txt as one marked block (`# >>> tabletop >>>` ...
`# <<< tabletop <<<`) that applies to all boards; a later run replaces that block in place.
cmdline.txt stays one line: each option of firmware/boot-cmdline.txt replaces the option of the
same name or is appended. A second run changes nothing. Before the first change each file is
copied once to `<name>.tabletop-bak`. `--remove` takes the block out and puts back the original
values of the cmdline options (from the backup). `--dry-run` prints the diff and writes nothing.

Standard library only: the installer runs it with the system python3, before any venv exists.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

BLOCK_START = "# >>> tabletop >>>"
BLOCK_END = "# <<< tabletop <<<"
BACKUP_SUFFIX = ".tabletop-bak"
FRAGMENT_DIR = Path(__file__).resolve().parent
CONFIG_FRAGMENT = FRAGMENT_DIR / "boot-config.txt"
CMDLINE_FRAGMENT = FRAGMENT_DIR / "boot-cmdline.txt"
DEFAULT_BOOT_DIR = Path("/boot/firmware")
# Native mode of each official DSI panel; the kernel rotates the console with video=...,rotate=N.
PANEL_CONNECTOR = "DSI-1"
PANEL_MODES = {"touch-display-1": "800x480@60", "touch-display-2": "720x1280@60"}
ROTATIONS = (0, 90, 180, 270)
ENCODING = {"encoding": "utf-8", "errors": "surrogateescape"}
# The firmware's config.txt parser truncates longer lines.
MAX_CONFIG_LINE = 80


class BootConfigError(Exception):
    """The boot files are not what this tool can safely edit; nothing was changed."""


# ---------------------------------------------------------------- config.txt


def is_filter(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("[") and stripped.endswith("]")


def applies_to_all_boards(lines: Sequence[str], index: int) -> bool:
    """Whether a line inserted before lines[index] is outside any conditional filter."""
    for line in reversed(lines[:index]):
        if is_filter(line):
            return line.strip().lower() == "[all]"
    return True


def split_block(lines: Sequence[str]) -> tuple[list[str], int | None]:
    """The lines without the tabletop block, and the index the block started at (None: absent)."""
    starts = [i for i, line in enumerate(lines) if line.strip() == BLOCK_START]
    ends = [i for i, line in enumerate(lines) if line.strip() == BLOCK_END]
    if not starts and not ends:
        return list(lines), None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise BootConfigError(
            f"config.txt has {len(starts)} '{BLOCK_START}' and {len(ends)} '{BLOCK_END}' "
            "lines: expected one of each, start first. Fix the block by hand and run again"
        )
    return list(lines[: starts[0]]) + list(lines[ends[0] + 1 :]), starts[0]


def settings(lines: Iterable[str]) -> list[str]:
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


def settings_for_all_boards(lines: Sequence[str]) -> set[str]:
    return {
        line.strip()
        for index, line in enumerate(lines)
        if settings([line]) and not is_filter(line) and applies_to_all_boards(lines, index)
    }


def check_config_fragment(fragment: Sequence[str]) -> None:
    for line in fragment:
        if is_filter(line) or line.strip() in (BLOCK_START, BLOCK_END):
            raise BootConfigError(f"{CONFIG_FRAGMENT.name} may not contain {line.strip()!r}")


def render_block(fragment: Sequence[str], already_set: set[str], needs_all: bool) -> list[str]:
    block = [BLOCK_START] + (["[all]"] if needs_all else [])
    for line in fragment:
        if settings([line]) and line.strip() in already_set:
            block.append(f"# {line.strip()}  (set elsewhere for all boards)")
        else:
            block.append(line)
    too_long = [line for line in block if len(line) > MAX_CONFIG_LINE]
    if too_long:
        raise BootConfigError(f"config.txt lines longer than {MAX_CONFIG_LINE}: {too_long}")
    return block + [BLOCK_END]


def merge_config(text: str, fragment: Sequence[str]) -> str:
    """config.txt with the tabletop block in place (where it was, if that is under [all])."""
    check_config_fragment(fragment)
    base, position = split_block(text.splitlines())
    if position is None or not applies_to_all_boards(base, position):
        position = len(base)
    block = render_block(
        fragment, settings_for_all_boards(base), not applies_to_all_boards(base, position)
    )
    return join_lines(base[:position] + block + base[position:])


def remove_config(text: str) -> str:
    base, position = split_block(text.splitlines())
    return text if position is None else join_lines(base)


def join_lines(lines: Sequence[str]) -> str:
    return "".join(line + "\n" for line in lines)


# --------------------------------------------------------------- cmdline.txt


def option_key(option: str) -> str:
    """What identifies an option: its name, and for video= also the connector it is for."""
    name, has_value, value = option.partition("=")
    if name == "video" and has_value:
        return f"video={value.split(':', 1)[0]}"
    return name


def cmdline_options(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise BootConfigError(
            f"cmdline.txt has {len(lines)} non-empty lines; the kernel reads exactly one line"
        )
    return lines[0].split()


def fragment_options(text: str) -> list[str]:
    return [word for line in text.splitlines() for word in line.split("#", 1)[0].split()]


def set_option(options: list[str], option: str) -> list[str]:
    """Replace the options with this key by `option` at the first one's place, else append."""
    key = option_key(option)
    places = [i for i, existing in enumerate(options) if option_key(existing) == key]
    if places:
        kept = [o for i, o in enumerate(options) if i not in places[1:]]
        kept[places[0]] = option
        return kept
    end = options.index("--") if "--" in options else len(options)
    return options[:end] + [option] + options[end:]


def merge_cmdline(text: str, added: Sequence[str]) -> str:
    options = cmdline_options(text)
    for option in added:
        options = set_option(options, option)
    return " ".join(options) + "\n"


def remove_cmdline(text: str, owned_keys: Iterable[str], original: str | None) -> str:
    """Drop the options we own, putting back the values the original cmdline.txt had."""
    options = cmdline_options(text)
    original_options = cmdline_options(original) if original is not None else []
    for key in owned_keys:
        places = [i for i, option in enumerate(options) if option_key(option) == key]
        if not places:
            continue
        restored = [option for option in original_options if option_key(option) == key]
        others = [option for option in options if option_key(option) != key]
        options = others[: places[0]] + restored + others[places[0] :]
    return " ".join(options) + "\n"


def panel_option(panel: str, rotation: int) -> str:
    return f"video={PANEL_CONNECTOR}:{PANEL_MODES[panel]},rotate={rotation}"


# --------------------------------------------------------------------- files


@dataclass(frozen=True)
class Change:
    path: Path
    old: str
    new: str

    @property
    def changed(self) -> bool:
        return self.old != self.new

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.old.splitlines(keepends=True),
                self.new.splitlines(keepends=True),
                fromfile=str(self.path),
                tofile=f"{self.path} (tabletop)",
            )
        )


def read_text(path: Path) -> str:
    if not path.is_file():
        raise BootConfigError(
            f"{path} not found: is this the boot partition (Bookworm mounts it "
            f"at {DEFAULT_BOOT_DIR})?"
        )
    return path.read_text(**ENCODING)


def read_boot_files(boot_dir: Path) -> tuple[str, str]:
    if not boot_dir.is_dir():
        raise BootConfigError(f"boot directory {boot_dir} does not exist")
    config = read_text(boot_dir / "config.txt")
    if "has moved to /boot/firmware" in config:
        raise BootConfigError(
            f"{boot_dir}/config.txt is Bookworm's pointer file; use --boot-dir {DEFAULT_BOOT_DIR}"
        )
    return config, read_text(boot_dir / "cmdline.txt")


def plan_merge(boot_dir: Path, extra_cmdline: Sequence[str] = ()) -> list[Change]:
    config, cmdline = read_boot_files(boot_dir)
    fragment = CONFIG_FRAGMENT.read_text(**ENCODING).splitlines()
    added = fragment_options(CMDLINE_FRAGMENT.read_text(**ENCODING)) + list(extra_cmdline)
    return [
        Change(boot_dir / "config.txt", config, merge_config(config, fragment)),
        Change(boot_dir / "cmdline.txt", cmdline, merge_cmdline(cmdline, added)),
    ]


def plan_removal(boot_dir: Path) -> list[Change]:
    config, cmdline = read_boot_files(boot_dir)
    owned = {option_key(o) for o in fragment_options(CMDLINE_FRAGMENT.read_text(**ENCODING))}
    owned.add(f"video={PANEL_CONNECTOR}")
    backup = boot_dir / ("cmdline.txt" + BACKUP_SUFFIX)
    original = backup.read_text(**ENCODING) if backup.is_file() else None
    return [
        Change(boot_dir / "config.txt", config, remove_config(config)),
        Change(boot_dir / "cmdline.txt", cmdline, remove_cmdline(cmdline, sorted(owned), original)),
    ]


def write_atomically(path: Path, text: str) -> None:
    """Replace the file in one rename, flushed to the card: a power cut leaves old or new."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", **ENCODING, newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def apply(changes: Sequence[Change]) -> None:
    for change in changes:
        if not change.changed:
            continue
        backup = change.path.with_name(change.path.name + BACKUP_SUFFIX)
        if not backup.exists():
            shutil.copy2(change.path, backup)
        write_atomically(change.path, change.new)


# ----------------------------------------------------------------------- CLI


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="merge_boot_config.py",
        description="Merge the tabletop companion's config.txt and cmdline.txt settings.",
    )
    parser.add_argument(
        "--boot-dir",
        type=Path,
        default=DEFAULT_BOOT_DIR,
        help=f"boot partition holding config.txt (default {DEFAULT_BOOT_DIR})",
    )
    parser.add_argument("--remove", action="store_true", help="undo a previous merge")
    parser.add_argument("--dry-run", action="store_true", help="print the diff, write nothing")
    parser.add_argument(
        "--panel",
        choices=sorted(PANEL_MODES),
        help="official DSI panel whose console orientation to set (with --rotate)",
    )
    parser.add_argument(
        "--rotate",
        type=int,
        choices=ROTATIONS,
        help="console rotation in degrees clockwise for --panel",
    )
    args = parser.parse_args(argv)
    if (args.panel is None) != (args.rotate is None):
        parser.error("--panel and --rotate go together")
    if args.remove and args.panel:
        parser.error("--remove takes no --panel/--rotate")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.remove:
            changes = plan_removal(args.boot_dir)
        else:
            extra = [panel_option(args.panel, args.rotate)] if args.panel else []
            changes = plan_merge(args.boot_dir, extra)
        if args.dry_run:
            sys.stdout.write("".join(change.diff() for change in changes) or "no changes\n")
            return 0
        apply(changes)
    except (BootConfigError, OSError) as error:
        print(f"merge_boot_config: {error}", file=sys.stderr)
        return 1
    for change in changes:
        print(f"{change.path}: {'updated' if change.changed else 'unchanged'}")
    if any(change.changed for change in changes):
        print("reboot needed for the boot settings to take effect")
    return 0


if __name__ == "__main__":
    sys.exit(main())
