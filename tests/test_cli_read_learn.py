"""`tabletop read` and `tabletop learn` on rendered photos written to tmp_path.

Most tests answer the finder's question ("where are the dice?") with the rendered truth, so they
check this CLI's behaviour (JSON lines, errors per file, exit codes) whatever the state of the
finder; one test runs the whole reader.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tabletop.cli import main
from vision.read.confidence import SURE_LINE
from vision.read.types import POKER_FACES, DieCandidate
from vision.synth.render import render_scene


@pytest.fixture
def truth_finder(monkeypatch):
    """Make the reader's finder return the rendered truth of the images written by `photo`."""
    answers: dict[bytes, list[DieCandidate]] = {}

    def find(frame, roi=None, threshold=None, finder=None):  # find_dice's signature
        return answers.get(frame.tobytes(), [])

    def candidates(frame, heat_map, threshold=None):  # candidates_in's, as the reader calls it
        return find(frame)

    monkeypatch.setattr("vision.reader.candidates_in", candidates)
    monkeypatch.setattr("vision.read.find.find_dice", find)
    return answers


def photo(path, faces, kind, seed, answers=None):
    """Render a tray, write it as PNG, and register its dice with the truth finder."""
    scene = render_scene(faces, kind=kind, seed=seed)
    cv2.imwrite(str(path), scene.frame)
    if answers is not None:
        decoded = cv2.imread(str(path))
        answers[decoded.tobytes()] = [
            DieCandidate(d.center, d.quad, float(np.linalg.norm(d.quad[0] - d.quad[1])))
            for d in scene.dice
        ]
    return path


def run_cli(capsys, *argv: str) -> tuple[int, list[str], str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_read_json_gives_one_line_per_image_and_errors_per_file(tmp_path, capsys, truth_finder):
    good = photo(tmp_path / "good.png", ["A", "K", "9"], "poker", 1, truth_finder)
    other = photo(tmp_path / "other.png", ["10", "10"], "poker", 2, truth_finder)
    truncated = tmp_path / "cut.png"
    truncated.write_bytes(good.read_bytes()[:3000])
    missing = tmp_path / "absent.png"
    code, lines, _ = run_cli(
        capsys,
        "read",
        "--kind",
        "poker",
        "--json",
        str(good),
        str(missing),
        str(truncated),
        str(other),
    )
    assert code == 1
    results = [json.loads(line) for line in lines]
    assert [r["image"] for r in results] == [str(good), str(missing), str(truncated), str(other)]
    assert sorted(d["value"] for d in results[0]["dice"]) == sorted(["A", "K", "9"])
    assert [d["value"] for d in results[3]["dice"]] == ["10", "10"]
    assert "absent.png" in results[1]["error"] and "cut.png" in results[2]["error"]
    first = results[0]
    assert first["unreadable"] == 0 and first["ms"] >= 0
    assert all(len(d["center"]) == 2 and 0.5 <= d["confidence"] <= 1 for d in first["dice"])
    assert all(d["sure"] is (d["confidence"] >= SURE_LINE) for d in first["dice"])


def test_read_d6_values_are_integers_and_all_good_files_exit_0(tmp_path, capsys, truth_finder):
    """With a learned d6 profile (an unusual d6 set), so the pip reader is not needed here."""
    profile = tmp_path / "d6.npz"
    assert main(["learn", "--kind", "d6", "--rendered", "2", "--out", str(profile)]) == 0
    image = photo(tmp_path / "d6.png", [1, 3, 6], "d6", 4, truth_finder)
    capsys.readouterr()
    code, lines, _ = run_cli(capsys, "read", "--profile", str(profile), "--json", str(image))
    assert code == 0
    dice = json.loads(lines[0])["dice"]
    assert sorted(d["value"] for d in dice) == [1, 3, 6]
    assert all(isinstance(d["value"], int) for d in dice)


def test_read_without_json_prints_a_summary(tmp_path, capsys, truth_finder):
    image = photo(tmp_path / "tray.png", ["Q", "Q"], "poker", 3, truth_finder)
    code, lines, _ = run_cli(
        capsys, "read", "--kind", "poker", str(image), str(tmp_path / "no.png")
    )
    assert code == 1
    assert lines[0].startswith(f"{image}: 2 dice: Q Q")
    assert "ERROR" in lines[1] and lines[1].count("no.png") == 1


def test_read_roi_limits_where_dice_are_looked_for(tmp_path, capsys, monkeypatch):
    from vision.read.find import look

    seen = []
    monkeypatch.setattr(
        "vision.reader.look", lambda frame, roi=None, finder=None: seen.append(roi) or look(frame)
    )
    monkeypatch.setattr("vision.reader.candidates_in", lambda frame, heat_map, threshold: [])
    monkeypatch.setattr("vision.reader.find_large_faces", lambda *args, **kwargs: [])
    image = photo(tmp_path / "tray.png", [2], "d6", 5)
    code, lines, _ = run_cli(capsys, "read", "--roi", "10,20,300,200", "--json", str(image))
    assert code == 0 and seen == [(10, 20, 300, 200)]
    assert json.loads(lines[0])["dice"] == []
    with pytest.raises(SystemExit):
        main(["read", "--roi", "10,20,0,5", str(image)])


def test_read_refuses_a_corrupt_or_mismatched_profile(tmp_path, capsys):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"garbage")
    image = photo(tmp_path / "tray.png", [2], "d6", 5)
    code, _, err = run_cli(capsys, "read", "--profile", str(bad), str(image))
    assert code == 2 and "bad.npz" in err
    profile = tmp_path / "poker.npz"
    assert main(["learn", "--kind", "poker", "--rendered", "1", "--out", str(profile)]) == 0
    code, _, err = run_cli(capsys, "read", "--kind", "d6", "--profile", str(profile), str(image))
    assert code == 2 and "poker profile" in err


