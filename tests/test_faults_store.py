"""Faults in the state directory (#22): damaged, old, missing, full or read-only scorebooks."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from companion.persistence import backups, dbfile
from companion.persistence.recovery import open_store
from companion.persistence.store import DB_NAME, Store, StoreError, StoreUnavailable
from tabletop.cli import main
from tests.faults_support import fill, remount_read_only, small_tmpfs


def finished_games(state_dir, count=3):
    with Store(state_dir) as store:
        for number in range(count):
            game_id = store.start_game("struggle", ["Ann", "Bob"], seed=number)
            store.append(game_id, "first 0")
            store.finish(game_id, [20 + number, 10], [0])
    return state_dir / DB_NAME


def aside(state_dir):
    return sorted(p.name for p in state_dir.iterdir() if ".damaged-" in p.name)


def test_zero_byte_database_is_moved_aside_and_said(tmp_path):
    (tmp_path / DB_NAME).write_bytes(b"")
    with Store(tmp_path) as store:
        assert any("empty (0 bytes)" in note for note in store.notes)
        assert store.start_game("traverse", ["A", "B"]) == 1
    assert aside(tmp_path)


def test_zero_byte_database_with_a_backup_is_restored_from_it(tmp_path):
    finished_games(tmp_path)  # opening made a backup
    assert backups.backup_files(tmp_path / "backups")
    (tmp_path / DB_NAME).write_bytes(b"")
    with Store(tmp_path) as store:
        assert any("restored the backup" in note for note in store.notes)
        assert len(store.totals()) == 2


def test_missing_database_with_a_backup_is_restored(tmp_path):
    finished_games(tmp_path)
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    with Store(tmp_path) as store:
        assert any("was missing" in note for note in store.notes)
        assert store.totals()


@pytest.mark.parametrize("content", [b"garbage" * 100, b"SQLite format 3\0" + b"\xff" * 5000])
def test_garbage_database_is_moved_aside_and_every_command_goes_on(tmp_path, capsys, content):
    (tmp_path / DB_NAME).write_bytes(content)
    assert main(["scores", "--state-dir", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "moved aside" in captured.err and "Traceback" not in captured.err
    assert aside(tmp_path)


def test_truncated_database_keeps_what_can_be_salvaged(tmp_path):
    path = finished_games(tmp_path, count=300)
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(size * 2 // 3)
    with Store(tmp_path) as store:
        assert store.notes and aside(tmp_path)
        assert store.db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert store.start_game("traverse", ["A", "B"]) > 0


def test_damaged_pages_are_moved_aside_and_salvaged(tmp_path):
    path = finished_games(tmp_path, count=300)
    data = bytearray(path.read_bytes())
    page = 4096
    data[page * 3 : page * 4] = b"\x55" * page  # one page of the tables' b-trees spoiled
    path.write_bytes(bytes(data))
    with Store(tmp_path) as store:
        assert aside(tmp_path), store.notes
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert any("salvaged" in n or "restored" in n or "no finished" in n for n in store.notes)


def test_a_directory_in_place_of_the_database_is_moved_aside(tmp_path):
    (tmp_path / DB_NAME).mkdir()
    (tmp_path / DB_NAME / "keep-me").write_text("x")
    with Store(tmp_path) as store:
        assert any("directory" in note for note in store.notes)
        store.start_game("traverse", ["A", "B"])
    (kept,) = aside(tmp_path)
    assert (tmp_path / kept / "keep-me").exists()


def test_older_schema_without_label_is_migrated(tmp_path):
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.executescript(
        textwrap.dedent("""
        CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
            seed INTEGER NOT NULL, mode TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing', started REAL NOT NULL, ended REAL);
        CREATE TABLE seats (game_id INTEGER, seat INTEGER, player_id INTEGER, team INTEGER,
            PRIMARY KEY (game_id, seat));
        CREATE TABLE actions (game_id INTEGER, seq INTEGER, notation TEXT NOT NULL,
            corrected INTEGER NOT NULL DEFAULT 0, at REAL NOT NULL, PRIMARY KEY (game_id, seq));
        CREATE TABLE results (game_id INTEGER, seat INTEGER, score INTEGER, winner INTEGER,
            PRIMARY KEY (game_id, seat));
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO players VALUES (1, 'Ann'), (2, 'Bob');
        INSERT INTO games VALUES (1, 'traverse', '{}', 1, 'table', 'over', 0, 1);
        INSERT INTO seats VALUES (1, 0, 1, NULL), (1, 1, 2, NULL);
        INSERT INTO results VALUES (1, 0, 5, 1), (1, 1, 2, 0);
    """)
    )
    db.close()
    with Store(tmp_path) as store:
        assert any("migrated" in note for note in store.notes)
        assert store.game(1).label == ""
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == dbfile.SCHEMA_VERSION
        assert [row.player for row in store.totals()] == ["Ann", "Bob"]


def test_a_newer_schema_is_refused_as_a_configuration_problem(tmp_path):
    finished_games(tmp_path, 1)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreUnavailable, match="newer version") as raised:
        Store(tmp_path)
    assert raised.value.status == 2


def test_a_corrupt_stored_move_is_set_aside_and_the_table_starts(tmp_path):
    with Store(tmp_path) as store:
        game_id = store.start_game("struggle", ["Ann", "Bob"], seed=3)
        store.append(game_id, "roll 9 9 9 9 7")
    with open_store(tmp_path) as store:
        assert any("set aside as damaged" in note and "roll 9 9 9 9 7" in note
                   for note in store.notes)  # fmt: skip
        assert store.current_game() is None
        assert [row[0] for row in store.damaged_games()] == [game_id]
    from companion.app import App
    from companion.config import Config

    assert App(Config(state_dir=tmp_path), camera_spec="sim", kiosk=False).run(max_frames=2) == 0


def test_broken_options_json_is_set_aside(tmp_path):
    with Store(tmp_path) as store:
        game_id = store.start_game("traverse", ["Ann", "Bob"])
        store.db.execute("UPDATE games SET options = '{not json' WHERE id = ?", (game_id,))
    with open_store(tmp_path) as store:
        assert store.game(game_id).problem
        assert store.damaged_games()[0][2] == "its options are not valid JSON"


def test_state_dir_that_is_a_file_or_holds_nul_is_a_configuration_error(tmp_path, capsys):
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(StoreUnavailable, match="is a file") as raised:
        Store(a_file)
    assert raised.value.status == 2
    with pytest.raises(StoreUnavailable, match="NUL"):
        Store(tmp_path / "a\0b")
    assert main(["scores", "--state-dir", str(a_file)]) == 0  # shown from nothing, said why
    assert "is a file" in capsys.readouterr().err


def test_a_finished_game_finished_again_changes_nothing(tmp_path):
    with Store(tmp_path) as store:
        game_id = store.start_game("traverse", ["A", "B"])
        store.finish(game_id, [3, 1], [0])
        store.finish(game_id, [3, 1], [0])
        with pytest.raises(StoreError, match="over"):
            store.finish(game_id, [1, 3], [1])


def test_rolling_backups_keep_a_few(tmp_path):
    with Store(tmp_path) as store:
        folder = tmp_path / "backups"
        start = time.time()
        for day in range(1, 6):
            assert backups.backup_if_due(store.db, folder, now=start + day * 86400)
        assert backups.backup_if_due(store.db, folder, now=start + 5 * 86400 + 60) is None
    assert len(backups.backup_files(folder)) == backups.KEPT


CHILD = """
import os, signal, sys
from companion.persistence.store import Store, DB_NAME
store = Store(sys.argv[1])
game_id = store.start_game("traverse", ["A", "B"])
for n in range(3):
    store.append(game_id, f"move {n}")
