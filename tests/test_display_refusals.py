"""The engines' refusals (English) come out in French on the French interface."""

from __future__ import annotations

import random

import pytest

import engines
from companion.controller import Controller, Tap
from companion.store import Store
from display.refusals import FALLBACK, translate
from display.render import Renderer

# Entries a player gets wrong, per game: typed plays, wrong dice, moves out of turn.
WRONG = {
    "struggle": ["pass", "roll 1 2", "roll 9 9", "rethrow A A A A A", "objective K K", "first 7"],
    "traverse": ["1+0", "9+1", "pass", "1-6", "2+7 3+1", "petard", "roll 7 7"],
    "roudalon": ["stake 999", "stake 0", "throw 1", "throw 2", "yes", "close", "roll 1 2 3"],
    "strategix": ["play B C", "play D D E", "play *", "play Z", "play B + C C", "petard", "pass",
                  "play", "roll 1"],
    "sequence": ["7D@a1", "7D@z9", "ZZ@a1", "JHxa2", "JSxe5", "dead 7D", "dead ZZ", "pass",
                 "QH@b2"],
}  # fmt: skip
PLAYERS = {"struggle": 3, "traverse": 2, "roudalon": 4, "strategix": 3, "sequence": 4}


def refusals_met(game: str, mode: str, seed: int) -> list[str]:
    """Every refusal the engine gives to the wrong entries along a random game."""
    names = [f"P{i}" for i in range(PLAYERS[game])]
    state = engines.make_game(game, names, {}, seed, mode).new_state()
    rng, found = random.Random(seed), []
    for step in range(120):
        if state.is_over:
            break
        if step % 3 == 0:  # not a multiple of 2: dice and moves alternate in some games
            for entry in WRONG[game] + [a.notation + " x" for a in state.legal_actions()[:2]]:
                try:
                    state.clone().apply(entry)
                except engines.EngineError as error:
                    found.append(str(error))
        if state.is_chance and state.game.mode == "full":
            state.apply(state.sample_chance().notation)
        elif state.legal_actions():
            state.apply(rng.choice(state.legal_actions()).notation)
        else:
            break
    return found


@pytest.mark.parametrize("game", sorted(WRONG))
def test_the_common_refusals_of_each_game_are_in_french(game):
    if game not in engines.available_games():
        pytest.skip(f"the {game} engine is not built yet")
    messages = {m for seed in (1, 2) for m in refusals_met(game, "full", seed)}
    assert len(messages) >= 5
    untranslated = []
    for message in messages:
        french, original = translate(message, game, "fr")
        if original:
            untranslated.append(message)
        assert french and french != message or original
    assert not untranslated, untranslated[:5]


def test_reasons_keep_their_details():
    assert translate("'1+0': a move goes at least one square", "traverse", "fr")[0] == (
        "'1+0' : un coup avance d'au moins une case"
    )
    french, _ = translate("AC@a4: a4 shows 8C, not AC (AC is on f8 and a9)", "sequence", "fr")
    assert french == "AC@a4 : la case a4 montre 8C, pas AC (AC est en f8 et a9)"
    french, _ = translate(
        "the trick is 1 run(s) of 3 (W X Y): play the same formula, a pétard or pass — not 1 "
        "pair(s)", "strategix", "fr",
    )  # fmt: skip
    assert "1 suite(s) de 3 (W X Y)" in french and "pas 1 paire(s)" in french
    assert translate("the dice are rolled (3 and 4): Red plays", "traverse", "fr")[0] == (
        "les dés sont lancés (3 et 4) : Rouge joue"
    )


def test_an_unknown_refusal_is_a_french_sentence_with_the_original_in_small_type(tmp_path):
    assert translate("the moon is in the way", "struggle", "fr") == (
        FALLBACK["fr"],
        "the moon is in the way",
    )
    assert translate("the moon is in the way", "struggle", "en") == ("the moon is in the way", "")
    with Store(tmp_path) as store:
        controller = Controller(store, "fr")
        controller._refuse(ValueError("the moon is in the way"), "struggle")
        screen = controller.screen()
        assert screen.message_detail == "the moon is in the way" and screen.error
        Renderer((800, 480)).draw(screen)  # the two lines fit the message strip


@pytest.mark.parametrize(
    "game, players, entry, expected",
    [
        ("traverse", ["Ann", "Bob"], "1+0", "au moins une case"),
        ("roudalon", ["Ann", "Bob", "Cid", "Dee"], "stake 999", ""),
        ("strategix", ["Ann", "Bob", "Cid"], "play B C", ""),
        ("sequence", ["Ann", "Bob"], "7D@z9", "n'est pas une case"),
    ],
)
def test_the_table_says_refusals_in_french(tmp_path, game, players, entry, expected):
    if game not in engines.available_games():
        pytest.skip(f"the {game} engine is not built yet")
    with Store(tmp_path) as store:
        controller = Controller(store, "fr", seed_source=random.Random(0))
        controller.start_game(game, players, seed=2, mode="full")
        rng = random.Random(1)
        while controller.dice_request() or not controller.move_targets(controller.state):
            if controller.dice_request():
                controller.play(controller.state.sample_chance().notation)
            else:
                break
        if game == "roudalon":
            controller.handle(Tap(rng.choice(controller.move_targets(controller.state)).id))
        before = len(controller.state.history)
        controller.play(entry)
        assert controller.error and len(controller.state.history) == before
        assert controller.message.startswith("Refusé") and not controller.detail
        assert expected in controller.message
