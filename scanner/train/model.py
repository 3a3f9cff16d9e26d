"""The character CNN (torch, training only). Runtime uses its ONNX export."""
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
