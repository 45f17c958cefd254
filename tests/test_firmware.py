"""firmware/merge_boot_config.py on copies of the stock Raspberry Pi OS Bookworm boot files."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
STOCK = REPO / "tests" / "data" / "bookworm-lite"
TOOL = REPO / "firmware" / "merge_boot_config.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("merge_boot_config", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building the class
    spec.loader.exec_module(module)
    return module


merge = load_tool()


def run_tool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True, check=False
    )


@pytest.fixture
def boot(tmp_path: Path) -> Path:
    """A copy of the stock boot partition files."""
    boot_dir = tmp_path / "boot"
    boot_dir.mkdir()
    for name in ("config.txt", "cmdline.txt"):
        shutil.copy(STOCK / name, boot_dir / name)
    return boot_dir


def snapshot(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def block_of(config: str) -> list[str]:
    lines = config.splitlines()
    return lines[lines.index(merge.BLOCK_START) : lines.index(merge.BLOCK_END) + 1]


def test_merging_twice_is_byte_identical(boot: Path) -> None:
    first = run_tool("--boot-dir", boot)
    assert first.returncode == 0, first.stderr
    assert "reboot needed" in first.stdout
    after_first = snapshot(boot)
    second = run_tool("--boot-dir", boot)
    assert second.returncode == 0, second.stderr
    assert snapshot(boot) == after_first
    assert "reboot needed" not in second.stdout
    assert second.stdout.count("unchanged") == 2


def test_stock_config_gets_the_block_at_the_end_under_all(boot: Path) -> None:
    assert run_tool("--boot-dir", boot).returncode == 0
    config = (boot / "config.txt").read_text()
    stock = (STOCK / "config.txt").read_text()
    assert config.startswith(stock)
    block = block_of(config)
    assert config.endswith("\n".join(block) + "\n")
    assert stock.splitlines()[-1] == "[all]"
    assert "[all]" not in block  # the stock file already ends in [all]
    assert "gpio=17,27=ip,pu" in block
    # Stock already sets these for all boards: the block must not load vc4-kms-v3d twice.
    assert "# dtoverlay=vc4-kms-v3d  (set elsewhere for all boards)" in block
    assert "dtoverlay=vc4-kms-v3d" not in block
    assert "camera_auto_detect=1" not in block
    assert all(len(line) <= merge.MAX_CONFIG_LINE for line in block)


def test_cmdline_stays_one_line_with_quiet_boot_options(boot: Path) -> None:
    assert run_tool("--boot-dir", boot).returncode == 0
    cmdline = (boot / "cmdline.txt").read_text()
    assert cmdline.count("\n") == 1 and cmdline.endswith("\n")
    options = cmdline.split()
    stock = (STOCK / "cmdline.txt").read_text().split()
    assert options[: len(stock)] == stock
    for option in ("quiet", "logo.nologo", "consoleblank=0", "loglevel=3"):
        assert options.count(option) == 1


def test_remove_gives_back_the_stock_files(boot: Path) -> None:
    stock = snapshot(boot)
    assert run_tool("--boot-dir", boot).returncode == 0
    removed = run_tool("--boot-dir", boot, "--remove")
    assert removed.returncode == 0, removed.stderr
    assert (boot / "config.txt").read_bytes() == stock["config.txt"]
    assert (boot / "cmdline.txt").read_bytes() == stock["cmdline.txt"]


def test_backup_is_the_original_and_made_only_once(boot: Path) -> None:
    stock = snapshot(boot)
    assert run_tool("--boot-dir", boot).returncode == 0
    with (boot / "config.txt").open("a") as config:
        config.write("dtparam=i2c_arm=on\n")
    assert run_tool("--boot-dir", boot).returncode == 0
    assert (boot / "config.txt.tabletop-bak").read_bytes() == stock["config.txt"]
    assert (boot / "cmdline.txt.tabletop-bak").read_bytes() == stock["cmdline.txt"]


def test_dry_run_prints_the_diff_and_writes_nothing(boot: Path) -> None:
    before = snapshot(boot)
    result = run_tool("--boot-dir", boot, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert snapshot(boot) == before
    assert f"+{merge.BLOCK_START}" in result.stdout
    assert "+gpio=17,27=ip,pu" in result.stdout
    assert "consoleblank=0" in result.stdout


def test_existing_options_are_replaced_by_key_and_restored_on_remove(boot: Path) -> None:
    original = "console=tty1 root=PARTUUID=abc-02 quiet splash consoleblank=600 loglevel=7\n"
    (boot / "cmdline.txt").write_text(original)
    assert run_tool("--boot-dir", boot).returncode == 0
    assert (boot / "cmdline.txt").read_text().split() == [
        "console=tty1",
        "root=PARTUUID=abc-02",
        "quiet",
        "splash",
        "consoleblank=0",
        "loglevel=3",
        "logo.nologo",
        "vt.global_cursor_default=0",
    ]
    assert run_tool("--boot-dir", boot, "--remove").returncode == 0
    assert (boot / "cmdline.txt").read_text() == original


def test_options_go_before_init_arguments() -> None:
    merged = merge.merge_cmdline("root=/dev/mmcblk0p2 -- single\n", ["quiet"])
    assert merged == "root=/dev/mmcblk0p2 quiet -- single\n"


def test_an_old_block_is_replaced_where_it_stands() -> None:
    config = "arm_64bit=1\n# >>> tabletop >>>\ngpio=4=op\n# <<< tabletop <<<\ndtparam=spi=on\n"
    merged = merge.merge_config(config, ["gpio=17,27=ip,pu"])
    assert merged == (
        "arm_64bit=1\n# >>> tabletop >>>\ngpio=17,27=ip,pu\n# <<< tabletop <<<\ndtparam=spi=on\n"
    )


def test_block_outside_all_moves_to_the_end_under_its_own_all() -> None:
    config = "[pi4]\n# >>> tabletop >>>\ngpio=4=op\n# <<< tabletop <<<\narm_boost=1\n"
    merged = merge.merge_config(config, ["gpio=17,27=ip,pu"])
    assert merged == (
        "[pi4]\narm_boost=1\n# >>> tabletop >>>\n[all]\ngpio=17,27=ip,pu\n# <<< tabletop <<<\n"
    )
    assert merge.merge_config(merged, ["gpio=17,27=ip,pu"]) == merged
    assert merge.remove_config(merged) == "[pi4]\narm_boost=1\n"


def test_settings_under_a_board_filter_do_not_count_as_set() -> None:
    config = "[cm4]\ndtoverlay=vc4-kms-v3d\n[all]\n"
    block = block_of(merge.merge_config(config, ["dtoverlay=vc4-kms-v3d"]))
    assert "dtoverlay=vc4-kms-v3d" in block


def test_panel_rotation_sets_and_replaces_the_console_video_option(boot: Path) -> None:
    assert (
        run_tool("--boot-dir", boot, "--panel", "touch-display-2", "--rotate", "90").returncode == 0
    )
    assert "video=DSI-1:720x1280@60,rotate=90" in (boot / "cmdline.txt").read_text().split()
    assert (
        run_tool("--boot-dir", boot, "--panel", "touch-display-2", "--rotate", "270").returncode
        == 0
    )
    options = (boot / "cmdline.txt").read_text().split()
    assert [o for o in options if o.startswith("video=")] == ["video=DSI-1:720x1280@60,rotate=270"]
    assert run_tool("--boot-dir", boot, "--remove").returncode == 0
    assert (boot / "cmdline.txt").read_bytes() == (STOCK / "cmdline.txt").read_bytes()


@pytest.mark.parametrize(
    ("config", "cmdline", "complaint"),
    [
        ("# >>> tabletop >>>\ngpio=4=op\n", "root=x\n", "expected one of each"),
        ("arm_64bit=1\n", "root=x\nquiet\n", "2 non-empty lines"),
        ("arm_64bit=1\n", "\n", "0 non-empty lines"),
        ("DO NOT EDIT: the file has moved to /boot/firmware/config.txt\n", "root=x\n", "pointer"),
    ],
)
def test_bad_boot_files_are_refused_and_left_alone(
    boot: Path, config: str, cmdline: str, complaint: str
) -> None:
    (boot / "config.txt").write_text(config)
    (boot / "cmdline.txt").write_text(cmdline)
    before = snapshot(boot)
    result = run_tool("--boot-dir", boot)
    assert result.returncode == 1
    assert complaint in result.stderr
    assert snapshot(boot) == before


def test_missing_boot_dir_is_a_clear_error(tmp_path: Path) -> None:
    result = run_tool("--boot-dir", tmp_path / "nowhere")
    assert result.returncode == 1
    assert "does not exist" in result.stderr


def test_rotate_without_panel_is_a_usage_error(boot: Path) -> None:
    result = run_tool("--boot-dir", boot, "--rotate", "90")
    assert result.returncode == 2
    assert "--panel and --rotate go together" in result.stderr


option = st.from_regex(r"[a-z][a-z0-9_.]{0,6}(=[a-z0-9,:@]{0,5})?", fullmatch=True)


@given(st.lists(option, min_size=1, max_size=8))
def test_any_cmdline_merges_idempotently_and_removes_cleanly(options: list[str]) -> None:
    original = " ".join(options) + "\n"
    added = ["quiet", "consoleblank=0", "loglevel=3"]
    merged = merge.merge_cmdline(original, added)
    assert merge.merge_cmdline(merged, added) == merged
    assert all(option in merged.split() for option in added)
    owned = [merge.option_key(option) for option in added]
    restored = merge.remove_cmdline(merged, owned, original).split()
    deduplicated = merge.merge_cmdline(original, []).split()
    assert sorted(restored) == sorted(
        [o for o in deduplicated if merge.option_key(o) not in owned]
        + [o for o in options if merge.option_key(o) in owned]
    )
