"""The table's examples: every die of a confirmed roll, kept so the reader can adapt to this
table's dice under this table's light (vision/profiles/adapt.py).

Kept in the state directory, in `examples/`: `examples.npz` holds the examples folded in so
far, and each confirmed roll first lands in a small file of its own in `examples/new/` (written
whole or not at all: a temporary file, flushed to disk, then renamed), so a roll confirmed is
on disk before the next, whatever stops the program. Every COMPACT_AFTER rolls they are folded
into `examples.npz` (written the same way; a roll folded in but whose file a crash kept is
recognised by its id). Bounded: PER_FACE examples per kind and face, the corrected ones (a
player changed the reader's value: the most valuable) first, up to half of them, then the
newest. A damaged file is set aside (renamed `*.damaged`) with one line in `problems`; the
other files' examples stay.
"""

from __future__ import annotations

import io
import os
import time
import uuid
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FOLDER = "examples"
FOLDED = "examples.npz"
NEW = "new"
PER_FACE = 30
COMPACT_AFTER = 10
FORMAT = 1
SIDE = 64  # vision.profiles.adapt.EXAMPLE_SIDE (kept here too: reading the store needs no vision)
FIELDS = ("format", "crops", "kinds", "values", "corrected", "at", "ids")
KINDS = {"d6": ("1", "2", "3", "4", "5", "6"), "poker": ("9", "10", "J", "Q", "K", "A")}


class ExamplesError(Exception):
    """A file to import that is not a table's examples, or an export that cannot be written."""


@dataclass(frozen=True)
class StoredExample:
    crop: np.ndarray  # SIDE x SIDE x 3 BGR uint8
    kind: str
    value: str
    corrected: bool
    at: float  # seconds since the epoch, when confirmed
    id: str


class ExampleStore:
    """One table's examples, in `state_dir/examples/`."""

    def __init__(self, state_dir: str | Path) -> None:
        self.root = Path(state_dir) / FOLDER
        self.problems: list[str] = []

    # ----- writing --------------------------------------------------------------------------

    def add_roll(
        self,
        kind: str,
        crops: Sequence[np.ndarray],
        values: Sequence[str],
        corrected: Sequence[bool],
    ) -> int:
        """Keep the dice of one confirmed roll; the number kept (0 for none)."""
        if kind not in KINDS:
            raise ValueError(f"kind is one of {tuple(KINDS)}, not {kind!r}")
        now = time.time()
        rows = [  # a microsecond apart: the dice keep their order in the roll
            StoredExample(_checked_crop(crop), kind, str(value), bool(fixed), now + i * 1e-6,
                          uuid4())
            for i, (crop, value, fixed) in enumerate(zip(crops, values, corrected, strict=True))
            if str(value) in KINDS[kind]
        ]  # fmt: skip
        if not rows:
            return 0
        folder = self.root / NEW
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(folder / f"{time.time_ns()}-{rows[0].id[:8]}.npz", packed(rows))
        if len(list(folder.glob("*.npz"))) >= COMPACT_AFTER:
            self.compact()
        return len(rows)

    def compact(self) -> None:
        """Fold the new rolls into examples.npz (bounded), then remove their files."""
        new_files = sorted((self.root / NEW).glob("*.npz"))
        rows = self.all()
        self.root.mkdir(parents=True, exist_ok=True)
        write_whole(self.root / FOLDED, packed(rows))
        for path in new_files:
            path.unlink(missing_ok=True)
        for left in (*self.root.glob(".*.tmp"), *(self.root / NEW).glob(".*.tmp")):
            left.unlink(missing_ok=True)  # a write a crash cut short: never renamed, never read

    def reset(self, kind: str | None = None) -> int:
        """Forget the examples (of one kind, or all); the number forgotten."""
        rows = self.all()
        kept = [row for row in rows if kind is not None and row.kind != kind]
        self.root.mkdir(parents=True, exist_ok=True)
        write_whole(self.root / FOLDED, packed(kept))
        for path in (self.root / NEW).glob("*.npz"):
            path.unlink(missing_ok=True)
        return len(rows) - len(kept)

    def export(self, path: str | Path) -> int:
        """Write every example to one file (to carry to another table); the number written."""
        rows = self.all()
        try:
            write_whole(Path(path), packed(rows))
        except OSError as error:
            raise ExamplesError(f"{path}: cannot write ({error.strerror or error})") from error
        return len(rows)

    def import_file(self, path: str | Path) -> int:
        """Add the examples of a file `export` wrote (bounded as always); the number new here."""
        incoming = read_examples(Path(path))
        known = {row.id for row in self.all()}
        fresh = [row for row in incoming if row.id not in known]
        rows = bounded(self.all() + fresh)
        self.root.mkdir(parents=True, exist_ok=True)
        write_whole(self.root / FOLDED, packed(rows))
        for new_file in (self.root / NEW).glob("*.npz"):
            new_file.unlink(missing_ok=True)
        kept = {row.id for row in rows}
        return sum(1 for row in fresh if row.id in kept)

    # ----- reading --------------------------------------------------------------------------

    def all(self) -> list[StoredExample]:
        """Every example kept, oldest first (bounded); damaged files set aside."""
        rows: dict[str, StoredExample] = {}
        files = [self.root / FOLDED, *sorted((self.root / NEW).glob("*.npz"))]
        for path in files:
            if not path.is_file():
                continue
            try:
                found = read_examples(path)
            except ExamplesError as error:
                if path.is_file():  # else folded in and removed meanwhile: nothing lost
                    self.set_aside(path, error)
                continue
            rows.update((row.id, row) for row in found)
        return bounded(list(rows.values()))

    def of_kind(self, kind: str) -> list[StoredExample]:
        return [row for row in self.all() if row.kind == kind]

    def counts(self) -> dict[str, dict[str, tuple[int, int]]]:
        """{kind: {face: (examples, of them corrected)}}."""
        rows = self.all()
        return {
            kind: {
                face: (
                    sum(1 for r in rows if r.kind == kind and r.value == face),
                    sum(1 for r in rows if r.kind == kind and r.value == face and r.corrected),
                )
                for face in faces
            }
            for kind, faces in KINDS.items()
        }

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.root.rglob("*.npz") if p.is_file())

    def set_aside(self, path: Path, error: Exception) -> None:
        aside = path.with_name(f"{path.name}.{time.time_ns()}.damaged")
        try:
            path.rename(aside)
            line = f"examples: {path.name} was damaged ({error}); set aside as {aside.name}"
        except OSError:
            line = f"examples: {path.name} is damaged ({error}) and could not be set aside"
        self.problems.append(line)


