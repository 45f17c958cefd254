"""Finding dice in a frame: candidate top faces, each with a quad, and rectified crops of them.

A small learned net (`vision/read/_nets.py`, trained by `vision/train/train_reader.py`) paints a
heat-map of top-face centres with each face's side; its peaks become candidates. Each candidate's
turn comes from the edges around it, so its quad is a turned square on the top face. Side faces seen
in perspective, shadows and glare make no peaks: the net learned top-face centres only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read._nets import (
    FINDER_STRIDE,
    PIP_FINDER,
    Finder,
    crop_matrix,
    finder_input,
    halved,
    peaks,
    run_finder,
)
from vision.read.types import Die, DieCandidate

Roi = tuple[int, int, int, int]

# Heat a peak needs to become a candidate; the face net then drops candidates that are no die.
# Chosen on the development photos for the finder trained on all six sets: at 0.3, 31 phantom
# dice on their dice-free crops (game-board tokens); at 0.4, 20, for 2.6 points fewer board dice.
PEAK_THRESHOLD = 0.4
# Peaks closer than this many face sides are one die's. Touching dice's centres are a face apart,
# but the side the finder guesses runs large in crowded trays: at 0.7 it merged touching dice.
SAME_DIE = 0.5
# Two dice within this factor of each other's side are of one size (`of_a_size`): dice of one
# set in one frame.
SAME_SIZE = 1.3
PIP_SIZED = 0.45  # of a face's side: a peak this small at its place is a pip (see suppress_rivals)
# A top face smaller than this (in frame pixels) shows pips of 2 px or less: no reader can read
# it, and on real photos such peaks were marks and object edges. The smallest labelled face in
# the photo sets is 14 px (a board die); at 640x480 over a tray a 16 mm die is about 25 px.
MIN_FACE_PX = 12.0
# A face the finder's coarse look (at half the resolution) finds is taken as one too large for
# its usual look when its side is at least this many of the usual look's input pixels. Each
# look learned faces of 7-40 px, but guesses the sides of faces past about 32 px short (the
# coarse look gave 33 for faces of 43): at 36 px rendered close-ups were read 83.8% right, at 28
# 91.9%, at 24 no better and 1 ms slower a frame.
# (28 px of the 256 px input the measures were made at: a share of the input's longer side.)
LARGE_FACE_SHARE = 28.0 / 256.0
# The quarter look (the coarse look's input halved again) takes the faces past twice that: dice
# over about a quarter of the frame's shorter side, up to two thirds of it; the framed look (the
# whole view shrunk to FRAMED_VIEW px on a grey square twice that) the faces past three times
# that, up to a die that fills the view.
FRAMED_VIEW = 32


def check_frame(frame_bgr: np.ndarray) -> None:
    """Raise ValueError unless the frame is an HxWx3 uint8 image."""
    if not isinstance(frame_bgr, np.ndarray):
        raise ValueError(f"frame must be a numpy array, got {type(frame_bgr).__name__}")
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
        raise ValueError(
            f"frame must be HxWx3 uint8 BGR, got shape {frame_bgr.shape} dtype {frame_bgr.dtype}"
        )
    if min(frame_bgr.shape[:2]) < 16:
        raise ValueError(
            f"frame is too small to hold dice: {frame_bgr.shape[1]}x{frame_bgr.shape[0]}"
        )


def clip_roi(frame_shape: tuple[int, ...], roi: Roi | None) -> Roi:
    """The region of interest clipped to the frame; the whole frame when roi is None."""
    height, width = frame_shape[:2]
    if roi is None:
        return 0, 0, width, height
    if len(roi) != 4:
        raise ValueError(f"roi must be (x, y, w, h), got {roi!r}")
    x, y, w, h = (int(v) for v in roi)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(width, x + w), min(height, y + h)
    if x1 - x0 < 16 or y1 - y0 < 16:
        raise ValueError(f"roi {roi!r} leaves less than 16x16 pixels of a {width}x{height} frame")
    return x0, y0, x1 - x0, y1 - y0


def square_quad(center: tuple[float, float], size: float, angle_deg: float = 0.0) -> np.ndarray:
    """4x2 float32 corners of a square, clockwise from top-left before rotation."""
    half = size / 2.0
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float32)
    theta = np.deg2rad(angle_deg)
    rotation = np.array(
        [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], np.float32
    )
    return corners @ rotation.T + np.array(center, np.float32)


def candidate_angle(cand: DieCandidate) -> float:
    """The turn of the candidate's quad in degrees, from its top edge."""
    dx, dy = cand.quad[1] - cand.quad[0]
    return float(np.degrees(np.arctan2(dy, dx)))


