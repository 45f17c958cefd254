"""The kiosk starts headless with whatever hardware there is and says what is missing."""

from __future__ import annotations

from companion.app import App
from companion.config import Config
from companion.controller import Controller
from companion.persistence.store import Store
from tabletop.cli import main


def test_kiosk_runs_headless_without_gpio_and_resumes_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with Store(tmp_path) as store:
        Controller(store, "fr").start_game("struggle", ["Ann", "Bob"], seed=1)
    app = App(Config(state_dir=tmp_path), camera_spec="sim", kiosk=False)
    assert app.run(max_frames=5) == 0
    assert app.first_frame_at is not None and app.first_frame_at < 10


def test_kiosk_without_a_camera_still_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    app = App(Config(state_dir=tmp_path), camera_spec="replay:/nonexistent.mp4", kiosk=False)
    assert app.run(max_frames=3) == 0


def test_bad_config_is_refused_with_the_key(tmp_path, capsys):
    config = tmp_path / "bad.toml"
    config.write_text("[display]\nrotation = 45\n")
    assert main(["run", "--config", str(config), "--frames", "1"]) == 2
    assert "display.rotation" in capsys.readouterr().err


def test_scores_command(tmp_path, capsys):
    with Store(tmp_path) as store:
        game_id = store.start_game("struggle", ["Ann", "Bob"])
        store.finish(game_id, [20, 10], [0])
    csv_path = tmp_path / "out.csv"
    assert main(["scores", "--state-dir", str(tmp_path), "--csv", str(csv_path)]) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "20" in out and csv_path.exists()
    assert main(["scores", "--state-dir", str(tmp_path), "--player", "Nobody"]) == 1


def test_every_command_and_bench_target_describes_itself_in_its_help(capsys):
    from tabletop.cli import build_parser

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    for name, command in commands.items():
        assert command.description, f"tabletop {name} --help has no description"
    bench_targets = commands["bench"]._subparsers._group_actions[0].choices
    for target in bench_targets:
        assert target in parser.format_help(), f"tabletop --help does not name bench {target}"
        assert bench_targets[target].description, f"bench {target} --help has no description"
