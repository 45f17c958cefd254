"""Drawing pieces of a rendered tray: the surface, die bodies, shadows, distractors, camera effects.

Kept apart from `vision.synth.render` (which lays out scenes and rolls) so each file stays readable.
All functions draw into float32 BGR images in 0..255.
"""

from __future__ import annotations

import cv2
import numpy as np

SURFACES: dict[str, tuple[int, int, int]] = {
    "light": (205, 212, 215),
    "dark": (48, 42, 40),
    "wood": (60, 110, 160),
    "felt": (60, 120, 40),
}

DIE_COLORS: dict[str, tuple[int, int, int]] = {
    "white": (238, 240, 240),
    "ivory": (205, 232, 243),
    "red": (40, 40, 190),
    "black": (38, 36, 36),
    "blue": (170, 80, 30),
    "green": (60, 140, 40),
}

SKIN = (130, 165, 215)


def surface(name: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """The tray surface: a uniform colour with its own texture (wood grain, felt fibre)."""
    if name not in SURFACES:
        raise ValueError(f"surface is one of {tuple(SURFACES)}, not {name!r}")
    width, height = size
    base = np.array(SURFACES[name], np.float32) * rng.uniform(0.9, 1.1)
    image = np.empty((height, width, 3), np.float32)
    image[:] = base
    if name == "wood":
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        angle = rng.uniform(-0.3, 0.3)
        along = ys * np.cos(angle) + xs * np.sin(angle)
        warp = 6 * np.sin(xs / rng.uniform(40, 90) + rng.uniform(0, 6))
        grain = 0.5 + 0.5 * np.sin((along + warp) / rng.uniform(3, 7))
        image *= (0.88 + 0.16 * grain)[..., None]
    elif name == "felt":
        fibre = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 1.2)
        image *= (1 + 0.06 * fibre)[..., None]
    else:
        blotch = smooth_noise((height, width), 120, rng)
        image *= (1 + 0.012 * blotch)[..., None]
    return image


def smooth_noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> np.ndarray:
    """Zero-mean noise varying over about `scale` pixels, roughly in -1..1."""
    height, width = shape
    coarse = rng.normal(0, 1, (max(2, int(height / scale) + 2), max(2, int(width / scale) + 2)))
    return cv2.resize(coarse.astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)