_STARTING_AT = [np.array([(corner + start) % 4 for corner in range(4)]) for start in range(4)]


def order_clockwise(points: np.ndarray) -> np.ndarray:
    """Corners ordered clockwise (in image coordinates) starting from the top-left-most one."""
    points = np.asarray(points, np.float32).reshape(4, 2)
    offsets = points - points.sum(axis=0) * np.float32(0.25)  # from the centre
    points = points[np.argsort(np.arctan2(offsets[:, 1], offsets[:, 0]))]
    return points[_STARTING_AT[int(np.argmin(points.sum(axis=1)))]]


def rectify(frame_bgr: np.ndarray, cand: DieCandidate, size: int = 64) -> np.ndarray:
    """The candidate's top face warped to a size x size BGR square."""
    if size < 8:
        raise ValueError(f"rectified size must be at least 8 pixels, got {size}")
    target = np.array([[0, 0], [size - 1, 0], [size - 1, size - 1], [0, size - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(order_clockwise(cand.quad), target)
    return cv2.warpPerspective(
        frame_bgr, matrix, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def face_angle(view_bgr: np.ndarray, center: tuple[float, float], side: float) -> float:
    """The face's turn in degrees (0..90): the dominant edge direction around it, modulo 90.

    Gradient angles are quadrupled so that the four edges of a square agree, then averaged
    weighted by gradient strength; round pips add nothing in particular to any direction.
    """
    patch = cv2.warpAffine(view_bgr, crop_matrix(center, side * 1.1, 32), (32, 32))
    return edge_turn(patch) % 90.0


def edge_turn(patch_bgr: np.ndarray) -> float:
    """The patch's dominant edge direction modulo 90, in degrees (-45..45): gradient angles
    quadrupled, so that the four sides of a square agree, averaged by gradient strength."""
    gray = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1)
    # Each gradient g = gx + i*gy weighted by |g|^2 at four times its angle is g^4 / |g|^2:
    # products, where arctan2, cos and sin cost more than all the rest (same turn to 1e-4 deg).
    gxx, gyy = gx * gx, gy * gy
    double_real, double_imag = gxx - gyy, 2.0 * gx * gy  # g^2
    per_strength = 1.0 / np.maximum(gxx + gyy, np.float32(1e-30))
    total = complex(
        float(((double_real * double_real - double_imag * double_imag) * per_strength).sum()),
        float((2.0 * double_real * double_imag * per_strength).sum()),
    )
    return float(np.rad2deg(np.angle(total) / 4.0))


def suppress_close(
    found: list[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """Keep the strongest of peaks closer than SAME_DIE face apart: one die's two peaks (the
    centres of two dice, even touching and turned, are at least a face apart). A die still split
    in two is joined again by `pips.join_split_die`."""
    kept: list[tuple[float, float, float, float]] = []
    for x, y, side, score in sorted(found, key=lambda f: -f[3]):
        if all(math.hypot(x - kx, y - ky) > SAME_DIE * max(side, ks) for kx, ky, ks, _ in kept):
            kept.append((x, y, side, score))
    return kept


def side_near(heat: np.ndarray, sides: np.ndarray, x: int, y: int) -> float:
    """The face side around a peak: the side map averaged over its 3x3 cells, weighted by heat."""
    height, width = heat.shape
    x0, x1 = max(0, x - 1), min(width, x + 2)
    y0, y1 = max(0, y - 1), min(height, y + 2)
    weights = heat[y0:y1, x0:x1]
    return float((sides[y0:y1, x0:x1] * weights).sum() / max(float(weights.sum()), 1e-6))


@dataclass(frozen=True)
class HeatMap:
    """The finder's view of a frame: how much each spot looks like a top face's centre (0..1),
    the face side it guesses there, and where in the frame its cells lie."""

    heat: np.ndarray
    sides: np.ndarray
    scale: float  # finder input pixels per frame pixel
    view: Roi  # the part of the frame looked at (x, y, w, h): the region of interest
    image: np.ndarray  # the view as the finder saw it (shrunk)
    margin: tuple[int, int] = (0, 0)  # input pixels of grey left and above the view
    finder: Finder = PIP_FINDER  # the net that looked, and the input side it looks at

    def at(self, point: tuple[float, float]) -> float:
        """The strongest heat within a cell of a frame point (0 outside the view)."""
        x = ((point[0] - self.view[0]) * self.scale + self.margin[0]) / FINDER_STRIDE
        y = ((point[1] - self.view[1]) * self.scale + self.margin[1]) / FINDER_STRIDE
        height, width = self.heat.shape
        if not (0 <= x < width and 0 <= y < height):
            return 0.0
        column, row = int(x), int(y)
        window = self.heat[max(0, row - 1) : row + 2, max(0, column - 1) : column + 2]
        return float(window.max())


def look(frame_bgr: np.ndarray, roi: Roi | None = None, finder: Finder = PIP_FINDER) -> HeatMap:
    """The finder's heat-map of the frame (within the region of interest)."""
    check_frame(frame_bgr)
    view = clip_roi(frame_bgr.shape, roi)
    x0, y0, w, h = view
    image = finder_input(frame_bgr[y0 : y0 + h, x0 : x0 + w], finder.input_side)
    return heat_map_of(image, view, finder=finder)


def coarser_look(heat_map: HeatMap, look: str = "half") -> HeatMap:
    """The finder's heat-map of the same view at half (or a quarter of) the resolution, where
    faces too large for its usual look are the size it learned."""
    image = halved(heat_map.image)
    if look == "quarter":
        image = halved(image)
    return heat_map_of(image, heat_map.view, look, heat_map.finder)


def heat_map_of(
    finder_bgr: np.ndarray, view: Roi, look: str = "usual", finder: Finder = PIP_FINDER
) -> HeatMap:
    heat, sides = run_finder(finder_bgr, look, finder.model)
    scale = (finder_bgr.shape[1] / view[2] + finder_bgr.shape[0] / view[3]) / 2.0
    return HeatMap(heat, sides, scale, view, finder_bgr, finder=finder)


def framed_look(heat_map: HeatMap) -> HeatMap:
    """The finder's look at the whole view shrunk to FRAMED_VIEW pixels in the middle of a grey
    square twice that: a die filling the view (a close-up photo of one die) is then the size
    the finder learned, with room around it, as in its training's whole-photo samples."""
    quarter = halved(halved(heat_map.image))
    height, width = quarter.shape[:2]
    shrink = FRAMED_VIEW / max(height, width)
    size = (max(8, round(width * shrink)), max(8, round(height * shrink)))
    canvas = np.full((2 * FRAMED_VIEW, 2 * FRAMED_VIEW, 3), 128, np.uint8)
    margin = ((2 * FRAMED_VIEW - size[0]) // 2, (2 * FRAMED_VIEW - size[1]) // 2)
    small = cv2.resize(quarter, size, interpolation=cv2.INTER_AREA)
    canvas[margin[1] : margin[1] + size[1], margin[0] : margin[0] + size[0]] = small
    heat, sides = run_finder(canvas, "framed", heat_map.finder.model)
    view = heat_map.view
    scale = (size[0] / view[2] + size[1] / view[3]) / 2.0
    return HeatMap(heat, sides, scale, view, canvas, margin, heat_map.finder)


def find_large_faces(
    frame_bgr: np.ndarray,
    heat_map: HeatMap,
    threshold: float = PEAK_THRESHOLD,
) -> list[DieCandidate]:
    """Candidate top faces too large for the finder's usual look of `heat_map` (dice close to
    the camera), from its coarse looks, where they are the size it learned: the half look's
    faces past LARGE_FACE_SHARE of the usual input's longer side, the quarter look's past twice
    that and the framed look's past three times that (of two found at one place, the stronger).
    The six-set finder's framed look is taken beside the others (its coarse looks take a close
    die's pips for faces, and its framed look alone, tried only where they found nothing, missed
    9 of 10 one-die crops; the reading then keeps the surer); see `Finder.framed_beside`."""
    smallest = LARGE_FACE_SHARE * heat_map.finder.input_side / heat_map.scale
    found = candidates_in(frame_bgr, coarser_look(heat_map), threshold, smallest)
    found += candidates_in(frame_bgr, coarser_look(heat_map, "quarter"), threshold, 2 * smallest)
    if heat_map.finder.framed_beside or not found:
        found += candidates_in(frame_bgr, framed_look(heat_map), threshold, 3 * smallest)
    by_peak = {(*cand.center, cand.size, cand.score): cand for cand in found}
    kept = [by_peak[peak] for peak in suppress_rivals(list(by_peak))]
    return sorted(kept, key=lambda c: (c.center[0], c.center[1]))


def suppress_rivals(
    found: list[tuple[float, float, float, float]],
) -> list[tuple[float, float, float, float]]:
    """`suppress_close`, and besides its peaks each face it dropped only for stronger peaks at its
    place of at most PIP_SIZED times its side: its pips (or print); the reading decides which is
    a die. (A close die's pips peaked above its face in the half look, and the face was dropped:
    real dice zoomed to 60% of the frame read 47% right, 84% so. A face kept beside them drops
    nothing itself: weaker small peaks inside a stronger face dropped too were the faces of
    drawn dice inside the framed look's square of the whole frame.)"""
    kept = suppress_close(found)
    return kept + [
        (x, y, side, score)
        for x, y, side, score in found
        if (x, y, side, score) not in kept
        and all(
            math.hypot(x - ox, y - oy) > SAME_DIE * max(side, other) or other <= PIP_SIZED * side
            for ox, oy, other, stronger in found
            if stronger > score
        )
    ]


def find_dice(
    frame_bgr: np.ndarray,
    roi: Roi | None = None,
    threshold: float = PEAK_THRESHOLD,
    finder: Finder = PIP_FINDER,
) -> list[DieCandidate]:
    """Candidate dice (top faces) in the frame, in frame coordinates, left to right."""
    return candidates_in(frame_bgr, look(frame_bgr, roi, finder), threshold)


def candidates_in(
    frame_bgr: np.ndarray,
    heat_map: HeatMap,
    threshold: float = PEAK_THRESHOLD,
    min_side: float = MIN_FACE_PX,
) -> list[DieCandidate]:
    """The heat-map's peaks above threshold as candidate dice of at least `min_side` frame
    pixels, left to right."""
    heat, sides, scale = heat_map.heat, heat_map.sides, heat_map.scale
    x0, y0, w, h = heat_map.view
    view = frame_bgr[y0 : y0 + h, x0 : x0 + w]
    found = []
    mx, my = heat_map.margin
    for px, py, score in peaks(heat, threshold):
        side = side_near(heat, sides, int(px), int(py)) / scale
        found.append(
            ((px * FINDER_STRIDE - mx) / scale, (py * FINDER_STRIDE - my) / scale, side, score)
        )
    candidates = []
    for x, y, side, score in suppress_close(found):
        if side < max(min_side, MIN_FACE_PX):
            continue
        angle = face_angle(view, (x, y), side)
        center = (x + x0, y + y0)
        candidates.append(DieCandidate(center, square_quad(center, side, angle), side, score))
    return sorted(candidates, key=lambda c: (c.center[0], c.center[1]))


def split_by_heat(
    candidates: list[DieCandidate], threshold: float
) -> tuple[list[DieCandidate], list[DieCandidate]]:
    """Of the candidates `candidates_in` took at some threshold: those it takes at `threshold`
    (peaks are kept strongest first, so a weaker peak never dropped a stronger one), and the
    rest. Compared in float32, as the heat-map is."""
    firm = [np.float32(cand.score) > np.float32(threshold) for cand in candidates]
    return (
        [cand for cand, is_firm in zip(candidates, firm, strict=True) if is_firm],
        [cand for cand, is_firm in zip(candidates, firm, strict=True) if not is_firm],
    )


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance between two points (in plain floats: numpy's call costs more than the sum)."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def near(a: tuple[float, float], b: tuple[float, float], within: float) -> bool:
    """Whether two points are closer than `within`."""
    return distance(a, b) < within


def of_a_size(side: float, other: float) -> bool:
    """Two dice of about one size (within SAME_SIZE of each other's side)."""
    return abs(math.log(side / other)) < math.log(SAME_SIZE)


def as_candidate(die: Die) -> DieCandidate:
    """A die read, as the candidate square it was read on."""
    return DieCandidate(die.center, np.asarray(die.quad, np.float64), die.side, 0.0)


def beside(cand: DieCandidate, side_factor: float, distance: float) -> list[DieCandidate]:
    """Squares of side_factor times the candidate's side, turned as it is, moved `distance`
    times their side along each of its four directions."""
    angle = candidate_angle(cand)
    theta = np.deg2rad(angle)
    along = np.array([np.cos(theta), np.sin(theta)])
    across = np.array([-np.sin(theta), np.cos(theta)])
    side = side_factor * cand.size
    squares = []
    for step in (along, -along, across, -across):
        center = tuple(float(v) for v in np.add(cand.center, distance * side * step))
        squares.append(DieCandidate(center, square_quad(center, side, angle), side, cand.score))
    return squares


def resized(square: DieCandidate, factor: float, turned: float = 0.0) -> DieCandidate:
    """The square `factor` times its side about its centre, turned by `turned` degrees more."""
    angle = candidate_angle(square) + turned
    side = square.size * factor
    return DieCandidate(square.center, square_quad(square.center, side, angle), side, square.score)
