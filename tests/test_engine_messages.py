"""The engines speak in data: every refusal and prompt is a code with parameters (#23)."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

import engines
from engines.core import EngineError, IllegalActionError
from engines.messages import ENGLISH, Message, english_lookup, msg, render

ENGINES = Path(engines.__file__).parent
for name in engines.registry.GAME_CLASSES.values():
    importlib.import_module(name.split(":")[0])


def codes_in_source() -> set[str]:
    """Every literal code given to an error class, `msg` or `Message` in engines/."""
    found = set()
    for path in ENGINES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            callee = getattr(node.func, "id", getattr(node.func, "attr", ""))
            first = node.args[0]
            wanted = callee.endswith("Error") or callee in ("msg", "Message")
            if wanted and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


def test_every_code_raised_has_an_english_default() -> None:
    missing = sorted(code for code in codes_in_source() if code not in ENGLISH)
    assert not missing, f"codes without an English default: {missing}"


def test_no_engine_error_is_raised_with_a_sentence() -> None:
    sentences = sorted(code for code in codes_in_source() if " " in code)
    assert not sentences, f"errors raised with English text, not a code: {sentences}"


def test_an_error_carries_its_code_and_parameters() -> None:
    state = engines.make_game("traverse", ["Ann", "Bob"]).new_state()
    with pytest.raises(EngineError) as caught:
        state.apply("first 0")
    assert caught.value.code == "traverse.waiting"
    assert isinstance(caught.value.params["hint"], Message)
    assert str(caught.value).startswith("waiting for the dice: roll <2 faces 1-6>")


def test_plural_entries_and_nested_messages() -> None:
    error = IllegalActionError("struggle.few_aces", figure=msg("face.J"), n=2, aces=1,
                               low="J+2", high="J+3")  # fmt: skip
    assert str(error) == "Jack has 2 dice and the hand only 1 ace: J+2 to J+3"
    assert render(msg("strategix.shape.runs", n=2, length=3), english_lookup) == "2 runs of 3"


def test_an_unknown_code_shows_itself_rather_than_failing() -> None:
    assert str(Message("no.such.code", {"n": 3})) == "no.such.code(n=3)"


def test_actions_are_described_by_messages_not_sentences() -> None:
    """No `Action(notation, "words")` in engines/: a description is a code and parameters."""
    written = []
    for path in ENGINES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            callee = getattr(getattr(node, "func", None), "id", "")
            if isinstance(node, ast.Call) and callee == "Action" and len(node.args) > 1:
                if isinstance(node.args[1], ast.Constant | ast.JoinedStr):
                    written.append(f"{path.name}:{node.lineno}")
    assert not written, f"actions described in words: {written}"


@pytest.mark.parametrize("name", sorted(engines.registry.GAME_CLASSES))
def test_every_listed_action_is_said_in_french_and_english_from_the_catalogue(name) -> None:
    from display.i18n import say
    from tests.conformance import unknown_codes

    players = ["Ann", "Bob", "Cy", "Di"][: engines.game_class(name).min_players]
    state = engines.make_game(name, players, seed=3).new_state()
    for _ in range(60):
        if state.is_over:
            break
        for action in state.legal_actions()[:20]:
            assert isinstance(action.message, Message) and not unknown_codes(action.message)
            english, french = say("en", action), say("fr", action)
            assert english == action.describe()
            assert french and french != action.notation
        state.apply(state.sample_chance() if state.is_chance else state.legal_actions()[0])


def test_a_message_survives_a_round_trip_through_json() -> None:
    from engines.messages import as_data, chain, from_data

    said = msg("struggle.said.objective", order=chain([msg("face.K"), msg("face.Q")]))
    assert from_data(json.loads(json.dumps(as_data(said)))) == said
    assert str(said) == "Objective: King, Queen"


@pytest.mark.parametrize("name", sorted(engines.registry.GAME_CLASSES))
def test_every_rule_option_has_a_help_message(name) -> None:
    for option in engines.game_class(name).options:
        assert option.help.code in ENGLISH, option.name


def test_describe_speaks_the_registered_catalogue_and_english_by_default() -> None:
    import display.i18n  # noqa: F401 - registers the display's catalogue

    state = engines.make_game("traverse", ["Ann", "Bob"]).new_state()
    roll = state.parse("roll 5 6")
    assert roll.describe() == roll.describe("en") == "Dice: 5 6"
    assert roll.describe("fr") == "Dés\u00a0: 5 6"
