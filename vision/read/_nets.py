"""The reader's two small learned networks, run with OpenCV's dnn module (no torch at run time).

* finder.onnx: frame (longer side FINDER_INPUT px) -> heat-map of top-face centres at stride
  FINDER_STRIDE and the log of each face's side (in input pixels / 16).
* faces.onnx: a CLASSIFIER_INPUT-square crop around a face, CROP_CONTEXT times its side ->
  scores for not-a-die, 1, 2, 3, 4, 5, 6.
* faces48.onnx: the same from a SECOND_OPINION_INPUT-square crop, a second opinion asked only
  about the faces the first net is unsure of.
* faces_symbols.onnx: as faces.onnx, asked only whether a candidate no other net reads is a die.

Both are trained by `vision/train/train_reader.py` on the development split of the real photos.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

MODEL_DIR = Path(__file__).resolve().parents[1] / "models"
FINDER_INPUT = 320


@dataclass(frozen=True)
class Finder:
    """A finder net and the longer side, in pixels, of the input it looks at."""

    model: str
    input_side: int
    # Whether its framed look is taken beside the coarse looks (find.find_large_faces), or only
    # where they found nothing: beside them, the finder before the six-set one saw one large
    # face in two close dice and cut close-up teaching photos on their print.
    framed_beside: bool


# Pip dice are found by the finder trained on all six photo sets, at 320 px. Learned profiles
# (poker dice, taught sets) keep the finder before it, at 256 px: their reading and teaching
# were tuned with it, and the new one at 320 px cut close-up teaching photos on their print
# (a taught design's self-check 0.89 -> 0.44).
PIP_FINDER = Finder("finder.onnx", FINDER_INPUT, framed_beside=True)
PROFILE_FINDER = Finder("finder_profile.onnx", 256, framed_beside=False)
FINDER_STRIDE = 4
CLASSIFIER_INPUT = 32
SECOND_OPINION_INPUT = 48
CROP_CONTEXT = 1.25
# A 32 px face net that saw more rendered scenes, symbol dice among them (learned as dice of no
# readable value): it tells a symbol die from a board's token better than faces.onnx, but reads
# the boards' and marbled trays' pips worse, so it only counts dice the others do not read
# (`vision.read.unread`).
SYMBOL_NET = "faces_symbols.onnx"
NOT_A_DIE = 0


# OpenCV 5 has two dnn engines giving the same outputs (within 1e-5) at different speeds, one
# core, on the development machine: the face nets run faster in the classic one (five 32x32
# crops 1.5 ms instead of 1.9, five 48x48 1.9 instead of 4.1), the finder in the new one (2.9
# ms instead of 4.4 for a 256x192 frame). OpenCV 4 has only the classic engine.
ENGINES = {"finder.onnx": "ENGINE_NEW", "finder_profile.onnx": "ENGINE_NEW"}
# The finder's coarse looks (at half and at a quarter of the input size) each have a net of
# their own: a net given another input size than its last re-allocates (2.2 ms more a frame when
# two looks shared one), and at a quarter of the cells the classic engine is the faster (1.2 ms
# for 128x96).
COARSE_ENGINE = "ENGINE_CLASSIC"


# Unbounded: the keys are the few models times their engines and copies (ten in a pip and a
# poker reader's frames, more with the symbol net and a table's adaptation). A bound of eight
# reloaded nets on every other tray, each reload paying its first, allocating, run again.
@cache
def load_net(name: str, engine_name: str | None = None, copy: str = "") -> cv2.dnn.Net:
    """The named model, loaded into `engine_name` (by default the engine it runs fastest in);
    each `copy` name is a net of its own (one per input size it is given)."""
    path = MODEL_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"model file {path} is missing; run vision/train/train_reader.py")
    return read_net(path, engine_name or ENGINES.get(name, "ENGINE_CLASSIC"))


def read_net(path: Path, engine_name: str) -> cv2.dnn.Net:
    """The ONNX model at `path` in the named OpenCV dnn engine where this OpenCV has it (OpenCV 4
    has only the classic one), run by OpenCV itself."""
    engine = getattr(cv2.dnn, engine_name, None)
    if engine is None:
        net = cv2.dnn.readNetFromONNX(str(path))
    else:
        net = cv2.dnn.readNetFromONNX(str(path), engine)
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return net


def face_model_name(size: int) -> str:
    """The face net file that reads size-square crops."""
    return "faces.onnx" if size == CLASSIFIER_INPUT else f"faces{size}.onnx"


def to_blob(images: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """uint8 BGR image(s) -> float32 NCHW in -0.5..0.5, as the nets were trained."""
    batch = np.asarray(images if isinstance(images, list) else [images])
    # Reordered before the conversion to float: moving bytes is six times faster than floats
    # (0.12 ms instead of 0.77 for the finder's 256x192 input).
    planes = np.ascontiguousarray(batch.transpose(0, 3, 1, 2)).astype(np.float32)
    return planes * np.float32(1.0 / 255.0) - np.float32(0.5)


def finder_scale(width: int, height: int, longer_side: int = FINDER_INPUT) -> float:
    return longer_side / float(max(width, height))


def shrink(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """The image averaged down to width x height: by a whole factor first, where it is at least
    two (OpenCV's area averaging is about three times faster for whole factors: 0.5 ms instead
    of 1.5 ms for 640x480 to 256x192), then the rest of the way."""
    factor = int(min(image.shape[1] / width, image.shape[0] / height))
    if factor >= 2:
        size = (image.shape[1] // factor, image.shape[0] // factor)
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)


def finder_input(view_bgr: np.ndarray, longer_side: int = FINDER_INPUT) -> np.ndarray:
    """The view shrunk for the finder: its longer side about `longer_side` pixels, both sides
    whole multiples of 8 (the finder's layers halve it three times)."""
    height, width = view_bgr.shape[:2]
    scale = finder_scale(width, height, longer_side)
    return shrink(view_bgr, multiple_of_8(width * scale), multiple_of_8(height * scale))


def halved(finder_bgr: np.ndarray) -> np.ndarray:
    """The finder's input at half the size, for its coarse look (from the usual input: averaging
    2x2 pixels costs a tenth of shrinking the frame again)."""
    height, width = finder_bgr.shape[:2]
    size = (multiple_of_8(width / 2), multiple_of_8(height / 2))
    return cv2.resize(finder_bgr, size, interpolation=cv2.INTER_AREA)


def multiple_of_8(length: float) -> int:
    return max(FINDER_STRIDE * 4, int(round(length / 8.0)) * 8)


def run_finder(
    finder_bgr: np.ndarray, look: str = "usual", model: str = PIP_FINDER.model
) -> tuple[np.ndarray, np.ndarray]:
    """Heat-map (0..1) and face side map (input pixels) for the finder's input; each of the
    finder's looks (usual, half, quarter, framed) has a net of its own."""
    if look == "usual":
        net = load_net(model)
    else:
        net = load_net(model, COARSE_ENGINE, look)
    net.setInput(to_blob(finder_bgr))
    output = net.forward()[0]
    heat = 1.0 / (1.0 + np.exp(-output[0]))
    sides = np.exp(output[1]) * 16.0
    return heat, sides


def peaks(heat: np.ndarray, threshold: float) -> list[tuple[float, float, float]]:
    """Local maxima above threshold: (x, y) in heat-map cells, refined to sub-cell, and height."""
    local_max = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= local_max) & (heat > threshold))
    # Each peak's 3x3 window (N x 3 x 3), and the centre of the heat in it.
    steps = np.arange(3)
    windows = np.pad(heat, 1)[ys[:, None, None] + steps[:, None], xs[:, None, None] + steps]
    totals = windows.sum(axis=(1, 2)).astype(np.float64)
    dy = (windows.sum(axis=2) * _OFFSETS).sum(axis=1) / totals
    dx = (windows.sum(axis=1) * _OFFSETS).sum(axis=1) / totals
    return [
        (float(x + 0.5 + ddx), float(y + 0.5 + ddy), float(heat[y, x]))
        for x, y, ddx, ddy in zip(xs, ys, dx, dy, strict=True)
    ]


