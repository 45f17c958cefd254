"""Colour augmentation shared by the finder's and the face net's samples."""

from __future__ import annotations

import cv2
import numpy as np


def jitter_colours(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Hue rotation, saturation, brightness, contrast, sometimes inverted, blurred, noisy."""
    if rng.random() < 0.6:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.4), 0, 255)
        image = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        image = 255 - image
    image = image.astype(np.float32)
    image = (image - 128.0) * rng.uniform(0.6, 1.3) + 128.0 + rng.uniform(-40, 40)
    image *= rng.uniform(0.85, 1.15, size=3).astype(np.float32)
    if rng.random() < 0.3:
        sigma = rng.uniform(0.3, 1.2)
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.3:
        image += rng.normal(0, rng.uniform(2, 8), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)
