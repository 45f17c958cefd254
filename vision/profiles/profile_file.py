"""A face profile's one small .npz file: its fields written, and read back checked.

The file holds the example crops (N x CROP x CROP x 3), each one's face and photo (source)
number, the dice kind, the thresholds and the method they were chosen for. Anything else, a
damaged zip, a missing field or crops of the wrong shape, is refused with a ValueError naming
the file.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.profiles.ink_maps import CROP
from vision.read.types import Face, face_key

FORMAT = 1
INKED = "ink"  # the method of files written before profiles had one
NEEDED = frozenset({"format", "kind", "faces", "crops", "thresholds"})


@dataclass(frozen=True)
class Stored:
    """What a profile file holds."""

    kind: str
    examples: dict[Face, list[np.ndarray]]
    sources: dict[Face, list[int]]  # the photo number of each example, per face
    thresholds: tuple[float, float]  # min similarity, min margin
    method: str


def write(path: Path, stored: Stored) -> Path:
    faces = [str(f) for f, crops in stored.examples.items() for _ in crops]
    crops = np.stack([c for examples in stored.examples.values() for c in examples])
    sources = [n for f in stored.examples for n in stored.sources[f]]
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        format=np.array(FORMAT),
        kind=np.array(stored.kind),
        faces=np.array(faces),
        crops=crops,
        thresholds=np.array(stored.thresholds),
        method=np.array(stored.method),
        sources=np.array(sources),
    )
    path.write_bytes(buffer.getvalue())
    return path


def read(path: Path) -> Stored:
    if not path.is_file():
        raise ValueError(f"{path}: no such profile file")
    if not zipfile.is_zipfile(path):  # else numpy offers to unpickle it, which means nothing here
        raise ValueError(f"{path}: not a face profile (not an .npz file)")
    try:
        with np.load(path, allow_pickle=False) as data:
            fields = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path}: not a face profile (unreadable .npz: {error})") from error
    if not NEEDED <= fields.keys():
        raise ValueError(f"{path}: not a face profile (missing {sorted(NEEDED - fields.keys())})")
    if int(fields["format"]) != FORMAT:
        raise ValueError(f"{path}: profile format {int(fields['format'])}, expected {FORMAT}")
    crops, faces = fields["crops"], fields["faces"]
    if crops.ndim != 4 or crops.shape[1:] != (CROP, CROP, 3) or len(crops) != len(faces):
        raise ValueError(f"{path}: damaged profile (crops {crops.shape}, {len(faces)} labels)")
    try:
        return _stored(fields)
    except ValueError as error:
        raise ValueError(f"{path}: damaged profile: {error}") from error


def _stored(fields: dict[str, np.ndarray]) -> Stored:
    kind = str(fields["kind"])
    faces = fields["faces"]
    numbers = fields.get("sources", np.arange(len(faces)))  # older files: one photo each
    examples: dict[Face, list[np.ndarray]] = {}
    sources: dict[Face, list[int]] = {}
    for face, crop, source in zip(faces, fields["crops"], numbers, strict=True):
        key = face_key(kind, str(face))
        examples.setdefault(key, []).append(crop.astype(np.uint8))
        sources.setdefault(key, []).append(int(source))
    similarity, margin = (float(v) for v in fields["thresholds"])
    method = str(fields.get("method", INKED))
    return Stored(kind, examples, sources, (similarity, margin), method)
