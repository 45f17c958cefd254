"""The poker-face embedding: a cut-out top face -> a unit vector, close for crops of the same face
of the same dice set and far for other faces, whatever the set's print (trained on many random
rendered designs by `vision/train/train_poker_embed.py`; vision/models/poker_embed.onnx, run through
cv2.dnn). A profile keeps the embeddings of its taught examples; reading is the nearest example.

    embedder = FaceEmbedder.shipped()          # None when the model file is missing
    vectors = embedder.embed(crops_bgr)         # N x EMBED, unit length
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.read._nets import read_net

MODEL = Path(__file__).resolve().parents[1] / "models" / "poker_embed.onnx"
INPUT = 32  # px: the net's input side (as vision/train/train_poker_embed.py trained it)
QUARTER_TURNS = 4


class FaceEmbedder:
    """Crops (any square size, BGR uint8) -> unit embeddings, all of a call in one batch."""

    def __init__(self, path: Path) -> None:
        # OpenCV 5's classic engine runs this net a quarter faster than its new one (six crops
        # 1.85 ms against 2.47, one core), to within 4e-7.
        self.net = read_net(path, "ENGINE_CLASSIC")

    @staticmethod
    def shipped() -> FaceEmbedder | None:
        return _shipped(MODEL, MODEL.stat().st_mtime_ns) if MODEL.is_file() else None

    def embed(self, crops_bgr: Sequence[np.ndarray]) -> np.ndarray:
        if not len(crops_bgr):
            return np.zeros((0, 0), np.float32)
        small = [_shrunk(crop) for crop in crops_bgr]
        self.net.setInput(cv2.dnn.blobFromImages(small, 1.0 / 255.0))
        vectors = self.net.forward().reshape(len(small), -1).astype(np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-6)

    def embed_turned(self, crops_bgr: Sequence[np.ndarray]) -> np.ndarray:
        """N x QUARTER_TURNS x EMBED: each crop at its four quarter turns (a crop is cut upright
        only to within a quarter turn)."""
        small = [_shrunk(crop) for crop in crops_bgr]
        turned = [np.ascontiguousarray(np.rot90(s, k)) for s in small for k in range(QUARTER_TURNS)]
        vectors = self.embed(turned)
        return vectors.reshape(len(small), QUARTER_TURNS, -1)


def _shrunk(crop: np.ndarray) -> np.ndarray:
    if crop.shape[:2] == (INPUT, INPUT):
        return crop
    return cv2.resize(crop, (INPUT, INPUT), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=2)
def _shipped(path: Path, mtime_ns: int) -> FaceEmbedder:
    """`mtime_ns` is part of the cache key only: a model replaced on disk is loaded again."""
    return FaceEmbedder(path)
