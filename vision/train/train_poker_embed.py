"""Training the poker-face embedding (vision/models/poker_embed.onnx): a small CNN that maps a
cut-out top face to a 64-number unit vector, such that crops of one face of one design lie close
and crops of other faces (or of no die) lie far, whatever the design. A profile then only keeps
the embeddings of its taught examples, and reading is the nearest example
(vision/profiles/profile.py).

Data: random poker designs of every kind (`vision.synth.poker_designs`), each rendered in two trays
of 6-7 dice (every face at least once) and two close-ups, in random light, surfaces, blur, noise and
perspective. Each die is cut the ways the reader cuts it: on its true square spoilt as a finder
spoils it (moved, rescaled by up to a fifth, turned), on the finder's own candidates and their
grown and body-fitted squares; squares half on a die, between dice or on bare tray are "no die".
Classes are (design, face), plus one "no die" class; the loss is CosFace (normalised softmax with
a margin), so the net must embed each face of a design apart from its other faces and from other
designs' faces, and the same face alike across cuts, sizes, blur and light (a close-up taught
example then matches its tray crops). Quarter turns are augmented (a crop is cut upright only to
within a quarter turn).

Held out: designs are drawn from `np.random.default_rng([n, DESIGN_STREAM])`; the benches and
tests draw theirs from `default_rng([seed, 1])` (`tabletop bench poker`) or `default_rng(seed)`,
never this stream, so every design they read is one the net never saw.

    python -m vision.train.train_poker_embed data --designs 1200 --out /tmp/poker-embed.npz
    python -m vision.train.train_poker_embed train --data /tmp/poker-embed.npz --minutes 25 \\
        --out vision/models/poker_embed.onnx

`data --kinds letters` draws designs of the given kinds only (to weigh a weak kind more);
`data --input 48` cuts crops at another side (the net's head follows; the reader's
`vision.profiles.face_embedding.INPUT` must then match).

Training needs torch (not a run-time dependency: the model runs through cv2.dnn), one core
(`torch.set_num_threads(1)`); run it under `nice -n 5`.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

INPUT = 32  # px: the net's input side by default (crops are cut at 64 and shrunk)
EMBED = 64
DESIGN_STREAM = 25025
NO_DIE = -1


# --------------------------------------------------------------------------- data


def _square(center: np.ndarray, side: float, angle: float) -> np.ndarray:
    from vision.read.find import square_quad

    return square_quad((float(center[0]), float(center[1])), side, angle)


def _cut(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    from vision.read.find import rectify
    from vision.read.types import DieCandidate

    centre = quad.mean(axis=0)
    side = float(np.linalg.norm(quad[0] - quad[1]))
    return rectify(frame, DieCandidate((float(centre[0]), float(centre[1])), quad, side), 64)


def _shrunk(crops: list[np.ndarray], side: int) -> list[np.ndarray]:
    return [cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA) for crop in crops]


def _truth_square(die) -> tuple[np.ndarray, float, float]:
    quad = np.asarray(die.quad, np.float32)
    side = float(np.mean([np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]))
    edge = quad[1] - quad[0]
    return quad.mean(axis=0), side, float(np.degrees(np.arctan2(edge[1], edge[0])))


def _spoilt_cuts(frame, die, rng, count: int, error: float) -> list[np.ndarray]:
    centre, side, angle = _truth_square(die)
    cuts = []
    for _ in range(count):
        scale = float(np.clip(rng.normal(1.0, error * 1.3), 0.78, 1.25))
        moved = centre + rng.normal(0, error * side, 2)
        turn = angle + rng.normal(0, 4.0)
        cuts.append(_cut(frame, _square(moved, side * scale, turn)))
    return cuts


def _finder_cuts(frame, dice, rng) -> tuple[list[np.ndarray], list[int]]:
    """Crops of the squares the reader tries, labelled with the die (index) they sit on, or
    NO_DIE for squares away from every die (phantoms, half-dice, bare tray)."""
    from vision.read.find import beside, find_dice
    from vision.read.profiled import candidate_tries

    crops, owners = [], []
    truths = [_truth_square(d) for d in dice]

    def owner(square) -> int | None:
        for index, (centre, side, _) in enumerate(truths):
            gap = float(np.hypot(*(np.asarray(square.center) - centre)))
            if gap < 0.2 * side and 0.75 < square.size / side < 1.3:
                return index
            if gap < 0.75 * side:
                return None  # neither the die nor clear of it
        return NO_DIE

    candidates = find_dice(frame, threshold=0.2)
    squares = [s for c in candidates for s in candidate_tries(frame, c)]
    squares += [s for c in candidates for s in beside(c, 1.0, 0.5) if rng.random() < 0.3]
    for square in squares:
        label = owner(square)
        if label is None:
            continue
        crops.append(_cut(frame, np.asarray(square.quad, np.float32)))
        owners.append(label)
    return crops, owners


def design_crops(number: int, kinds: tuple[str, ...] = ()) -> tuple[list[np.ndarray], list[int]]:
    """Crops of one random design, labelled 0-5 by face (POKER_FACES order) or NO_DIE."""
    from vision.read.types import POKER_FACES
    from vision.synth.poker_designs import PokerDesign
    from vision.synth.render import SceneStyle, render_close_up, render_scene

    rng = np.random.default_rng([number, DESIGN_STREAM])
    design = PokerDesign.random(rng, str(rng.choice(kinds)) if kinds else None)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for _ in range(2):
        faces = list(rng.permutation(POKER_FACES)) + [str(rng.choice(POKER_FACES))]
        faces = faces[: int(rng.integers(6, 8))]
        style = replace(SceneStyle.random(rng, "poker"), poker_design=design)
        scene = render_scene(faces, kind="poker", seed=int(rng.integers(1 << 30)), style=style)
        for die in scene.dice:
            cut = _spoilt_cuts(scene.frame, die, rng, 2, 0.07)
            crops += cut
            labels += [POKER_FACES.index(die.value)] * len(cut)
        found, owners = _finder_cuts(scene.frame, scene.dice, rng)
        crops += found
        labels += [o if o == NO_DIE else POKER_FACES.index(scene.dice[o].value) for o in owners]
    for face in rng.choice(POKER_FACES, 2, replace=False):
        style = replace(SceneStyle.random(rng, "poker"), poker_design=design)
        fill = float(rng.uniform(0.3, 0.6))
        scene = render_close_up(str(face), seed=int(rng.integers(1 << 30)), style=style, fill=fill)
        cut = _spoilt_cuts(scene.frame, scene.dice[0], rng, 3, 0.04)
        crops += cut
        labels += [POKER_FACES.index(str(face))] * len(cut)
    return crops, labels


def d6_crops(number: int) -> list[np.ndarray]:
    """Crops of the d6 dice of one random tray: "no die" to a poker profile (a d6 in the tray
    is not a poker face, not even a 9 of pips)."""
    from vision.synth.render import SceneStyle, render_scene

    rng = np.random.default_rng([number, DESIGN_STREAM, 6])
    faces = [int(f) for f in rng.integers(1, 7, int(rng.integers(3, 8)))]
    style = SceneStyle.random(rng, "d6")
    scene = render_scene(faces, kind="d6", seed=int(rng.integers(1 << 30)), style=style)
    return [crop for die in scene.dice for crop in _spoilt_cuts(scene.frame, die, rng, 1, 0.07)]


def zoomed_out_crops(number: int) -> list[np.ndarray]:
    """Squares two to three and a half times a die's side about it, of one tray of a random
    design: "no die" (the coarse look's squares around a small die; a lone symbol's face, an A,
    looked like them)."""
    from vision.read.types import POKER_FACES
    from vision.synth.poker_designs import PokerDesign
    from vision.synth.render import SceneStyle, render_scene

    rng = np.random.default_rng([number, DESIGN_STREAM, 2])
    design = PokerDesign.random(rng, None)
    faces = [str(f) for f in rng.choice(POKER_FACES, int(rng.integers(1, 4)))]
    style = replace(SceneStyle.random(rng, "poker"), poker_design=design)
    scene = render_scene(faces, kind="poker", seed=int(rng.integers(1 << 30)), style=style)
    crops = []
    for die in scene.dice:
        centre, side, angle = _truth_square(die)
        grown = side * float(rng.uniform(2.0, 3.5))
        moved = centre + rng.normal(0, 0.2 * side, 2)
        crops.append(_cut(scene.frame, _square(moved, grown, angle + rng.normal(0, 10))))
    return crops


def make_data(
    designs: int,
    out: Path,
    minutes: float,
    d6_scenes: int = 0,
    first: int = 0,
    kinds: tuple[str, ...] = (),
    side: int = INPUT,
) -> None:
    cv2.setNumThreads(1)
    started = time.monotonic()
    crops, classes = [], []
    for number in range(d6_scenes):
        these = _shrunk(d6_crops(number) + zoomed_out_crops(number), side)
        crops += these
        classes += [NO_DIE] * len(these)
    made = 0
    for number in range(first, first + designs):
        if time.monotonic() - started > minutes * 60:
            break
        these, labels = design_crops(number, kinds)
        crops += _shrunk(these, side)
        classes += [NO_DIE if label == NO_DIE else number * 6 + label for label in labels]
        made += 1
        if made % 50 == 0:
            print(
                f"{made} designs, {len(crops)} crops, {time.monotonic() - started:.0f} s",
                flush=True,
            )
    np.savez(out, crops=np.array(crops, np.uint8), classes=np.array(classes, np.int64))
    print(f"{made} designs, {len(crops)} crops -> {out}")


# --------------------------------------------------------------------------- net


def build_net(side: int = INPUT):
    import torch
    from torch import nn

    def block(cin: int, cout: int, pool: bool) -> list[nn.Module]:
        layers: list[nn.Module] = [
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        ]
        return layers + ([nn.MaxPool2d(2)] if pool else [])

    class Embed(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                *block(3, 16, True),  # 16x16
                *block(16, 32, True),  # 8x8
                *block(32, 48, True),  # 4x4
                *block(48, 64, False),
            )
            self.head = nn.Linear(64 * (side // 8) ** 2, EMBED)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            features = self.body(x).flatten(1)
            out = self.head(features)
            return out / out.norm(dim=1, keepdim=True).clamp_min(1e-6)

    return Embed()


def _augment(batch, rng: np.random.Generator):
    """Quarter turns, light (gain, offset, per-channel tint), noise; batch is N x 3 x H x W in
    0..1 (torch)."""
    import torch

    turns = rng.integers(0, 4, len(batch))
    batch = torch.stack([torch.rot90(x, int(k), (1, 2)) for x, k in zip(batch, turns, strict=True)])
    n = len(batch)
    gain = torch.from_numpy(rng.uniform(0.7, 1.25, (n, 1, 1, 1)).astype(np.float32))
    tint = torch.from_numpy(rng.uniform(0.93, 1.07, (n, 3, 1, 1)).astype(np.float32))
    offset = torch.from_numpy(rng.uniform(-0.08, 0.08, (n, 1, 1, 1)).astype(np.float32))
    noise = torch.randn_like(batch) * torch.from_numpy(
        rng.uniform(0, 0.03, (n, 1, 1, 1)).astype(np.float32)
    )
    return (batch * gain * tint + offset + noise).clamp(0, 1)


def train(
    data: list[Path],
    out: Path,
    minutes: float,
    seed: int,
    init: Path | None,
    lr: float,
    side: int | None = None,
) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [np.load(path) for path in data]
    crops = np.concatenate([_at_side(part["crops"], side) for part in parts])
    classes = np.concatenate([part["classes"] for part in parts])
    keep = np.unique(classes[classes >= 0])
    index = {c: i + 1 for i, c in enumerate(keep)}  # 0 is "no die"
    targets = np.array([0 if c < 0 else index[c] for c in classes])
    # BGR, as cv2.dnn.blobFromImages gives them at run time (swapRB off).
    images = torch.from_numpy(crops).permute(0, 3, 1, 2)  # uint8: floats only a batch at a time
    labels = torch.from_numpy(targets)
    input_side = crops.shape[1]
    net = build_net(input_side)
    proxies = torch.nn.Parameter(torch.randn(len(keep) + 1, EMBED) * 0.01)
    if init is not None:  # go on from an earlier run on the same data (its net and proxies)
        state = torch.load(init)
        net.load_state_dict(state.get("net", state))
        if state.get("proxies") is not None:
            proxies.data.copy_(state["proxies"])
        else:  # a net saved alone: each class's proxy starts at its crops' mean embedding
            proxies.data.copy_(_class_means(net, images, labels, len(keep) + 1))
    optimiser = torch.optim.AdamW([*net.parameters(), proxies], lr=3e-3, weight_decay=1e-4)
    scale, margin = 24.0, 0.25
    started = time.monotonic()
    step, batch_size = 0, 256
    print(f"{len(images)} crops, {len(keep)} classes")
    while time.monotonic() - started < minutes * 60:
        order = torch.from_numpy(rng.permutation(len(images)))
        for at in range(0, len(order) - batch_size + 1, batch_size):
            elapsed = time.monotonic() - started
            if elapsed > minutes * 60:
                break
            # learning rate: cosine over the time budget
            for group in optimiser.param_groups:
                group["lr"] = lr * 0.5 * (1 + np.cos(np.pi * min(1.0, elapsed / (minutes * 60))))
            pick = order[at : at + batch_size]
            x = _augment(images[pick].float() / 255.0, rng)
            y = labels[pick]
            embedded = net(x)
            cosine = embedded @ F.normalize(proxies, dim=1).T
            logits = scale * (cosine - margin * F.one_hot(y, cosine.shape[1]))
            loss = F.cross_entropy(logits, y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
            if step % 1000 == 0:  # a model to look at before the end
                export(net, out, proxies, input_side)
                net.train()
            if step % 100 == 0:
                right = (cosine.argmax(1) == y).float().mean().item()
                print(
                    f"step {step} {elapsed:.0f} s loss {loss.item():.3f} batch acc {right:.3f}",
                    flush=True,
                )
    export(net, out, proxies, input_side)


def _at_side(crops: np.ndarray, side: int | None) -> np.ndarray:
    """The crops shrunk to side x side where they are larger (data made with a larger --input)."""
    if side is None or crops.shape[1] <= side:
        return crops
    return np.stack(_shrunk(list(crops), side))


def _class_means(net, images, labels, classes: int):
    import torch

    net.eval()
    sums = torch.zeros(classes, EMBED)
    with torch.no_grad():
        for at in range(0, len(images), 1024):
            batch = images[at : at + 1024].float() / 255.0
            sums.index_add_(0, labels[at : at + 1024], net(batch))
    net.train()
    return sums / sums.norm(dim=1, keepdim=True).clamp_min(1e-6)


def export(net, out: Path, proxies=None, side: int = INPUT) -> None:
    import torch

    net.eval()
    torch.save({"net": net.state_dict(), "proxies": proxies}, out.with_suffix(".pt"))
    dummy = torch.zeros(1, 3, side, side)
    torch.onnx.export(
        net,
        dummy,
        str(out),
        input_names=["crops"],
        output_names=["embedding"],
        dynamic_axes={"crops": {0: "n"}, "embedding": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    print(f"wrote {out} ({out.stat().st_size} bytes)")


def _check_pooled_side(parser: argparse.ArgumentParser, option: str, side: int) -> None:
    """Exit with one line unless `side` suits the net, which pools three times."""
    if side < 8 or side % 8:
        parser.error(f"{option} is a multiple of 8 (the net pools three times), not {side}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="render crops of random designs")
    data.add_argument("--designs", type=int, default=1200)
    data.add_argument("--first", type=int, default=0, help="first design's number")
    data.add_argument("--minutes", type=float, default=15.0, help="stop rendering after this")
    data.add_argument(
        "--d6-scenes",
        type=int,
        default=0,
        help="d6 trays and poker trays seen from afar, all 'no die'",
    )
    data.add_argument(
        "--kinds", default="", help="design kinds drawn, comma-separated (default: every kind)"
    )
    data.add_argument("--input", type=int, default=INPUT, help="crop side, a multiple of 8")
    data.add_argument("--out", type=Path, required=True)
    fit = sub.add_parser("train", help="train the embedding and export it to ONNX")
    fit.add_argument("--data", type=Path, nargs="+", required=True)
    fit.add_argument("--minutes", type=float, default=25.0)
    fit.add_argument("--seed", type=int, default=0)
    fit.add_argument("--init", type=Path, default=None, help="go on from this .pt")
    fit.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    fit.add_argument("--side", type=int, default=None, help="shrink larger crops to this side")
    fit.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "data":
        from vision.synth.poker_designs import DESIGN_KINDS

        kinds = tuple(k for k in args.kinds.split(",") if k)
        if any(k not in DESIGN_KINDS for k in kinds):
            parser.error(f"--kinds takes some of {', '.join(DESIGN_KINDS)}")
        _check_pooled_side(parser, "--input", args.input)
        make_data(
            args.designs, args.out, args.minutes, args.d6_scenes, args.first, kinds, args.input
        )
    else:
        if args.side is not None:
            _check_pooled_side(parser, "--side", args.side)
        train(args.data, args.out, args.minutes, args.seed, args.init, args.lr, args.side)


if __name__ == "__main__":
    main()
