"""The conformance kit every engine passes: random full games with invariants, JSON round trips,
undo, determinism, and bad input that raises a typed error and changes nothing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engines
from engines.core import CHANCE, EngineError, Game, State
from engines.dice import FACES_OF, all_rolls, sort_faces
from engines.messages import ENGLISH, Message

MAX_ACTIONS = 20_000
GARBLED = ["", "   ", "zzz", "roll", "roll 7 7 7 7 7 7 7", "\x00", "x" * 600, "é ü 😀", "-1"]


def random_game(name: str, rng: random.Random, mode: str = "full") -> Game:
    cls = engines.game_class(name)
    count = rng.choice(cls.player_counts())
    players = [f"P{i}" for i in range(count)]
    return cls(players, seed=rng.randrange(1_000_000), mode=mode)


def choose(state: State, rng: random.Random):
    if state.actor == CHANCE:
        return state.sample_chance()
    return rng.choice(state.legal_actions())


def play_out(
    state: State, rng: random.Random, on_step: Callable[[State], None] | None = None
) -> State:
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return state
        action = choose(state, rng)
        state.apply(action, validate=False)
        if on_step:
            on_step(state)
    raise AssertionError(f"game did not end within {MAX_ACTIONS} actions")


def check_legal_listing(state: State) -> None:
    """Every listed action round-trips through its notation and is described in both languages."""
    legal = state.legal_actions()
    notations = [a.notation for a in legal]
    assert len(set(notations)) == len(notations), "duplicate notations in the legal list"
    if not state.is_over and state.actor != CHANCE:
        assert legal, "a player to act must have at least one legal action"
    for action in legal:
        assert action.notation == " ".join(action.notation.split())
        assert state.parse(action.notation) == action
        assert isinstance(action.message, Message), f"{action.notation!r} lacks a description"
        assert not unknown_codes(action.message), f"{action.notation!r}: {action.message}"


def check_dice_wanted(state: State) -> None:
    """The dice chance waits for, given as data, are exactly the rolls that are legal now."""
    wanted = state.dice_wanted()
    if wanted is None:
        assert not [a for a in state.legal_actions() if a.notation.startswith("roll ")]
        for roll in ("roll 1 2", "roll 9 J"):
            with pytest.raises(EngineError):
                state.parse(roll)
        return
    faces = FACES_OF[wanted.kind]
    assert state.is_chance and wanted.count > 0
    assert state.legal_actions() == all_rolls(wanted.count, faces)
    thrown = random.Random(len(state.history)).choices(faces, k=wanted.count)
    assert state.parse("roll " + " ".join(thrown)).data == sort_faces(thrown, faces)


def check_step(state: State) -> None:
    state.check_invariants()
    check_legal_listing(state)
    check_dice_wanted(state)
    assert len(state.scores()) == len(state.players)


def check_unchanged_on_bad_input(state: State, rng: random.Random) -> None:
    before = state.clone()
    attempts = list(GARBLED)
    past = [a.notation for a in before.history[-10:]]
    legal_now = {a.notation for a in state.legal_actions()}
    attempts += [n for n in past if n not in legal_now]
    for text in attempts:
        try:
            accepted = state.apply(text)
        except EngineError:
            assert state == before, f"state changed after rejecting {text!r}"
            continue
        # Another spelling of a legal action (e.g. a past play that ends the game early) may be
        # accepted, but only as one of the listed actions.
        assert text in past and accepted.notation in legal_now, f"{text!r} was accepted"
        state.undo()
        assert state == before


def check_undo_and_json(state: State, rng: random.Random) -> None:
    """Round trip through JSON and undo a random number of actions, then replay them."""
    assert engines.loads(engines.dumps(state)) == state
    depth = rng.randint(1, min(5, len(state.history))) if state.history else 0
    snapshot = state.clone()
    undone = [state.undo() for _ in range(depth)]
    for action in reversed(undone):
        state.apply(action.notation)
    assert state == snapshot


def unknown_codes(message: Message) -> list[str]:
    """The codes in a message (and the messages inside it) without an English default."""
    found = [] if message.code in ENGLISH else [message.code]
    for value in message.params.values():
        for inner in value if isinstance(value, list | tuple) else [value]:
            if isinstance(inner, Message):
                found += unknown_codes(inner)
    return found
