"""A profiled poker reading checks itself (#55): where the learned embedding alone does not tell
the face read from the next, the ink maps chose it, and the die is unreadable (the table asks
for a touch) rather than wrong; so is a die one of whose squares was as like two faces."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.profiles import profile as profile_module
from vision.profiles.face_templates import Likeness
from vision.profiles.profile import EMBEDDING_MARGIN, TORN, FaceProfile, doubted
from vision.read.profiled import DISPUTED, torn_elsewhere
from vision.synth.poker_designs import PokerDesign

likeness_rows = st.lists(st.floats(-1.0, 1.0), min_size=6, max_size=6).map(np.array)


@given(likeness_rows)
def test_a_face_the_embedding_does_not_tell_from_the_next_is_doubted(embedding):
    ranked = np.sort(embedding)[::-1]
    assert doubted(embedding) == (ranked[0] - ranked[1] < EMBEDDING_MARGIN)


@given(likeness_rows, st.integers(0, 5))
def test_a_face_the_embedding_clearly_prefers_is_not_doubted(embedding, face):
    embedding = np.minimum(embedding, 0.9)
    embedding[face] = 0.9 + 2 * EMBEDDING_MARGIN
    assert not doubted(embedding)


def test_a_doubted_verdict_is_an_unreadable_die_not_no_die(monkeypatch):
    profile = FaceProfile.load_default("poker")
    sure = np.array([[0.95, 0.5, 0.4, 0.3, 0.2, 0.1]])
    barely = Likeness(sure, np.array([[0.9, 0.89, 0.1, 0.1, 0.1, 0.1]]))
    value, confidence = profile._checked(barely, 0)
    assert value is None and TORN <= confidence < 0.5
    clear = Likeness(sure, np.array([[0.9, 0.5, 0.1, 0.1, 0.1, 0.1]]))
    assert profile._checked(clear, 0)[0] == profile.faces[0]
    monkeypatch.setattr(profile_module, "EMBEDDING_MARGIN", -1.0)
    assert profile._checked(barely, 0)[0] == profile.faces[0]


def test_dark_dice_with_light_print_come_out_unreadable_not_wrong(monkeypatch):
    """Light print on black dice, which the embedding finds all alike: read right or unreadable
    (a home design printed so, taught from tray photos; not a design the line was chosen on)."""
    from bench import poker
    from bench.poker_tally import Tally, taught_reader

    seed = 410
    monkeypatch.setattr(poker, "set_body", lambda design: ("black", "opaque"))
    design = replace(
        PokerDesign.random(np.random.default_rng([seed, 1]), "letters"),
        black=(235, 238, 240),
        red=(60, 200, 235),
        figure_colours=((255, 170, 120), (150, 220, 120), (130, 120, 255)),
    )
    tally = Tally()
    reader = taught_reader(
        lambda folder: poker.write_teaching_photos(folder, design, "tray", seed), tally, "dark"
    )
    for tray in range(6):
        poker.read_tray(reader, design, seed, tray, tally)
    assert tally.dice > 10
    assert tally.figures()["wrong"] == 0.0, tally.figures()


verdicts = st.lists(
    st.tuples(st.sampled_from([None, "9", "K"]), st.floats(0.0, 1.0)), min_size=1, max_size=6
)


@given(verdicts)
def test_a_face_is_not_taken_from_one_square_where_another_was_as_like_two(tried):
    chosen = max(tried, key=lambda verdict: verdict[1])
    torn = any(value is None and confidence >= DISPUTED for value, confidence in tried)
    assert torn_elsewhere(chosen, tried) == (chosen[0] is not None and torn)