def test_learn_from_photo_folders_then_read_with_the_profile(tmp_path, capsys, truth_finder):
    for face in POKER_FACES:
        (tmp_path / "set" / face).mkdir(parents=True)
        for seed in (0, 1):
            photo(tmp_path / "set" / face / f"{seed}.png", [face], "poker", 30 + seed, truth_finder)
    out = tmp_path / "mine.npz"
    code, lines, _ = run_cli(
        capsys, "learn", "--kind", "poker", "--out", str(out), str(tmp_path / "set")
    )
    assert code == 0 and out.is_file()
    assert any("9: 2" in line and "A: 2" in line for line in lines)
    assert any("self-check" in line and "100.0%" in line for line in lines)
    image = photo(tmp_path / "tray.png", ["J", "A"], "poker", 9, truth_finder)
    code, lines, _ = run_cli(capsys, "read", "--profile", str(out), "--json", str(image))
    assert code == 0
    assert sorted(d["value"] for d in json.loads(lines[0])["dice"]) == ["A", "J"]


def test_learn_names_a_missing_face_folder(tmp_path, capsys):
    (tmp_path / "set" / "9").mkdir(parents=True)
    code, _, err = run_cli(
        capsys, "learn", "--kind", "poker", "--out", str(tmp_path / "p.npz"), str(tmp_path / "set")
    )
    assert code == 1 and "missing face folder(s) 10 J Q K A" in err
    code, _, err = run_cli(capsys, "learn", "--kind", "poker", "--out", str(tmp_path / "p.npz"))
    assert code == 2 and "DIR" in err


def test_read_end_to_end_with_the_real_finder(tmp_path, capsys):
    image = photo(tmp_path / "tray.png", ["A", "K", "Q", "J", "9"], "poker", 11)
    code, lines, err = run_cli(capsys, "read", "--kind", "poker", "--json", str(image))
    if code == 2 and "cannot read dice" in err:
        pytest.skip(f"the dice finder cannot run here: {err.strip()}")
    assert code == 0
    result = json.loads(lines[0])
    read = [d["value"] for d in result["dice"]]
    assert set(read) <= set(POKER_FACES)
    assert len(read) + result["unreadable"] >= 4  # most dice are found


def test_learn_can_check_itself_on_whole_rendered_trays(tmp_path, capsys):
    out = tmp_path / "p.npz"
    argv = ["learn", "--kind", "poker", "--rendered", "1", "--check", "5", "--check-trays"]
    code, lines, err = run_cli(capsys, *argv, "--out", str(out))
    assert code == 0, err
    assert any(line.startswith("check on 5 new rendered dice:") for line in lines)


def test_the_self_checks_misreads_are_said_once_each_with_how_often():
    from tabletop.commands.learn import misreads_said

    misread = [("9", None)] * 8 + [("10", "J"), ("10", None), ("10", None)]
    assert misreads_said(misread) == "9 as unreadable ×8, 10 as J, 10 as unreadable ×2"


def test_the_self_check_says_apart_how_many_read_as_another_face():
    from tabletop.commands.learn import self_check_said

    class Profile:
        def self_check_misreads(self):
            return [("9", "10"), ("K", None), ("K", None)]

        def counts(self):
            return {"9": 10, "K": 10}

        def share_read_right(self, misread):
            return 1 - len(misread) / 20

    said = self_check_said(Profile())
    assert "85.0% right, 5.0% read as another face, 10.0% unreadable" in said
    assert "9 as 10, K as unreadable ×2" in said
