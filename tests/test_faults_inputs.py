"""Arbitrary bytes on every text input the product reads (#22): a clear error, never a crash."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from companion.config import ConfigError, load_config, run_config
from companion.persistence.store import DB_NAME
from companion.referee import parse_options
from tabletop.cli import main
from tabletop.commands.referee import _initial_state

ANY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TOML_LIKE = st.binary(max_size=200) | st.text(max_size=200).map(str.encode) | st.sampled_from(
    [b"[camera]\npoker_profile = 5\n", b"state_dir = '\\u0000'\n", b"[display]\nsize = [1, 2]\n",
     b"\xef\xbb\xbf[camera]\n", b"[[camera]]\n", b"camera = []\n", b"a = " + b"[" * 5000]
)  # fmt: skip


@ANY
@given(data=TOML_LIKE)
def test_config_files_of_any_bytes_load_or_name_the_problem(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("c") / "config.toml"
    path.write_bytes(data)
    try:
        load_config(path)
    except ConfigError as error:
        assert str(path) in str(error) or ":" in str(error)


@ANY
@given(data=TOML_LIKE)
def test_the_screen_settings_file_of_any_bytes_never_stops_run(tmp_path_factory, data):
    state = tmp_path_factory.mktemp("s")
    (state / "tabletop.toml").write_bytes(data)
    config = state / "named.toml"
    config.write_text("")
    run_config(config, state)  # a warning at most


@ANY
@given(data=st.binary(max_size=300) | st.sampled_from([b"[" * 100_000, b'{"format": 1}']))
def test_saved_games_of_any_bytes_are_refused_in_one_line(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("g") / "saved.json"
    path.write_bytes(data)
    args = argparse.Namespace(state=path, game="struggle")
    try:
        _initial_state(args, engines, parse_options)
    except (ValueError, RecursionError):
        pass


@ANY
@given(data=st.binary(max_size=300))
def test_option_files_of_any_bytes_are_text_or_value_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("o") / "board.txt"
    path.write_bytes(data)
    try:
        parse_options([f"board=@{path}"])
    except ValueError as error:
        assert "board" in str(error) or "utf-8" in str(error).lower()


@ANY
@given(data=st.binary(max_size=400) | st.sampled_from([b"PK\x03\x04" + b"\0" * 100]))
def test_profiles_of_any_bytes_are_refused_by_tabletop_read(tmp_path_factory, capsys, data):
    folder = tmp_path_factory.mktemp("p")
    profile = folder / "profile.npz"
    profile.write_bytes(data)
    image = folder / "x.png"
    image.write_bytes(b"")
    status = main(["read", "--profile", str(profile), str(image)])
    assert status in (1, 2)
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("command", [["scores"], ["doctor", "--camera", "sim"]])
def test_commands_on_a_garbage_database_say_it_in_lines(tmp_path, capsys, command):
    (tmp_path / DB_NAME).write_bytes(b"\x00garbage" * 50)
    status = main([*command, "--state-dir", str(tmp_path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert status in (0, 1)


def test_demo_on_a_garbage_database_plays(tmp_path):
    from companion import demo

    (tmp_path / "state").mkdir()
    (tmp_path / "state" / DB_NAME).write_bytes(b"garbage" * 100)
    said: list[str] = []
    result = demo.run_demo(["traverse"], 1, tmp_path / "state", tmp_path, say=said.append)
    assert result["scores"]["traverse"] and any("moved aside" in line for line in said)
