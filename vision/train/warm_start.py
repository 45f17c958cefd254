"""Start a face net from trained weights: a .pt, or an exported .onnx with its batch norms
unfolded again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.train.face_samples import face_sample
from vision.train.nets import to_tensor
from vision.train.photos import Photo


def load_face_init(
    net: nn.Module, path: Path, photos: list[Photo], rendered: list[Photo], size: int
) -> None:
    """Start the face net from trained weights: a .pt written beside an export, or a shipped
    .onnx (its convolutions have their batch norms folded in: see unfold_batch_norms)."""
    if path.suffix == ".pt":
        net.load_state_dict(torch.load(path))
        return
    rng = np.random.default_rng(0)
    calibration = [face_sample(photos, rendered, rng, size)[0] for _ in range(512)]
    unfold_batch_norms(net, onnx_weights(path), to_tensor(calibration))
    print(f"face net starts from {path}")


def onnx_weights(path: Path) -> list[torch.Tensor]:
    """An exported face net's initializers, in the order of the layers that use them."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    named = {item.name: numpy_helper.to_array(item) for item in model.graph.initializer}
    used = [name for node in model.graph.node for name in node.input if name in named]
    return [torch.from_numpy(named[name].copy()) for name in used]


def unfold_batch_norms(net: nn.Module, weights: list[torch.Tensor], batch: torch.Tensor) -> None:
    """Load an export's weights, where each convolution and its batch norm are one convolution
    with a bias. Each batch norm is given its convolution's output statistics on `batch` as running
    statistics and the scale and shift that undo them: the net computes exactly the exported
    function in eval mode and nearly it in training mode (batch statistics near these), so
    fine-tuning starts where the export left off."""
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d | nn.BatchNorm2d | nn.Linear)]
    pairs = []  # (layer, weight, bias for a following batch norm or None)
    queue = list(weights)
    for index, layer in enumerate(layers):
        if isinstance(layer, nn.BatchNorm2d):
            continue
        weight = queue.pop(0)
        if tuple(weight.shape) != tuple(layer.weight.shape):
            raise ValueError(f"{weight.shape} does not fit {layer}: not this net's export")
        bias = queue.pop(0)
        followed = index + 1 < len(layers) and isinstance(layers[index + 1], nn.BatchNorm2d)
        pairs.append((layer, weight, bias, layers[index + 1] if followed else None))
    if queue:
        raise ValueError("the export has more weights than the net")
    outputs: dict[nn.Module, torch.Tensor] = {}
    hooks = [
        conv.register_forward_hook(lambda m, _, out: outputs.__setitem__(m, out))
        for conv, _, _, norm in pairs
        if norm is not None
    ]
    with torch.no_grad():
        for layer, weight, bias, norm in pairs:
            layer.weight.copy_(weight)
            if norm is None:
                layer.bias.copy_(bias)
            else:  # a pass-through for now: eval mode with mean 0, variance 1 - eps
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias)
        net.eval()
        net(batch)
        for conv, _, bias, norm in pairs:
            if norm is None:
                continue
            out = outputs[conv]  # the convolution without its bias
            mean = out.mean(dim=(0, 2, 3))
            var = out.var(dim=(0, 2, 3), unbiased=False)
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(bias + mean)
    for hook in hooks:
        hook.remove()
    net.train()
