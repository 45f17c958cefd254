"""`tabletop learn --kind poker --out PROFILE DIR`: learn a dice set from a few photos per face.

DIR holds one folder per face (`9 10 J Q K A` for poker dice, `1`..`6` for d6), each with one or
more photos of a die showing that face. With `--rendered N` the profile is learned from N of the
project's own rendered dice per face instead (how the shipped poker profile is made).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.profiles.profile import FaceProfile


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "learn",
        help="learn a set of dice (poker or unusual d6) from photos of each face",
        description="Learns what each face of a dice set looks like from DIR/<face>/ photos and "
        "writes one profile file for `tabletop read --profile` and the companion.",
    )
    parser.add_argument("--kind", choices=("d6", "poker"), required=True, help="kind of dice")
    parser.add_argument("--out", type=Path, required=True, help="profile file to write (.npz)")
    parser.add_argument(
        "--rendered",
        type=int,
        metavar="N",
        help="learn from N rendered dice per face instead of DIR",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for --rendered (default 0)")
    parser.add_argument(
        "--check",
        type=int,
        metavar="N",
        help="then read N new rendered dice of the kind and print the accuracy",
    )
    parser.add_argument(
        "--check-error",
        type=float,
        default=0.0,
        metavar="E",
        help="with --check: spoil each die's outline by E (0.05: 5%% of its side) as a finder may",
    )
    parser.add_argument(
        "--check-trays",
        action="store_true",
        help="with --check: read whole rendered trays with the reader (finder, then the profile)",
    )
    parser.add_argument("directory", nargs="?", type=Path, metavar="DIR")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from vision.profiles.profile_learning import learn_from_dir

    if (args.directory is None) == (args.rendered is None):
        print("tabletop learn: give either DIR or --rendered N", file=sys.stderr)
        return 2
    for option in ("rendered", "check"):
        if getattr(args, option) is not None and getattr(args, option) < 1:
            print(f"tabletop learn: --{option} needs N >= 1", file=sys.stderr)
            return 2
    if not args.out.parent.is_dir():
        print(f"tabletop learn: {args.out.parent}: no such directory for --out", file=sys.stderr)
        return 2
    try:
        if args.rendered is not None:
            # rendered dice are a development aid: the Pi, taught from photos, never loads them
            from vision.train.profile_check import learn_rendered

            profile = learn_rendered(args.kind, args.rendered, args.seed)
        else:
            profile = learn_from_dir(args.directory, args.kind)
    except ValueError as error:
        print(f"tabletop learn: {error}", file=sys.stderr)
        return 1
    for note in profile.notes:
        print(f"note: {note}")
    photos = profile.photos()
    print(
        f"learned {profile.kind} faces from {sum(photos.values())} photos "
        f"({sum(profile.counts().values())} examples): "
        + ", ".join(f"{face}: {n}" for face, n in photos.items())
    )
    print(self_check_said(profile))
    path = profile.save(args.out)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KB)")
    if args.check:
        from vision.train.profile_check import check_rendered

        check = check_rendered(
            profile, args.check, quad_error=args.check_error, whole_trays=args.check_trays
        )
        refusal = "unreadable or not found" if args.check_trays else "unreadable"
        print(
            f"check on {check.dice} new rendered dice: {check.accuracy:.1%} right, "
            f"{check.refused} refused ({refusal}), {check.wrong} wrong"
        )
    return 0


def self_check_said(profile: FaceProfile) -> str:
    """The self-check as a player reads it: how many examples the other photos read right, how
    many as another face (faces not told apart: the ones that matter) and how many unreadable."""
    misread = profile.self_check_misreads()
    if misread is None:
        return "self-check: needs 2+ photos per face (each is read by the others)"
    examples = sum(profile.counts().values())
    confused = [(face, value) for face, value in misread if value is not None]
    line = (
        f"self-check (each example read by the other photos'): "
        f"{profile.share_read_right(misread):.1%} right, "
        f"{len(confused) / examples:.1%} read as another face, "
        f"{(len(misread) - len(confused)) / examples:.1%} unreadable"
    )
    if misread:
        line += f"\nself-check misread: {misreads_said(misread)}; retake those faces' photos"
        line += " if trays of them read badly (faces read as another are told apart poorly)"
    return line


def misreads_said(misread: list[tuple[object, object | None]]) -> str:
    """The self-check's misreads, each kind once with how often: "9 as unreadable ×8, 10 as J"."""
    said = []
    for (face, value), times in Counter(misread).items():
        read = "unreadable" if value is None else value
        said.append(f"{face} as {read}" + (f" ×{times}" if times > 1 else ""))
    return ", ".join(said)