# ----- the file format ----------------------------------------------------------------------


def uuid4() -> str:
    return uuid.uuid4().hex


def _checked_crop(crop: np.ndarray) -> np.ndarray:
    crop = np.asarray(crop)
    if crop.shape != (SIDE, SIDE, 3):
        raise ValueError(f"an example crop is {SIDE}x{SIDE}x3, not {crop.shape}")
    return crop.astype(np.uint8)


def bounded(rows: list[StoredExample]) -> list[StoredExample]:
    """At most PER_FACE a kind and face: corrected ones newest first up to half of them, then
    the newest of the rest; oldest first."""
    kept: list[StoredExample] = []
    for kind, faces in KINDS.items():
        for face in faces:
            group = sorted((r for r in rows if r.kind == kind and r.value == face),
                           key=lambda r: -r.at)  # fmt: skip
            chosen = [r for r in group if r.corrected][: PER_FACE // 2]
            ids = {r.id for r in chosen}
            chosen += [r for r in group if r.id not in ids][: PER_FACE - len(chosen)]
            kept += chosen
    return sorted(kept, key=lambda r: (r.at, r.id))


def packed(rows: list[StoredExample]) -> bytes:
    buffer = io.BytesIO()
    crops = np.stack([r.crop for r in rows]) if rows else np.zeros((0, SIDE, SIDE, 3), np.uint8)
    np.savez_compressed(
        buffer,
        format=np.array(FORMAT),
        crops=crops,
        kinds=np.array([r.kind for r in rows], dtype="U5"),
        values=np.array([r.value for r in rows], dtype="U2"),
        corrected=np.array([r.corrected for r in rows], dtype=bool),
        at=np.array([r.at for r in rows], dtype=np.float64),
        ids=np.array([r.id for r in rows], dtype="U32"),
    )
    return buffer.getvalue()


def read_examples(path: Path) -> list[StoredExample]:
    """The examples in one file; ExamplesError saying what is wrong with it otherwise."""
    try:
        with np.load(path, allow_pickle=False) as data:
            fields = {name: data[name] for name in data.files}
    except FileNotFoundError as error:
        raise ExamplesError(f"{path}: no such file") from error
    except IsADirectoryError as error:
        raise ExamplesError(f"{path}: a directory, not a table's examples file") from error
    except (ValueError, EOFError, zipfile.BadZipFile) as error:
        raise ExamplesError(
            f"{path}: not a table's examples file (not an archive `tabletop examples export` "
            "writes, or cut short)"
        ) from error
    except OSError as error:
        raise ExamplesError(f"{path}: cannot read it ({error.strerror or error})") from error
    missing = [name for name in FIELDS if name not in fields]
    if missing:
        raise ExamplesError(f"{path}: not a table's examples file (no {', '.join(missing)})")
    if int(fields["format"]) != FORMAT:
        raise ExamplesError(f"{path}: examples format {int(fields['format'])}, expected {FORMAT}")
    crops = fields["crops"]
    count = len(crops)
    if crops.shape[1:] != (SIDE, SIDE, 3) or crops.dtype != np.uint8:
        raise ExamplesError(f"{path}: damaged examples (crops {crops.shape} {crops.dtype})")
    if any(len(fields[name]) != count for name in FIELDS[2:]):
        raise ExamplesError(f"{path}: damaged examples (columns of different lengths)")
    rows = []
    for crop, kind, value, fixed, at, row_id in zip(
        crops, *(fields[name] for name in FIELDS[2:]), strict=True
    ):
        kind, value = str(kind), str(value)
        if value not in KINDS.get(kind, ()):
            raise ExamplesError(f"{path}: damaged examples ({kind!r} die showing {value!r})")
        rows.append(StoredExample(crop, kind, value, bool(fixed), float(at), str(row_id)))
    return rows


def write_whole(path: Path, data: bytes) -> None:
    """Write the file whole or not at all: a temporary file beside it, flushed to the disk,
    renamed over it, and the folder flushed (the rename itself survives a power cut)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


# ----- the reader's adaptation --------------------------------------------------------------


class TableAdaptation:
    """The adaptation each kind of dice is read with, rebuilt from the store when its examples
    changed (between rolls: it costs a pass of the examples through a net) and kept only when
    its held-out check passes (vision.profiles.adapt.checked_adaptation)."""

    def __init__(self, store: ExampleStore) -> None:
        self.store = store
        self.current: dict[str, object] = {}  # kind -> adaptation (None: read as shipped)
        self.reasons: dict[str, str] = {}
        self._seen: dict[str, tuple] = {}

    def signature(self) -> tuple:
        """Changes whenever examples are folded (every COMPACT_AFTER rolls), reset or imported:
        a rebuild takes seconds on the reading thread (3.0 s for 180 d6 examples on the busy
        development machine), so not after every roll."""
        folded = self.store.root / FOLDED
        return (folded.stat().st_mtime_ns,) if folded.is_file() else ()

    def stale(self, kind: str, base_profile: object = None) -> bool:
        return self._seen.get(kind) != (self.signature(), id(base_profile))

    def update(self, kind: str, base_profile: object = None) -> object:
        """The adaptation to read `kind` with now (`base_profile`: the profile poker dice are
        read with when not adapted)."""
        from vision.profiles import adapt

        stamp = (self.signature(), id(base_profile))
        if self._seen.get(kind) == stamp:
            return self.current.get(kind)
        if self._seen.get(kind, ((), None))[1] != id(base_profile):
            self.current[kind] = None  # another profile: adaptations of the old one are void
        examples = [
            adapt.Example(row.crop, int(row.value) if kind == "d6" else row.value, row.corrected)
            for row in self.store.of_kind(kind)
        ]
        current = self.current.get(kind)
        if base_profile is not None:
            outcome = adapt.checked_adaptation(
                examples, adapt.adapted_profile(base_profile), adapt.profile_reads,
                current or base_profile,
            )  # fmt: skip
            adaptation = None if outcome.adaptation is base_profile else outcome.adaptation
        else:
            outcome = adapt.checked_pip_adaptation(examples, current)
            adaptation = outcome.adaptation
        if len(examples) < adapt.MIN_EXAMPLES:
            adaptation = None  # forgotten (reset), or too few yet: read as shipped
        self.current[kind], self.reasons[kind] = adaptation, outcome.reason
        self._seen[kind] = stamp
        return adaptation
