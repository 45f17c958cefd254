"""Fitting a candidate's top-face square to the die's own edges, where the finder's is rough.

The finder guesses a face's side from a small heat-map; on big-faced dice (poker dice) it can be
a third too small, and a crop cut on that square shows only part of the face. Here the square is
grown, shrunk, moved and turned to the place where all four of its sides lie on strong edges
across them: the outline of the top face against the surface, its sides or a neighbouring die.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.find import candidate_angle, square_quad
from vision.read.types import DieCandidate

SCALES = np.linspace(0.75, 1.6, 12)  # of the finder's side
SHIFTS = np.linspace(-0.1, 0.1, 3)  # of the finder's side, along x and along y
TURNS = np.arange(-45.0, 45.0, 7.5)  # degrees: the finder's turn of a face can be anything
POINTS_PER_SIDE = 8
# The print on a face can make a smaller square of strong edges than the die's own outline, so the
# largest square scoring this near the best one is taken. (At 0.85 a white K on a light tray was
# fitted to its print, which scored 120 to the outline's 92. Chosen on 360 rendered poker trays
# not in the bench, where 0.75 read 99.35% of dice and 0.85 99.02%, measured with OpenCV 4.14
# before the two-start climb; the bench was the same for both.)
NEAR_BEST = 0.75
FIT_SIDE = 48.0  # px: a larger face is fitted on its surroundings shrunk to this size
COARSE_BLUR = 0.04  # of the finder's side: the coarse search's edge blur
FINE_PX = (-2.0, -1.0, 0.0, 1.0, 2.0)  # side and centre steps of the fine search, in pixels
FINE_TURNS = (-3.0, -1.5, 0.0, 1.5, 3.0)
FINE_ROUNDS = 4
# A fitted square must hold edges this much stronger than the finder's square to replace it,
# and its weakest sides edges this many times the patch's median gradient (bare tray: ~1-2).
BETTER_BY = 1.15
ABOVE_MEDIAN = 4.0


def edge_maps(
    frame_bgr: np.ndarray, cand: DieCandidate, blur: float = 1.0
) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Gradients (x and y, strongest colour channel) of the frame around the candidate, blurred
    by `blur` pixels, and the patch's top-left corner in the frame."""
    reach = int(np.ceil(cand.size * SCALES[-1] * 0.85 + 4))
    cx, cy = (int(round(v)) for v in cand.center)
    height, width = frame_bgr.shape[:2]
    x0, y0 = max(0, cx - reach), max(0, cy - reach)
    x1, y1 = min(width, cx + reach + 1), min(height, cy + reach + 1)
    patch = cv2.GaussianBlur(frame_bgr[y0:y1, x0:x1], (0, 0), blur).astype(np.float32)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1)
    power = gx * gx + gy * gy
    # The strongest channel, the first of equals (np.argmax's choice, two times slower with
    # np.take_along_axis). In doubles: `grid_scores` weighs them by doubles, a third faster than
    # turning each point's float into a double as it goes.
    second = power[..., 1] > power[..., 0]
    third = power[..., 2] > np.where(second, power[..., 1], power[..., 0])
    gx, gy = (
        np.where(third, g[..., 2], np.where(second, g[..., 1], g[..., 0])).astype(np.float64)
        for g in (gx, gy)
    )
    return gx, gy, (x0, y0)


def unit_square_samples() -> tuple[np.ndarray, np.ndarray]:
    """Points along the sides of a unit square centred on 0 (4*POINTS_PER_SIDE x 2) and each
    point's outward normal."""
    steps = (np.arange(POINTS_PER_SIDE) + 0.5) / POINTS_PER_SIDE - 0.5
    half = np.full_like(steps, 0.5)
    points = np.concatenate(
        [
            np.stack(pair, axis=1)
            for pair in ((steps, -half), (half, steps), (-steps, half), (-half, -steps))
        ]
    )
    normals = np.repeat(
        np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], np.float64), POINTS_PER_SIDE, axis=0
    )
    return points, normals


