"""Train the dice reader's two small networks on the real photos, export them to ONNX.

    .venv/bin/pip install torch onnx        # training only; the product runs them with cv2.dnn
    .venv/bin/python -m vision.train.train_reader --shared ../shared
    .venv/bin/python -m vision.train.train_reader --shared ../shared --only face --face-input 48

* the finder: a fully convolutional net that turns a frame (longer side FINDER_INPUT pixels) into
  a heat-map of top-face centres at stride 4, plus the log of each face's side;
* the face net: a 32x32 crop around a found centre -> not-a-die or 1..6; with --face-input 48,
  the second-opinion net, the same from a 48x48 crop.

Only the development split of the photos is used (`vision.train._photos.is_held_out` keeps 30%
back). Augmentation makes up for the small set: any scale, rotation and flip, hue rotation (dice
come in every colour), inverted colours (light pips on dark dice), blur, noise, brightness. The face
net's negatives are crops beside real dice (side faces, half dice, gaps between dice) and
crops of bare surface. Reproduces the shipped models in ~15 min on two CPU cores.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from vision.read._nets import CLASSIFIER_INPUT, MODEL_DIR, face_model_name
from vision.train._photos import labelled_folders
from vision.train.export import export, sharpen
from vision.train.finder_samples import FINDER_PATCH
from vision.train.fitting import HARD_SHARE, PEAK_LR, train_face_net, train_finder
from vision.train.nets import finder_net
from vision.train.photos import (
    BARE_VIEW,
    SYMBOL_SHARE,
    bare_views,
    load_photos,
    mine_negatives,
    rendered_photos,
)
from vision.train.teacher import TEACHER_SETS, load_teacher


def parse_set_weight(item: str) -> tuple[str, float]:
    """SET=FACTOR, for argparse: a bad item is one line naming it."""
    name, _, factor = item.partition("=")
    try:
        weight = float(factor)
    except ValueError:
        weight = -1.0
    if not name or weight < 0:
        raise argparse.ArgumentTypeError(f"expected SET=FACTOR (a number >= 0), not {item!r}")
    return name, weight


def set_names(text: str) -> frozenset[str]:
    """A comma-separated list of photo set names, for argparse."""
    return frozenset(filter(None, text.split(",")))


def unknown_set_names(args: argparse.Namespace, known: set[str]) -> list[str]:
    """The set names given to --upright-sets, --face-set-weight and (with a --teacher)
    --teacher-sets that are not among `known` (a misspelt name would silently change nothing)."""
    named = args.upright_sets | {name for name, _ in args.face_set_weight}
    if args.teacher:
        named |= args.teacher_sets
    return sorted(named - known)


def labelled_set_names(shared: Path) -> set[str]:
    """The photo sets train_reader can draw from: shared/dice-photos' labelled sets and the
    rendered scenes."""
    folders = labelled_folders(shared) if (shared / "dice-photos").is_dir() else []
    return {folder.name for folder in folders} | {"rendered"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shared", type=Path, default=Path(__file__).resolve().parents[3] / "shared"
    )
    parser.add_argument("--finder-steps", type=int, default=4500)
    parser.add_argument("--face-steps", type=int, default=4500)
    parser.add_argument("--finder-width", type=int, default=24, help="the finder's channels")
    parser.add_argument(
        "--finder-layers",
        choices=("full", "separable", "pyramid"),
        default="full",
        help="the finder's dilated layers: full 3x3 convolutions, separable ones, or full ones at "
        "stride 8 beside the stride-4 features (pyramid)",
    )
    parser.add_argument("--rendered", type=int, default=150, help="rendered scenes to mix in")
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument(
        "--mine-with",
        type=Path,
        default=None,
        help="folder of the finder used to mine negatives "
        "for the face net (default: --out, where the finder was just written)",
    )
    parser.add_argument(
        "--finder-negatives-from",
        type=Path,
        default=None,
        help="folder of the finder whose false alarms the new finder is shown more often "
        "(default: the shipped vision/models)",
    )
    parser.add_argument(
        "--finder-init",
        type=Path,
        default=None,
        help="a finder.pt (written beside each finder.onnx) to go on training from",
    )
    parser.add_argument("--only", choices=("finder", "face"), default=None)
    parser.add_argument("--seed", type=int, default=0, help="for torch and the sample draws")
    parser.add_argument(
        "--hard-share",
        type=float,
        default=HARD_SHARE,
        help="share of the face net's samples drawn, in its second half, from the dice it read "
        "worst half-way (0: none, as for the shipped faces.onnx)",
    )
    parser.add_argument(
        "--face-input",
        type=int,
        choices=(32, 48),
        default=CLASSIFIER_INPUT,
        help="the face net's crop side: 32 (faces.onnx) or 48 (faces48.onnx, the second opinion)",
    )
    parser.add_argument(
        "--face-width",
        type=int,
        default=16,
        help="the face net's first channels, doubled twice further in (16: the shipped nets)",
    )
    parser.add_argument(
        "--symbol-share",
        type=float,
        default=SYMBOL_SHARE,
        help="share of the rendered d6 scenes whose dice carry a maker's symbol (0: none)",
    )
    parser.add_argument(
        "--face-init",
        type=Path,
        default=None,
        help="a face net to go on training from: a .pt written beside an export, or an exported "
        ".onnx of the same --face-input and --face-width (the shipped faces48.onnx)",
    )
    parser.add_argument(
        "--face-lr",
        type=float,
        default=PEAK_LR,
        help="the face net's peak learning rate (lower when going on from --face-init)",
    )
    parser.add_argument(
        "--teacher",
        type=Path,
        default=None,
        help="folder of a face net (of the same --face-input) whose chances the new one learns "
        "beside the labels on the dice of --teacher-sets (distillation)",
    )
    parser.add_argument(
        "--teacher-sets",
        type=set_names,
        default=TEACHER_SETS,
        help="comma-separated photo sets (and 'rendered') on whose dice the teacher is learned",
    )
    parser.add_argument(
        "--teacher-weight",
        type=float,
        default=0.5,
        help="share of the teacher's chances in those crops' targets (the label has the rest)",
    )
    parser.add_argument(
        "--face-set-weight",
        action="append",
        type=parse_set_weight,
        default=[],
        metavar="SET=FACTOR",
        help="draw the face net's photos of SET FACTOR times as often (repeatable; default: "
        "every photo as often)",
    )
    parser.add_argument(
        "--bare-share",
        type=float,
        default=0.0,
        help="share of the face net's samples that are 'no die' crops where the finder saw a die "
        f"in {BARE_VIEW} px squares of the photos away from the dice (0: none)",
    )
    parser.add_argument(
        "--cut-share",
        type=float,
        default=0.0,
        help="share of the face net's samples that are dice cut short (0.55-0.75 of their side, "
        "off centre), taught as dice of no readable value (0: none)",
    )
    parser.add_argument(
        "--face-stretch",
        type=float,
        default=0.0,
        help="stretch half the face net's crops out of shape, by a factor up to e**F along a "
        "random axis (0.35: up to 1.4 times; 0: none)",
    )
    parser.add_argument(
        "--face-sharpen",
        type=float,
        default=1.0,
        help="multiply the trained face net's scores by this before export (1: as trained)",
    )
    parser.add_argument(
        "--upright-sets",
        type=set_names,
        default="",
        help="comma-separated photo sets taken by an upright camera, some from the side: their "
        "dice are turned only a little, so the net learns that the face above the one facing "
        "the camera is the top (default: none, every crop turned at random)",
    )
    args = parser.parse_args()
    unknown = unknown_set_names(args, labelled_set_names(args.shared))
    if unknown:
        parser.error(f"no photo set named {', '.join(unknown)} in {args.shared / 'dice-photos'}")
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.shared)
    print(f"{len(photos)} development photos, {sum(len(p.faces) for p in photos)} dice")
    rendered = (
        rendered_photos(args.rendered, seed=1, symbol_share=args.symbol_share)
        if args.rendered
        else []
    )
    print(f"{len(rendered)} rendered scenes")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "finder"):
        mine_negatives(photos + rendered, args.finder_negatives_from or MODEL_DIR)
        net = finder_net(args.finder_width, args.finder_layers)
        if args.finder_init:
            net.load_state_dict(torch.load(args.finder_init))
        finder = train_finder(photos, rendered, args.finder_steps, rng, net)
        export(finder, args.out / "finder.onnx", (1, 3, FINDER_PATCH, FINDER_PATCH), True)
    if args.only in (None, "face"):
        mine_negatives(photos + rendered, args.mine_with or args.out)
        bare = bare_views(photos) if args.bare_share > 0 else []
        if bare:
            mine_negatives(bare, args.mine_with or args.out)
            bare = [view for view in bare if len(view.mined)]
            print(f"{len(bare)} bare views with false candidates")
        size = args.face_input
        face = train_face_net(
            photos,
            rendered,
            args.face_steps,
            rng,
            size,
            args.hard_share,
            args.face_width,
            init=args.face_init,
            peak_lr=args.face_lr,
            teacher=load_teacher(
                args.teacher,
                args.teacher_sets,
                args.teacher_weight,
                photos,
                size,
            )
            if args.teacher
            else None,
            set_weights=dict(args.face_set_weight),
            bare=bare,
            bare_share=args.bare_share,
            cut_share=args.cut_share,
            stretch=args.face_stretch,
            upright_sets=args.upright_sets,
        )
        if args.face_sharpen != 1.0:
            sharpen(face, args.face_sharpen)
        export(face, args.out / face_model_name(size), (1, 3, size, size), False)


if __name__ == "__main__":
    main()
