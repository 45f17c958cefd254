"""Replay a recording as a camera: a folder of images (in name order) or a video file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from hardware.camera import PlaybackSource, SourceEnded

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


def image_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


class ReplaySource(PlaybackSource):
    """Frames from disk. `loop` starts again at the end, else the source ends.

    A corrupt, truncated, oversized or unreadable image is skipped with a warning. With
    `fps=None` each read returns the next frame (stepped); with an fps a thread plays it in real
    time, dropping late frames.
    """

    def __init__(
        self,
        path: str | Path,
        loop: bool = False,
        fps: float | None = None,
        stepped: bool = False,
    ) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise ValueError(f"replay path does not exist: {self.path}")
        self._files: list[Path] = []
        if self.path.is_dir():
            self._files = image_files(self.path)
            if not self._files:
                kinds = ", ".join(sorted(IMAGE_SUFFIXES))
                raise ValueError(f"replay folder has no images ({kinds}): {self.path}")
        super().__init__(f"replay {self.path.name}", fps, stepped)
        self.loop = loop
        self._position = 0
        self._played = 0
        self._video: Any | None = None
        self.skipped: list[Path] = []

    def _next_image(self) -> np.ndarray:
        image = self._next_from_folder() if self._files else self._next_from_video()
        self._played += 1
        return image

    def _next_from_folder(self) -> np.ndarray:
        from vision.read.imagefile import load_image

        for _ in range(2 * len(self._files)):  # one full pass at most (plus a wrap) per call
            if self._position >= len(self._files):
                if not self.loop or len(self.skipped) >= len(self._files):
                    raise SourceEnded(self._ended_message())
                self._position = 0
            path = self._files[self._position]
            self._position += 1
            try:  # the same checks as `tabletop read`: size from the header, truncation
                return load_image(path)
            except ValueError as error:
                if path not in self.skipped:
                    self.skipped.append(path)
                    log.warning("replay: skipping %s", error)
        raise SourceEnded(self._ended_message())

    def _next_from_video(self) -> np.ndarray:
        for _ in range(2):  # at the end of the file, reopen once when looping
            if self._video is None:
                self._video = self._open_video()
            ok, image = self._video.read()
            if ok and image is not None:
                return image
            self._close()
            if not self.loop:
                break
        raise SourceEnded(self._ended_message())

    def _open_video(self) -> Any:
        import cv2

        video = cv2.VideoCapture(str(self.path))
        if not video.isOpened():
            raise SourceEnded(f"Replay cannot open the video {self.path}")
        return video

    def _ended_message(self) -> str:
        return f"Replay ended after {self._played} frames from {self.path}"

    def _close(self) -> None:
        video, self._video = self._video, None
        if video is not None:
            video.release()
