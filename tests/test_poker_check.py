"""A profiled poker reading checks itself (#55): where the learned embedding alone does not tell
the face read from the next, the ink maps chose it, and the die is unreadable (the table asks
for a touch) rather than wrong."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from vision.profiles import profile as profile_module
from vision.profiles.face_templates import Likeness
from vision.profiles.profile import EMBEDDING_MARGIN, TORN, FaceProfile, doubted

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