def die_body(color: str, finish: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """The plain body of one face texture: opaque colour, marbled swirls, or translucent tint."""
    if color not in DIE_COLORS:
        raise ValueError(f"die colour is one of {tuple(DIE_COLORS)}, not {color!r}")
    base = np.array(DIE_COLORS[color], np.float32)
    body = np.empty((size, size, 3), np.float32)
    body[:] = base
    if finish == "marbled":
        swirl = np.sin(4 * smooth_noise((size, size), size / 3, rng) + rng.uniform(0, 6))
        veins = np.clip(np.abs(swirl), 0, 1) ** 3
        other = 255 - base * 0.6 if base.mean() < 128 else base * 0.55
        body = body * (1 - veins[..., None] * 0.45) + other * veins[..., None] * 0.45
    elif finish not in ("opaque", "translucent"):
        raise ValueError(f"finish is opaque, marbled or translucent, not {finish!r}")
    return body


def composite(
    image: np.ndarray, layer: np.ndarray, alpha: np.ndarray, origin: tuple[int, int]
) -> None:
    """Blend `layer` (h x w x 3) over `image` at `origin` with `alpha` (h x w, 0..1), clipped."""
    x0, y0 = origin
    height, width = alpha.shape
    ix0, iy0 = max(x0, 0), max(y0, 0)
    ix1, iy1 = min(x0 + width, image.shape[1]), min(y0 + height, image.shape[0])
    if ix1 <= ix0 or iy1 <= iy0:
        return
    region = image[iy0:iy1, ix0:ix1]
    a = alpha[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0, None]
    region[:] = region * (1 - a) + layer[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0] * a


def warp_onto(
    image: np.ndarray, texture: np.ndarray, alpha: np.ndarray, corners: np.ndarray
) -> None:
    """Warp a square texture (with alpha) onto the quad `corners` (TL, TR, BR, BL) of `image`."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    side = texture.shape[0]
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    matrix = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    box = (int(x1 - x0), int(y1 - y0))
    layer = cv2.warpPerspective(texture, matrix, box, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(alpha, matrix, box, flags=cv2.INTER_LINEAR)
    composite(image, layer, mask, (int(x0), int(y0)))


def _polygon_mask(
    shape: tuple[int, ...], points: np.ndarray, margin: int = 1
) -> tuple[np.ndarray, tuple[int, int]]:
    """An anti-aliased 0..1 mask of the polygon in its bounding box (plus `margin`), and the box's
    top-left corner in the image (drawing in the box alone keeps small shapes cheap)."""
    x0, y0 = np.floor(points.min(axis=0)).astype(int) - margin
    x1, y1 = np.ceil(points.max(axis=0)).astype(int) + margin + 1
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    x1, y1 = min(int(x1), shape[1]), min(int(y1), shape[0])
    mask = np.zeros((max(y1 - y0, 1), max(x1 - x0, 1)), np.uint8)
    shifted = np.round((points - [x0, y0]) * 16).astype(np.int32)
    cv2.fillPoly(mask, [shifted], 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32) / 255, (x0, y0)


def fill_polygon(
    image: np.ndarray, points: np.ndarray, color: tuple[float, ...], opacity: float = 1.0
) -> None:
    """Fill a polygon, anti-aliased, blending with `opacity`."""
    alpha, origin = _polygon_mask(image.shape, points)
    layer = np.empty((*alpha.shape, 3), np.float32)
    layer[:] = color
    composite(image, layer, alpha * opacity, origin)


def shadow(image: np.ndarray, footprint: np.ndarray, offset: np.ndarray, strength: float) -> None:
    """Darken the table under and beside a die: its footprint shifted away from the light."""
    hull = cv2.convexHull(np.vstack([footprint, footprint + offset]).astype(np.float32))
    mask, (x0, y0) = _polygon_mask(image.shape, hull.reshape(-1, 2), margin=10)
    soft = cv2.GaussianBlur(mask, (0, 0), 3)
    region = image[y0 : y0 + soft.shape[0], x0 : x0 + soft.shape[1]]
    region *= (1 - strength * soft)[: region.shape[0], : region.shape[1], None]


def glare(image: np.ndarray, centre: tuple[float, float], radius: float, strength: float) -> None:
    """A specular highlight: a soft white blob."""
    height, width = image.shape[:2]
    ys, xs = np.ogrid[0:height, 0:width]
    dist2 = ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (radius**2)
    blob = np.exp(-dist2 * 2).astype(np.float32) * strength
    image[:] = image * (1 - blob[..., None]) + 255 * blob[..., None]


def coin(image: np.ndarray, centre: tuple[float, float], radius: float, gold: bool) -> None:
    color = (60, 170, 210) if gold else (170, 170, 165)
    cx, cy = (int(round(v * 16)) for v in centre)
    r = int(round(radius * 16))
    cv2.circle(image, (cx, cy), r, tuple(c * 0.7 for c in color), -1, cv2.LINE_AA, 4)
    cv2.circle(image, (cx, cy), int(r * 0.86), color, -1, cv2.LINE_AA, 4)
    cv2.circle(image, (cx, cy), int(r * 0.5), tuple(c * 0.85 for c in color), 2, cv2.LINE_AA, 4)


def pencil(
    image: np.ndarray, centre: tuple[float, float], length: float, width: float, angle: float
) -> None:
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    c = np.array(centre)
    back, front = c - direction * length / 2, c + direction * length * 0.38
    tip = c + direction * length / 2
    body = np.array(
        [
            back + normal * width / 2,
            front + normal * width / 2,
            front - normal * width / 2,
            back - normal * width / 2,
        ]
    )
    fill_polygon(image, body, (40, 200, 235))
    fill_polygon(
        image,
        np.array([front + normal * width / 2, tip, front - normal * width / 2]),
        (140, 185, 220),
    )
    lead = front + direction * length * 0.09
    fill_polygon(
        image, np.array([lead + normal * width / 6, tip, lead - normal * width / 6]), (50, 50, 50)
    )


def hand(image: np.ndarray, wrist: tuple[float, float], angle: float, scale: float) -> None:
    """A flat hand reaching in from `wrist` towards `angle`: palm, four fingers and a thumb."""
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    w = np.array(wrist)
    arm = np.array(
        [
            w - direction * scale * 3 + normal * scale * 0.45,
            w + normal * scale * 0.5,
            w - normal * scale * 0.5,
            w - direction * scale * 3 - normal * scale * 0.45,
        ]
    )
    fill_polygon(image, arm, SKIN)
    palm = w + direction * scale * 0.7
    cv2.ellipse(
        image,
        tuple(int(v) for v in palm),
        (int(scale * 0.8), int(scale * 0.62)),
        float(np.degrees(angle)),
        0,
        360,
        SKIN,
        -1,
        cv2.LINE_AA,
    )
    for i, spread in enumerate((-0.45, -0.15, 0.15, 0.45)):
        base = palm + direction * scale * 0.55 + normal * spread * scale
        length = scale * (0.85 if i in (1, 2) else 0.7)
        _finger(image, base, base + direction * length, scale * 0.26)
    thumb_base = palm + normal * scale * 0.6
    _finger(image, thumb_base, thumb_base + (direction + normal) * scale * 0.45, scale * 0.28)


def _finger(image: np.ndarray, base: np.ndarray, tip: np.ndarray, width: float) -> None:
    start, end = tuple(int(v) for v in base), tuple(int(v) for v in tip)
    cv2.line(image, start, end, SKIN, int(width), cv2.LINE_AA)


def camera_effects(
    image: np.ndarray,
    *,
    gradient: float,
    gradient_angle: float,
    blur: float,
    noise: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Uneven lighting, lens blur and sensor noise; returns the final uint8 BGR frame."""
    height, width = image.shape[:2]
    across = (np.arange(width, dtype=np.float32) - width / 2) * np.cos(gradient_angle)
    down = (np.arange(height, dtype=np.float32) - height / 2) * np.sin(gradient_angle)
    light = 1 + gradient * (down[:, None] + across[None, :]) / max(width, height)
    image = image * light[..., None]
    if blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if noise > 0:
        image += rng.standard_normal(image.shape, dtype=np.float32) * noise
    return np.clip(image, 0, 255).astype(np.uint8)
