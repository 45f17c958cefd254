"""Fit the finder and the face net: their losses and targets, their batches and the one-cycle
AdamW loop."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.train.draws import pick, set_balanced_chances, weighted_sets
from vision.train.face_samples import (
    HardDice,
    bare_sample,
    cut_short_sample,
    face_sample,
    hard_dice,
)
from vision.train.finder_samples import finder_sample
from vision.train.nets import face_net, to_tensor
from vision.train.photos import SYMBOL, Photo
from vision.train.teacher import Teacher, with_teacher
from vision.train.warm_start import load_face_init

HARD_FROM = 0.5  # of the face net's steps, after which hard dice are drawn more often
HARD_SHARE = 0.3  # default share of the face net's samples drawn from the hard dice from then on
PEAK_LR = 3e-3  # the one-cycle schedule's highest learning rate


def finder_loss(output: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """CenterNet focal loss on the heat-map plus L1 on log side at the centre cells."""
    heat = torch.sigmoid(output[:, 0]).clamp(1e-4, 1 - 1e-4)
    truth, log_side, mask = targets[:, 0], targets[:, 1], targets[:, 2]
    positive = truth.eq(1).float()
    pos_loss = -(torch.log(heat) * (1 - heat) ** 2 * positive).sum()
    neg_loss = -(torch.log(1 - heat) * heat**2 * (1 - truth) ** 4 * (1 - positive)).sum()
    focal = (pos_loss + neg_loss) / positive.sum().clamp(min=1)
    size = (torch.abs(output[:, 1] - log_side) * mask).sum() / mask.sum().clamp(min=1)
    return focal + size


def fit(
    net: nn.Module,
    name: str,
    steps: int,
    batch_loss: Callable[[nn.Module], tuple[torch.Tensor, str]],
    peak_lr: float = PEAK_LR,
) -> nn.Module:
    """AdamW with a one-cycle schedule; batch_loss(net) -> (loss, note) draws a fresh batch."""
    optimiser = torch.optim.AdamW(net.parameters(), lr=peak_lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, peak_lr, total_steps=steps)
    start = time.time()
    for step in range(steps):
        loss, note = batch_loss(net)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 100 == 0:
            elapsed = time.time() - start
            print(f"{name} step {step}/{steps} loss {loss.item():.3f} {note} {elapsed:.0f}s")
    return net.eval()


def train_finder(
    photos: list[Photo],
    rendered: list[Photo],
    steps: int,
    rng: np.random.Generator,
    net: nn.Module,
) -> nn.Module:
    chances = set_balanced_chances(photos)

    def batch_loss(net: nn.Module) -> tuple[torch.Tensor, str]:
        samples = [finder_sample(pick(photos, rendered, rng, chances), rng) for _ in range(24)]
        output = net(to_tensor([s[0] for s in samples]))
        return finder_loss(output, torch.from_numpy(np.stack([s[1] for s in samples]))), ""

    return fit(net, "finder", steps, batch_loss)


def train_face_net(
    photos: list[Photo],
    rendered: list[Photo],
    steps: int,
    rng: np.random.Generator,
    size: int,
    hard_share: float = HARD_SHARE,
    width: int = 16,
    init: Path | None = None,
    peak_lr: float = PEAK_LR,
    teacher: Teacher | None = None,
    set_weights: dict[str, float] | None = None,
    bare: list[Photo] | None = None,
    bare_share: float = 0.0,
    cut_share: float = 0.0,
    stretch: float = 0.0,
    upright_sets: frozenset[str] = frozenset(),
) -> nn.Module:
    hard: HardDice | None = None
    step = 0
    chances = weighted_sets(photos, set_weights) if set_weights else None

    def one_sample() -> tuple[np.ndarray, int, str]:
        draw = rng.random()
        if draw < bare_share and bare:
            return bare_sample(bare, rng, size, stretch)
        if bare_share <= draw < bare_share + cut_share:
            return cut_short_sample(photos, rendered, rng, size, chances, stretch)
        return face_sample(
            photos, rendered, rng, size, hard, hard_share, chances, stretch, upright_sets
        )

    def batch_loss(net: nn.Module) -> tuple[torch.Tensor, str]:
        nonlocal step, hard
        step += 1
        if hard_share > 0 and step == int(steps * HARD_FROM):
            hard = hard_dice(net, photos, size)
        samples = [one_sample() for _ in range(128)]
        inputs = to_tensor([s[0] for s in samples])
        logits = net(inputs)
        labels = torch.tensor([s[1] for s in samples])
        targets = face_targets(labels, logits.shape[1])
        if teacher is not None:
            taught = [s[2] in teacher.sets and 0 < s[1] < SYMBOL for s in samples]
            targets = with_teacher(targets, inputs, torch.tensor(taught), teacher)
        known = labels < SYMBOL
        accuracy = (logits.argmax(1)[known] == labels[known]).float().mean().item()
        loss = nn.functional.cross_entropy(logits, targets)
        return loss, f"batch accuracy {accuracy:.3f}"

    net = face_net(size, width)
    if init is not None:
        load_face_init(net, init, photos, rendered, size)
    return fit(net, "face", steps, batch_loss, peak_lr)


def face_targets(labels: torch.Tensor, classes: int) -> torch.Tensor:
    """Each crop's chances: its class (slightly smoothed), or for a maker's symbol an even spread
    over 1..6 (a die, of no value the net can know), so the reader keeps the die and calls it
    unreadable."""
    targets = torch.full((len(labels), classes), 0.02 / classes)
    known = labels < SYMBOL
    targets[known, labels[known]] += 0.98
    targets[~known] = torch.tensor([0.0] + [1.0 / (classes - 1)] * (classes - 1))
    return targets