os.unlink(os.path.join(sys.argv[1], DB_NAME + "-wal"))
for n in range(3, 5):
    store.append(game_id, f"move {n}")
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_wal_deleted_then_kill_9_loses_no_move(tmp_path):
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], capture_output=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    with Store(tmp_path) as store:
        assert [a.notation for a in store.actions(1)] == [f"move {n}" for n in range(5)]


@pytest.mark.parametrize("target", ["missing/dir/out.csv", "a-directory", "/dev/full"])
def test_scores_csv_to_a_bad_place_is_one_line(tmp_path, capsys, target):
    finished_games(tmp_path / "state", 1)
    (tmp_path / "a-directory").mkdir()
    path = target if target.startswith("/") else str(tmp_path / target)
    if target == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    assert main(["scores", "--state-dir", str(tmp_path / "state"), "--csv", path]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cannot write the CSV file" in err


def test_read_only_database_file_is_found_at_open(tmp_path):
    with small_tmpfs(tmp_path / "ro", "4m") as mount:
        finished_games(mount / "state", 2)
        remount_read_only(mount)
        with pytest.raises(StoreUnavailable, match="read-only"):
            Store(mount / "state")
        with open_store(mount / "state") as store:  # the table still shows the scorebook
            assert not store.persistent and "NOTHING IS SAVED" in store.notes[0]
            assert len(store.totals()) == 2
            store.start_game("traverse", ["A", "B"])  # playable, in memory


def test_full_disk_at_open_and_during_play(tmp_path):
    with small_tmpfs(tmp_path / "full", "4m") as mount:
        state = mount / "state"
        with Store(state) as store:
            game_id = store.start_game("traverse", ["A", "B"])
            fill(mount)
            with pytest.raises(sqlite3.OperationalError, match="full"):
                for n in range(2000):
                    store.append(game_id, f"a long enough notation {n} " + "x" * 500)
            assert store.backup() is None  # a backup on a full disk is skipped, not raised
        with open_store(state) as store:
            assert store.persistent or "NOTHING IS SAVED" in store.notes[0]


NOBODY = """
import os, sys
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from companion.persistence.store import Store, StoreUnavailable
from companion.persistence.recovery import open_store
from companion.setup_checks import check_state_dir
state = Path(sys.argv[1]) / "state"
with Store(state) as store:
    store.finish(store.start_game("traverse", ["A", "B"]), [2, 1], [0])
os.chmod(state / "tabletop.sqlite3", 0o444)
try:
    Store(state)
    print("opened")
except StoreUnavailable as error:
    print("refused:", error)
print("doctor:", check_state_dir(state))
with open_store(state) as store:
    print("kiosk:", store.persistent, len(store.totals()))
"""


def test_read_only_database_file_in_a_writable_directory(tmp_path):
    import shutil
    from pathlib import Path

    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to run without the right to override permissions")
    # Root, less the capabilities that let it write a read-only file: permissions count as for
    # anyone else, and root can still read the checkout wherever it lives.
    repo = str(Path(__file__).resolve().parents[1])
    done = subprocess.run(
        ["setpriv", "--bounding-set=-dac_override,-dac_read_search", sys.executable, "-c",
         NOBODY, str(tmp_path), repo], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("refused:") and "read-only" in lines[0]
    assert "ok=False" in lines[1] and "chmod u+w" in lines[1] and "blocking=True" in lines[1]
    assert lines[2] == "kiosk: False 2"  # plays in memory, the scorebook (A, B) still shown


def test_a_damaged_backup_is_passed_over_for_an_older_sound_one(tmp_path):
    finished_games(tmp_path, 2)
    folder = tmp_path / "backups"
    with Store(tmp_path) as store:
        newest = backups.backup_if_due(store.db, folder, now=time.time() + 86400)
    newest.write_bytes(b"SQLite format 3\0" + b"\x00" * 100)
    (tmp_path / DB_NAME).write_bytes(b"")
    with Store(tmp_path) as store:
        restored = [note for note in store.notes if "restored the backup" in note]
        assert restored and newest.name not in restored[0]
        assert len(store.totals()) == 2


def test_a_garbage_replay_video_ends_the_source_with_a_message(tmp_path):
    from hardware.camera import SourceEnded
    from hardware.replay import ReplaySource

    video = tmp_path / "table.mp4"
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"garbage" * 100)
    with pytest.raises(SourceEnded, match="cannot open the video|ended"):
        ReplaySource(video)._next_image()