def grid_scores(
    gx: np.ndarray,
    gy: np.ndarray,
    sides: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    angles: np.ndarray,
) -> np.ndarray:
    """For every square of a grid (each of `sides` at each centre x of `xs` and y of `ys` in patch
    pixels, at each of `angles` in degrees), the mean of the two weakest sides' edge strength
    across them: a square half on a die scores low. Sides x xs x ys x angles.

    A point's x depends on its square's side, centre x and turn only, its y likewise: each is
    worked out once for the squares sharing them, not once per square (a third of the coarse
    search's time)."""
    theta = np.deg2rad(angles)
    cos, sin = np.cos(theta), np.sin(theta)
    along_x = (_POINTS_X * cos - _POINTS_Y * sin)[:, None, None, :]  # points, 1, 1, angles
    along_y = (_POINTS_X * sin + _POINTS_Y * cos)[:, None, None, :]
    height, width = gx.shape
    side = sides[None, :, None, None]
    px = xs[None, None, :, None] + side * along_x  # points x sides x xs x angles
    py = ys[None, None, :, None] + side * along_y  # points x sides x ys x angles
    column = np.clip(np.rint(px).astype(np.intp), 0, width - 1)
    row = np.clip(np.rint(py).astype(np.intp), 0, height - 1)
    grid = (len(sides), len(xs), len(ys), len(angles))
    # Laid out points x squares, so that every sum runs across all the squares at once (numpy
    # is slow along a short last axis).
    at = ((row * width)[:, :, None] + column[:, :, :, None]).reshape(4, POINTS_PER_SIDE, -1)
    # Each side's normal is the same all along it and for every square of a turn.
    normals = [
        np.broadcast_to(normal[:, None, None, None, :], (4, *grid)).reshape(4, 1, -1)
        for normal in (_NORMALS_X * cos - _NORMALS_Y * sin, _NORMALS_X * sin + _NORMALS_Y * cos)
    ]
    across = np.abs(gx.ravel().take(at) * normals[0] + gy.ravel().take(at) * normals[1])
    return two_weakest_mean(*across.mean(axis=1)).reshape(grid)


def square_score(
    gx: np.ndarray, gy: np.ndarray, center: np.ndarray, side: float, angle: float
) -> float:
    """`grid_scores` of one square."""
    one = [np.array([value]) for value in (side, center[0], center[1], angle)]
    return float(grid_scores(gx, gy, *one).ravel()[0])


