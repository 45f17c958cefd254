"""Faults in images and cameras (#22): odd files refused by name, cameras that change size."""

from __future__ import annotations

import json
import struct
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.feed import DiceFeed
from hardware.camera import Frame
from hardware.replay import ReplaySource
from tabletop.cli import main
from vision.read.imagefile import MAX_PIXELS, decode_image, load_image


def photo(width=320, height=240) -> np.ndarray:
    rng = np.random.default_rng(1)
    return cv2.GaussianBlur(rng.integers(0, 255, (height, width, 3)).astype(np.uint8), (5, 5), 2)


def encoded(suffix: str, image: np.ndarray | None = None) -> bytes:
    ok, data = cv2.imencode(suffix, photo() if image is None else image)
    assert ok
    return data.tobytes()


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def huge_png(side: int = 20000) -> bytes:
    """A valid PNG of side x side grey pixels that compresses to a few hundred KB."""
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * (side + 1) * 2000, 9)  # only the first rows: never decoded
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def test_a_huge_png_is_refused_from_its_header_without_decoding(tmp_path, monkeypatch):
    path = tmp_path / "bomb.png"
    path.write_bytes(huge_png())
    assert path.stat().st_size < 500_000

    def no_decoding(*args):
        raise AssertionError("decoded")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    with pytest.raises(ValueError, match="bomb.png: 20000x20000 pixels is more than the 50"):
        load_image(path)


def test_a_jpeg_with_bytes_after_its_end_marker_is_read(tmp_path):
    path = tmp_path / "trailing.jpg"
    path.write_bytes(encoded(".jpg") + b"\0thumbnail or padding" * 20)
    assert load_image(path).shape == (240, 320, 3)


def test_a_truncated_jpeg_with_an_end_marker_appended_is_refused(tmp_path):
    data = encoded(".jpg")
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) // 2] + b"\xff\xd9")
    with pytest.raises(ValueError, match="cut.jpg: image file is truncated"):
        load_image(path)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp", ".tiff"])
def test_each_format_reads_and_refuses_when_cut(tmp_path, suffix):
    data = encoded(suffix)
    assert decode_image(np.frombuffer(data, np.uint8), "x").shape == (240, 320, 3)
    cut = np.frombuffer(data[: len(data) // 3], np.uint8)
    with pytest.raises(ValueError, match="x: "):
        decode_image(cut, "x")


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp", ".tiff"])
def test_the_pixel_limit_holds_for_each_format(suffix):
    data = np.frombuffer(encoded(suffix), np.uint8)
    with pytest.raises(ValueError, match="more than"):
        decode_image(data, "x", max_pixels=320 * 240 - 1)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_are_an_image_or_a_value_error(data):
    try:
        decode_image(np.frombuffer(data, np.uint8), "x")
    except ValueError as error:
        assert str(error).startswith("x: ")


@settings(max_examples=100, deadline=None)
@given(cut=st.integers(min_value=0, max_value=10_000), junk=st.binary(max_size=40))
def test_damaged_real_images_never_raise_anything_else(cut, junk):
    data = encoded(".jpg" if cut % 2 else ".png")
    spoiled = data[: cut % len(data)] + junk + data[cut % len(data) + len(junk) :]
    try:
        decode_image(np.frombuffer(spoiled, np.uint8), "x")
    except ValueError:
        pass


def test_tabletop_read_goes_on_after_an_unreadable_file(tmp_path, capsys):
    good = tmp_path / "good.png"
    good.write_bytes(encoded(".png"))
    folder = tmp_path / "a-folder.png"
    folder.mkdir()
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(huge_png())
    data = encoded(".jpg")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2] + b"\xff\xd9")
    files = [folder, bomb, cut, good]
    assert main(["read", "--json", *map(str, files)]) == 1
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["image"] for r in results] == [str(f) for f in files]
    assert ["error" in r for r in results] == [True, True, True, False]


def test_replay_source_uses_the_same_checks(tmp_path):
    data = encoded(".jpg")
    (tmp_path / "1-cut.jpg").write_bytes(data[: len(data) // 2] + b"\xff\xd9")
    (tmp_path / "2-bomb.png").write_bytes(huge_png())
    (tmp_path / "3-good.jpg").write_bytes(data + b"trailing")
    source = ReplaySource(tmp_path)
    assert source._next_image().shape == (240, 320, 3)
    assert [p.name for p in source.skipped] == ["1-cut.jpg", "2-bomb.png"]


class ResizingCamera:
    """Gives frames of one size, then of another (a webcam reconnecting at another resolution)."""

    def __init__(self) -> None:
        self.count = 0

    def read(self, timeout: float = 0.0) -> Frame:
        self.count += 1
        width, height = (320, 240) if self.count <= 5 else (640, 480)
        image = np.full((height, width, 3), 90, np.uint8)
        return Frame(image, float(self.count), self.count)


def test_a_camera_whose_frame_size_changes_keeps_being_read():
    feed = DiceFeed(ResizingCamera(), settle_frames=2)
    for _ in range(15):
        events = feed.step("d6")
        assert events and events[0].image is not None
    assert feed.problem == ""
    assert feed.last_image.shape == (480, 640, 3)


def test_the_limit_is_documented():
    assert MAX_PIXELS == 50_000_000
