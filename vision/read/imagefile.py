"""Image files from disk, checked before they cost memory: size from the header, damage by decoding.

A file is refused, with a ValueError naming it, when it is missing or empty, when its header
says it holds more than MAX_PIXELS pixels (read from the header: a 430 KB PNG can claim
20000x20000 pixels, 1.2 GB once decoded, enough to kill a Pi), when its format is not one of
PNG, JPEG, BMP, WebP, GIF or TIFF, or when it does not decode cleanly. A JPEG is decoded once
strictly (libjpeg-turbo's warnings are errors, via simplejpeg) so a file cut short is found even
when an end marker was appended to it; bytes after the end marker are accepted, as every viewer
does.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

# 50 megapixels: a 48 MP phone photo still loads (150 MB as BGR); a Pi camera gives 12 MP.
MAX_PIXELS = 50_000_000


def load_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """A BGR image from disk; ValueError naming the file when it cannot or should not be read."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such image file")
    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as error:
        raise ValueError(f"{path}: cannot be read ({error.strerror or error})") from None
    return decode_image(data, str(path), max_pixels)


def decode_image(data: np.ndarray, name: str, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """`load_image` for bytes already read; `name` is how errors call them."""
    if data.size == 0:
        raise ValueError(f"{name}: empty file, not an image")
    head = data[:64].tobytes()
    try:
        width, height = header_size(data.tobytes() if is_tiff(head) else head, data)
    except (struct.error, IndexError, ValueError):
        raise ValueError(f"{name}: not a readable image (damaged header)") from None
    if width <= 0 or height <= 0:
        raise ValueError(f"{name}: not a readable image ({width}x{height} in its header)")
    if width * height > max_pixels:
        raise ValueError(
            f"{name}: {width}x{height} pixels is more than the {max_pixels // 1_000_000} "
            "megapixels an image may have"
        )
    if head.startswith(b"\xff\xd8"):
        check_jpeg(data, name)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error as error:
        raise ValueError(f"{name}: not a readable image ({str(error).strip()[:80]})") from None
    if image is None:
        raise ValueError(f"{name}: not a readable image (damaged or truncated)")
    return image


def header_size(head: bytes, data: np.ndarray) -> tuple[int, int]:
    """Width and height as the file's header states them; ValueError for another format."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    if head.startswith(b"\xff\xd8"):
        return jpeg_size(data)
    if head.startswith(b"BM"):
        width, height = struct.unpack("<ii", head[18:26])
        return width, abs(height)
    if head.startswith((b"GIF87a", b"GIF89a")):
        return struct.unpack("<HH", head[6:10])
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return webp_size(head)
    if is_tiff(head):
        return tiff_size(head)
    raise ValueError("unknown image format")


def jpeg_size(data: np.ndarray) -> tuple[int, int]:
    import simplejpeg

    height, width, _, _ = simplejpeg.decode_jpeg_header(data.tobytes())
    return width, height


def check_jpeg(data: np.ndarray, name: str) -> None:
    """Decode the whole JPEG strictly (at 1/8 scale: the entropy data is still all read)."""
    import simplejpeg

    try:
        simplejpeg.decode_jpeg(
            data.tobytes(), colorspace="GRAY", strict=True, min_height=1, min_width=1, min_factor=8
        )
    except ValueError as error:
        words = str(error).lower()
        if "premature" in words or "corrupt" in words or "truncat" in words:
            raise ValueError(f"{name}: image file is truncated or damaged ({error})") from None
        # Other refusals (a colour space libjpeg-turbo's fast path lacks) are left to OpenCV.


def webp_size(head: bytes) -> tuple[int, int]:
    kind = head[12:16]
    if kind == b"VP8X":
        width = int.from_bytes(head[24:27], "little") + 1
        return width, int.from_bytes(head[27:30], "little") + 1
    if kind == b"VP8L":
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 ":
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF
    raise ValueError("unknown WebP chunk")


def is_tiff(head: bytes) -> bool:
    return head.startswith((b"II*\0", b"MM\0*"))


def tiff_size(data: bytes) -> tuple[int, int]:
    """ImageWidth (256) and ImageLength (257) of the first image directory."""
    order = "<" if data[:2] == b"II" else ">"
    (offset,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[offset : offset + 2])
    found: dict[int, int] = {}
    for number in range(count):
        entry = data[offset + 2 + 12 * number : offset + 14 + 12 * number]
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):
            fmt = order + ("H" if kind == 3 else "I")
            found[tag] = struct.unpack(fmt, entry[8 : 8 + struct.calcsize(fmt)])[0]
    return found[256], found[257]