def two_weakest_mean(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Elementwise, the mean of the two smallest of four arrays."""
    low_ab, high_ab = np.minimum(a, b), np.maximum(a, b)
    low_cd, high_cd = np.minimum(c, d), np.maximum(c, d)
    weakest = np.minimum(low_ab, low_cd)
    second = np.minimum(np.maximum(low_ab, low_cd), np.minimum(high_ab, high_cd))
    return (weakest + second) / 2.0


_POINTS, _NORMALS = unit_square_samples()
_POINTS_X, _POINTS_Y = (_POINTS[:, axis, None] for axis in (0, 1))
_NORMALS_X, _NORMALS_Y = (_NORMALS[::POINTS_PER_SIDE, axis, None] for axis in (0, 1))


def fit_outline(frame_bgr: np.ndarray, cand: DieCandidate) -> DieCandidate:
    """The candidate with its square fitted to the die's edges, or unchanged when no square
    sits clearly better on edges than the finder's own. A face larger than FIT_SIDE is fitted
    on the frame around it shrunk to that size: the search's steps are pixels, and the edges of
    a large face, blurred in proportion, cost its area for no better a fit."""
    shrink = FIT_SIDE / cand.size
    if shrink >= 1.0:
        return fit_at_size(frame_bgr, cand)
    reach = int(np.ceil(cand.size * SCALES[-1] * 0.85 + 4 / shrink))
    cx, cy = (int(round(v)) for v in cand.center)
    height, width = frame_bgr.shape[:2]
    x0, y0 = max(0, cx - reach), max(0, cy - reach)
    region = frame_bgr[y0 : min(height, cy + reach + 1), x0 : min(width, cx + reach + 1)]
    size = (max(1, round(region.shape[1] * shrink)), max(1, round(region.shape[0] * shrink)))
    small = cv2.resize(region, size, interpolation=cv2.INTER_AREA)
    scale = np.array([size[0] / region.shape[1], size[1] / region.shape[0]])
    local = moved(cand, -np.array([x0, y0]) * scale, scale)
    fitted = fit_at_size(small, local)
    if fitted is local:
        return cand
    return moved(fitted, np.array([x0, y0]), 1.0 / scale)


def moved(cand: DieCandidate, offset: np.ndarray, scale: np.ndarray) -> DieCandidate:
    """The candidate scaled about the frame's origin (x and y apart), then moved by offset."""
    quad = np.asarray(cand.quad, np.float64) * scale + offset
    center = tuple(float(v) for v in np.asarray(cand.center) * scale + offset)
    return DieCandidate(center, quad, float(cand.size * scale.mean()), cand.score)


def fit_at_size(frame_bgr: np.ndarray, cand: DieCandidate) -> DieCandidate:
    """`fit_outline` at the frame's own size.

    A coarse search on edges blurred in proportion to the die (so a square a pixel or two off
    still feels its edges), then a pixel-fine climb on sharper edges from two of its squares: the
    best, and the largest near it (the die's outline around a face's print). Of the two climbed,
    the largest that ends near the better is taken."""
    angle = candidate_angle(cand)
    gx, gy, origin = edge_maps(frame_bgr, cand, blur=max(1.0, COARSE_BLUR * cand.size))
    centre = np.subtract(cand.center, origin)
    axes = (cand.size * SCALES, centre[0] + cand.size * SHIFTS, centre[1] + cand.size * SHIFTS)
    scores = grid_scores(gx, gy, *axes, angle + TURNS)
    sides = np.broadcast_to(axes[0][:, None, None, None], scores.shape).ravel()
    flat = scores.ravel()
    largest = int(np.argmax(np.where(flat >= NEAR_BEST * flat.max(), sides, 0.0)))
    gx, gy, origin = edge_maps(frame_bgr, cand)
    starts = (np.unravel_index(k, scores.shape) for k in {int(np.argmax(flat)), largest})
    climbed = [
        climb(gx, gy, np.array([axes[1][x], axes[2][y]]), axes[0][s], angle + TURNS[t])
        for s, x, y, t in starts
    ]
    top = max(score for score, _ in climbed)
    score, (center, side, turn) = max(
        (c for c in climbed if c[0] >= NEAR_BEST * top), key=lambda c: c[1][1]
    )
    start = square_score(gx, gy, centre, cand.size, angle)
    floor = ABOVE_MEDIAN * float(np.median(np.hypot(gx, gy, dtype=np.float32)))
    if score < max(start * BETTER_BY, floor):
        return cand
    center = (float(center[0] + origin[0]), float(center[1] + origin[1]))
    return DieCandidate(center, square_quad(center, side, turn), side, cand.score)


_FINE_STEPS = np.array(FINE_PX)
_FINE_TURNS = np.array(FINE_TURNS)
_UNMOVED = (FINE_PX.index(0.0),) * 3 + (FINE_TURNS.index(0.0),)


def climb(
    gx: np.ndarray, gy: np.ndarray, center: np.ndarray, side: float, angle: float
) -> tuple[float, tuple[np.ndarray, float, float]]:
    """Hill-climb a square a few pixels and degrees at a time while a neighbour scores better:
    (its score, (centre, side, angle)). Each round scores the square and all its neighbours."""
    score = 0.0
    for _ in range(FINE_ROUNDS):
        xs, ys = center[0] + _FINE_STEPS, center[1] + _FINE_STEPS
        sides, angles = side + _FINE_STEPS, angle + _FINE_TURNS
        scores = grid_scores(gx, gy, sides, xs, ys, angles)
        best = np.unravel_index(np.argmax(scores), scores.shape)
        s, x, y, t = best
        center, side, angle = np.array([xs[x], ys[y]]), float(sides[s]), float(angles[t])
        score = float(scores[best])
        if best == _UNMOVED:
            break
    return score, (center, side, angle)
