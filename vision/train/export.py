"""Ready a trained net for the reader and write it out: ONNX, and a .pt to resume from."""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn


def sharpen(net: nn.Module, factor: float) -> None:
    """The net's scores times `factor` (its last layer's weights and bias): the same value read,
    more surely (factor > 1). The reader averages the two face nets' chances and keeps a value
    only at 0.5 or more, so a net trained on hard sets, which hedges on dice it reads right,
    makes dice unreadable that a surer net keeps."""
    last = [m for m in net.modules() if isinstance(m, nn.Linear)][-1]
    with torch.no_grad():
        last.weight.mul_(factor)
        last.bias.mul_(factor)


def export(net: nn.Module, path: Path, shape: tuple[int, int, int, int], dynamic: bool) -> None:
    axes = {"input": {0: "batch", 2: "height", 3: "width"}} if dynamic else {"input": {0: "batch"}}
    torch.onnx.export(
        net,
        torch.zeros(shape),
        str(path),
        input_names=["input"],
        output_names=["output"],
        dynamic_axes=axes,
        dynamo=False,
    )
    torch.save(net.state_dict(), path.with_suffix(".pt"))  # to resume from; not shipped
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
