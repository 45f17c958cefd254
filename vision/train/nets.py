"""The two networks in torch, the finder and the face net, and the tensor they take."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


def conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def separable(channels: int, dilation: int = 1) -> nn.Sequential:
    """A 3x3 convolution per channel, then a 1x1 mixing them: a ninth of a full one's work."""
    return nn.Sequential(
        nn.Conv2d(channels, channels, 3, 1, dilation, dilation, groups=channels, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(inplace=True),
        nn.Conv2d(channels, channels, 1, bias=False),
        nn.BatchNorm2d(channels),
        nn.ReLU(inplace=True),
    )


class PyramidFinder(nn.Module):
    """The trunk's dilated layers at stride 8 (a quarter of the cells), brought back to stride 4
    beside the stride-4 features: the same reach over the tray for about half the work."""

    def __init__(self, width: int = 24) -> None:
        super().__init__()
        self.fine = nn.Sequential(conv(3, 12, 2), conv(12, width, 2))
        deep = width + 8
        self.coarse = nn.Sequential(
            conv(width, deep, 2),
            conv(deep, deep),
            conv(deep, deep, dilation=2),
            conv(deep, deep, dilation=4),
            nn.Upsample(scale_factor=2, mode="nearest"),
        )
        self.head = nn.Sequential(
            nn.Conv2d(width + deep, width, 1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.Conv2d(width, 2, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        fine = self.fine(x)
        return self.head(torch.cat([fine, self.coarse(fine)], dim=1))


def finder_net(width: int = 24, layers: str = "full") -> nn.Module:
    """Two strided convolutions down to the heat-map's stride, then four at growing dilations
    (the context of a whole die and its neighbours), full or separable; or the pyramid."""
    if layers == "pyramid":
        return PyramidFinder(width)
    trunk = conv if layers == "full" else lambda cin, cout, dilation=1: separable(cout, dilation)
    return nn.Sequential(
        conv(3, 12, 2),
        conv(12, width, 2),
        trunk(width, width),
        trunk(width, width, dilation=2),
        trunk(width, width, dilation=4),
        trunk(width, width, dilation=8),
        nn.Conv2d(width, 2, 1),
    )


def face_net(size: int, width: int = 16) -> nn.Module:
    """Four poolings down to size/16; `width` channels first, doubled twice (16: the shipped
    nets)."""
    return nn.Sequential(
        conv(3, width),
        conv(width, width),
        nn.MaxPool2d(2),
        conv(width, 2 * width),
        conv(2 * width, 2 * width),
        nn.MaxPool2d(2),
        conv(2 * width, 4 * width),
        nn.MaxPool2d(2),
        conv(4 * width, 4 * width),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(4 * width * (size // 16) ** 2, 64),
        nn.ReLU(inplace=True),
        nn.Dropout(0.2),
        nn.Linear(64, 7),
    )


def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    batch = np.stack(images).astype(np.float32) / 255.0 - 0.5
    return torch.from_numpy(batch.transpose(0, 3, 1, 2).copy())