_OFFSETS = np.array([-1, 0, 1])


def classify_crops(
    crops: list[np.ndarray], size: int = CLASSIFIER_INPUT, model: str | None = None
) -> np.ndarray:
    """Softmax probabilities (N x 7: not-a-die, 1..6) for size-square BGR crops, from the face
    net of that size (or the named `model`, which reads crops of that size)."""
    if not crops:
        return np.zeros((0, 7), np.float32)
    net = load_net(model or face_model_name(size))
    net.setInput(to_blob(crops))
    logits = net.forward().reshape(len(crops), -1)
    logits = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    return exp / exp.sum(axis=1, keepdims=True)


def crop_matrix(
    center: tuple[float, float], side: float, out: int, angle: float = 0.0, flip: bool = False
) -> np.ndarray:
    """2x3 affine matrix taking a square of `side` around `center`, turned by `angle` degrees,
    onto an out x out image (mirrored left-right when flip)."""
    matrix = cv2.getRotationMatrix2D((float(center[0]), float(center[1])), angle, out / side)
    matrix[:, 2] += out / 2.0 - np.array(center, np.float64)
    if flip:
        matrix = np.array([[-1, 0, out], [0, 1, 0]], np.float64) @ np.vstack([matrix, [0, 0, 1]])
    return matrix


def crop_face(
    image: np.ndarray,
    center: tuple[float, float],
    side: float,
    angle: float = 0.0,
    flip: bool = False,
    size: int = CLASSIFIER_INPUT,
    scale: tuple[float, float] = (1.0, 1.0),
) -> np.ndarray:
    """A face net's input: a size-square crop around a face, with CROP_CONTEXT margin. With a
    `scale`, the crop is of the image as if first enlarged that much along x and y (center and
    side are then in the enlarged image's pixels): a frame stretched out of shape, read square."""
    context = side * CROP_CONTEXT
    matrix = crop_matrix(center, context, size, angle, flip)
    if scale != (1.0, 1.0):
        matrix = matrix @ np.diag([scale[0], scale[1], 1.0])
    return cv2.warpAffine(
        image,
        matrix,
        (size, size),
        flags=cv2.INTER_AREA if context > 2 * size else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT101,
    )
