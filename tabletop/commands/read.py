"""`tabletop read IMAGE...`: read the dice in photos, one line per image.

With --json each line is `{"image", "dice": [{"value", "center", "confidence", "sure"}],
"unreadable", "ms"}` (readable dice only under "dice"; d6 values are ints, poker values strings;
`confidence` is the chance the value is right, `sure` whether it reaches the line: a die not sure
is a best guess to be settled by a touch), or
`{"image", "error"}` for a file that is missing, not an image or truncated. The other files are
still read; the exit status is 1 when any file failed.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def parse_roi(text: str) -> tuple[int, int, int, int]:
    """ "x,y,w,h" in pixels, w and h positive."""
    parts = text.split(",")
    try:
        x, y, w, h = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--roi is x,y,w,h in whole pixels, not {text!r}"
        ) from None
    if w <= 0 or h <= 0 or x < 0 or y < 0:
        raise argparse.ArgumentTypeError(f"--roi needs x, y >= 0 and w, h > 0, not {text!r}")
    return x, y, w, h


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "read",
        help="read the dice in photos (pip d6 or poker dice)",
        description="Reads every die in each image. Exit status 1 when any image could not be "
        "read (missing, not an image, truncated); the others are still read.",
    )
    parser.add_argument(
        "--kind",
        choices=("d6", "poker"),
        help="kind of dice (default: the profile's kind, else d6)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="a face profile learned with `tabletop learn` (default for poker: the shipped one)",
    )
    parser.add_argument("--roi", type=parse_roi, help="only look inside x,y,w,h (pixels)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from vision.profiles.profile import FaceProfile
    from vision.reader import DiceReader

    try:
        profile = FaceProfile.load(args.profile) if args.profile else None
        kind = args.kind or (profile.kind if profile else "d6")
        if profile is not None and profile.kind != kind:
            raise ValueError(f"{args.profile} is a {profile.kind} profile, not {kind}")
        reader = DiceReader(kind=kind, profile=profile, roi=args.roi)
    except ValueError as error:
        print(f"tabletop read: {error}", file=sys.stderr)
        return 2
    failed = 0
    for image in args.images:
        result = read_one(reader, image)
        failed += "error" in result
        print(json.dumps(result) if args.json else summary(result), flush=True)
    return 1 if failed else 0


def read_one(reader: Any, image: Path) -> dict[str, Any]:
    """The JSON-ready result for one image, or its error."""
    from vision.reader import load_image

    try:
        reading = reader.read(load_image(image))
    except ValueError as error:
        return {"image": str(image), "error": str(error)}
    except Exception as error:  # one file's trouble (memory, a reader bug) never stops the rest
        log.warning("read %s failed", image, exc_info=True)
        detail = str(error).splitlines()[0] if str(error) else ""
        return {"image": str(image), "error": f"cannot read dice: {type(error).__name__} {detail}"}
    dice = [
        {
            "value": die.value,
            "center": [round(die.center[0], 1), round(die.center[1], 1)],
            "confidence": round(die.confidence, 3),
            "sure": die.sure,
        }
        for die in reading.dice
        if die.value is not None
    ]
    return {
        "image": str(image),
        "dice": dice,
        "unreadable": reading.unreadable,
        "ms": round(reading.ms, 1),
    }


def summary(result: dict[str, Any]) -> str:
    """One human line: the values read, left to right (an unsure one followed by "?"), and what
    could not be read."""
    if "error" in result:
        image = result["image"]
        return f"{image}: ERROR {result['error'].removeprefix(f'{image}: ')}"
    values = " ".join(f"{d['value']}{'' if d['sure'] else '?'}" for d in result["dice"]) or "-"
    count = len(result["dice"])
    line = f"{result['image']}: {count} {'die' if count == 1 else 'dice'}: {values}"
    if result["unreadable"]:
        line += f" ({result['unreadable']} unreadable)"
    return f"{line}  [{result['ms']:.0f} ms]"
