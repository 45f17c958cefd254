"""The poker-face embedding (vision/profiles/face_embedding.py, trained by
vision/train/train_poker_embed.py): a design it never saw is taught from close-ups and from tray
photos, and trays of it are read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.poker import Tally, read_tray, write_teaching_photos
from vision.profiles.face_embedding import MODEL, FaceEmbedder
from vision.profiles.profile import EMBEDDED, INKED, FaceProfile
from vision.profiles.profile_learning import learn_from_dir
from vision.read.types import POKER_FACES
from vision.reader import DiceReader
from vision.synth.poker_designs import PokerDesign
from vision.synth.render import rectify_truth, render_scene

pytestmark = pytest.mark.skipif(not MODEL.is_file(), reason="poker_embed.onnx not shipped")

# A design of the held-out stream (`default_rng([seed, 1])`, as `tabletop bench poker` draws
# them; the embedding trained on `default_rng([n, 25025])` only).
SEED, KIND, TRAYS = 5, "letters", 10
# Floors under what was measured on these 41 dice: 40 right and 1 wrong, taught either way
# (2026-11-27; 92.7% and 87.8% with the first embedding). The 99.5% is not reached on
# every letters design (docs/vision.md, "Teaching poker dice: what to expect").
RIGHT_AT_LEAST = {"close-up": 0.92, "tray": 0.92}
WRONG_AT_MOST = {"close-up": 0.05, "tray": 0.05}


def test_embeddings_are_unit_vectors_and_batching_changes_nothing():
    embedder = FaceEmbedder.shipped()
    assert embedder is not None
    scene = render_scene(list(POKER_FACES), kind="poker", seed=3)
    crops = [rectify_truth(scene.frame, die, 64) for die in scene.dice]
    together = embedder.embed(crops)
    alone = np.vstack([embedder.embed([crop]) for crop in crops])
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-4)
    assert np.allclose(together, alone, atol=1e-4)
    assert embedder.embed_turned(crops[:2]).shape == (2, 4, together.shape[1])
    assert MODEL.stat().st_size < 2_000_000


def test_poker_profiles_compare_embeddings_and_d6_profiles_ink(tmp_path):
    scene = render_scene(list(POKER_FACES), kind="poker", seed=4)
    examples = {die.value: [rectify_truth(scene.frame, die, 64)] for die in scene.dice}
    profile = FaceProfile.learn(examples, kind="poker")
    assert profile.method == EMBEDDED
    loaded = FaceProfile.load(profile.save(tmp_path / "set.npz"))
    assert loaded.method == EMBEDDED
    thresholds = (profile.min_similarity, profile.min_margin)
    assert (loaded.min_similarity, loaded.min_margin) == thresholds
    d6 = render_scene([1, 2, 3, 4, 5, 6], kind="d6", seed=4)
    d6_examples = {die.value: [rectify_truth(d6.frame, die, 64)] for die in d6.dice}
    assert FaceProfile.learn(d6_examples, kind="d6").method == INKED


@pytest.mark.parametrize("way", ["close-up", "tray"])
def test_a_design_never_seen_taught_either_way_reads_its_trays(way, tmp_path):
    cv2.setNumThreads(1)
    design = PokerDesign.random(np.random.default_rng([SEED, 1]), KIND)
    write_teaching_photos(tmp_path, design, way, seed=SEED)
    profile = learn_from_dir(tmp_path, "poker")
    assert profile.method == EMBEDDED and profile.self_check() >= 0.8
    reader = DiceReader("poker", profile=profile)
    tally = Tally()
    for tray in range(TRAYS):
        read_tray(reader, design, SEED, tray, tally)
    figures = tally.figures()
    assert figures["dice_right"] >= RIGHT_AT_LEAST[way], figures
    assert figures["wrong"] <= WRONG_AT_MOST[way], figures


def test_training_data_can_be_of_one_kind_of_design_and_cut_to_any_side(tmp_path, monkeypatch):
    from vision.train import train_poker_embed

    drawn = []
    real_random = PokerDesign.random
    monkeypatch.setattr(
        PokerDesign, "random", lambda rng, kind=None: drawn.append(kind) or real_random(rng, kind)
    )
    out = tmp_path / "data.npz"
    train_poker_embed.make_data(2, out, minutes=10, kinds=("letters",), side=48)
    with np.load(out) as data:
        crops, classes = data["crops"], data["classes"]
    assert drawn == ["letters", "letters"]
    assert crops.shape[1:] == (48, 48, 3) and len(crops) == len(classes)
    assert set(classes) <= {train_poker_embed.NO_DIE, *range(12)}
