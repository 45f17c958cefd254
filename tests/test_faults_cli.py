"""The error boundary of every `tabletop` command (#22): one line, a documented exit status."""

from __future__ import annotations

import argparse

import pytest

from companion.config import ConfigError
from companion.errors import CONFIG, FAILED, INTERNAL, STATE_UNUSABLE, CommandError, run_guarded
from companion.persistence.store import StoreUnavailable
from tabletop import cli


@pytest.fixture(autouse=True)
def error_log(tmp_path, monkeypatch):
    path = tmp_path / "errors.log"
    monkeypatch.setenv("TABLETOP_ERROR_LOG", str(path))
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    return path


def failing_command(error: BaseException):
    def build_parser():
        parser = argparse.ArgumentParser(prog="tabletop")
        sub = parser.add_subparsers(dest="command")
        boom = sub.add_parser("boom")

        def handler(args):
            raise error

        boom.set_defaults(handler=handler)
        return parser

    return build_parser


@pytest.mark.parametrize(
    ("error", "status", "words"),
    [
        (RuntimeError("a bug\nsecond line"), INTERNAL, "internal error: RuntimeError: a bug"),
        (ConfigError("display.size: wrong"), CONFIG, "display.size: wrong"),
        (StoreUnavailable("disk is full"), STATE_UNUSABLE, "disk is full"),
        (CommandError("said so", 1), FAILED, "said so"),
        (PermissionError(13, "Permission denied", "/x"), FAILED, "/x: Permission denied"),
        (RecursionError(), FAILED, "nested too deeply"),
        (MemoryError(), FAILED, "out of memory"),
    ],
)
def test_any_error_is_one_line_with_its_status(monkeypatch, capsys, error, status, words):
    monkeypatch.setattr(cli, "build_parser", failing_command(error))
    assert cli.main(["boom"]) == status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("tabletop boom: ") and words in err
    assert "Traceback" not in err


def test_the_traceback_goes_to_the_log_and_debug_shows_it(monkeypatch, capsys, error_log):
    monkeypatch.setattr(cli, "build_parser", failing_command(ValueError("oops")))
    assert cli.main(["boom"]) == INTERNAL
    err = capsys.readouterr().err
    assert str(error_log) in err and "Traceback" in error_log.read_text()
    assert cli.main(["boom", "--debug"]) == INTERNAL
    assert "Traceback" in capsys.readouterr().err


def test_under_systemd_the_traceback_goes_to_the_journal(monkeypatch, capsys):
    monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    assert run_guarded("tabletop x", lambda: 1 / 0) == INTERNAL
    err = capsys.readouterr().err
    assert "Traceback" in err and "the journal" in err


def test_interrupt_and_closed_pipe():
    def interrupted():
        raise KeyboardInterrupt

    assert run_guarded("tabletop x", interrupted) == 130
