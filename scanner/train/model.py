"""The character CNNs (torch, training only). Runtime uses their ONNX export, whatever the shape."""
from __future__ import annotations

import torch
from torch import nn


def _block(cin: int, cout: int) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class CharNet(nn.Module):
    """5 conv layers on a 32x32 grey cell (pooling early keeps CPU training cheap); ~0.61 M parameters, ~2.5 MB as float32 ONNX."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            *_block(1, 32), nn.MaxPool2d(2),
            *_block(32, 48), *_block(48, 64), nn.MaxPool2d(2),
            *_block(64, 96), *_block(96, 128), nn.MaxPool2d(2),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(128 * 16, 192),
                                  nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(192, n_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class WideCharNet(nn.Module):
    """7 conv layers, wider, with a 2x2 average at the end: ~1.3 M parameters. More room for the many
    ways people write a letter; still well within the scan-time budget on two cores."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            *_block(1, 48), *_block(48, 48), nn.MaxPool2d(2),
            *_block(48, 96), *_block(96, 96), nn.MaxPool2d(2),
            *_block(96, 160), *_block(160, 192), nn.MaxPool2d(2),
            *_block(192, 256), nn.AdaptiveAvgPool2d(2),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(256 * 4, 256),
                                  nn.ReLU(inplace=True), nn.Dropout(0.3), nn.Linear(256, n_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class Ensemble(nn.Module):
    """Members trained apart, read together: the mean of their log-probabilities. Where the members
    disagree, the mean spreads the probability, so the reader is less sure exactly where it should be."""

    def __init__(self, members: list[nn.Module]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.stack([torch.log_softmax(m(x), dim=1) for m in self.members]).mean(0)


ARCHITECTURES = {"charnet": CharNet, "wide": WideCharNet}


def build(arch: str, n_classes: int) -> nn.Module:
    """A network by name: `charnet`, `wide`, or an ensemble: `charnet*2` (two of one shape) or
    `charnet+wide` (members of different shapes, in that order)."""
    if "+" in arch:
        return Ensemble([build(member, n_classes) for member in arch.split("+")])
    name, _, count = arch.partition("*")
    if count:
        return Ensemble([ARCHITECTURES[name](n_classes) for _ in range(int(count))])
    return ARCHITECTURES[name](n_classes)


class MarkNet(nn.Module):
    """A mark judge (`scanner.markjudge`): a few convolutions on a near view of the mark (patch x patch),
    fewer on a second view (context x context), the shape rules' numbers (`extras`) beside them; one
    logit. The dot judge looks at the letter's lower right (24) and the whole box (12) with two
    scores; the ring judge at the ring (32) and what it holds (16) with ten. Takes the judge's flat
    feature vector, so that the ONNX export reads exactly what the judge's `features` gives."""

    def __init__(self, patch: int = 24, context: int = 12, extras: int = 2) -> None:
        super().__init__()
        self.patch, self.context = patch, context
        self.corner = nn.Sequential(*_block(1, 16), nn.MaxPool2d(2), *_block(16, 32), nn.MaxPool2d(2),
                                    *_block(32, 32), nn.Flatten())
        self.whole = nn.Sequential(*_block(1, 8), nn.MaxPool2d(2), nn.Flatten())
        inputs = 32 * (patch // 4) ** 2 + 8 * (context // 2) ** 2 + extras
        self.head = nn.Sequential(nn.Dropout(0.3), nn.Linear(inputs, 64), nn.ReLU(inplace=True), nn.Linear(64, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        p, c = self.patch ** 2, self.context ** 2
        corner = self.corner(x[:, :p].reshape(-1, 1, self.patch, self.patch))
        whole = self.whole(x[:, p:p + c].reshape(-1, 1, self.context, self.context))
        return self.head(torch.cat([corner, whole, x[:, p + c:]], dim=1))[:, 0]
