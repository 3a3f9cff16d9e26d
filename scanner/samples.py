"""Arbiter corrections as training samples: the cells of a corrected field and the true text.

The review workflow calls `save_correction` for every field an arbiter fixes; `fluturas reader
finetune` reads the directory back with `load_samples`.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from scanner.errors import TrainingError
from scanner.reading import Reading


def save_correction(directory: Path, reading: Reading, field: str, truth: str) -> Path | None:
    """Store one corrected field; None when the truth cannot be aligned one char per written cell."""
    cells = reading.cells.get(field)
    truth = truth.strip().upper()
    if cells is None or len(cells) != len(truth) or not truth:
        return None
    directory.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha1(f"{reading.source}|{reading.page}|{reading.slip_index}|{field}".encode()).hexdigest()[:16]
    path = directory / f"{key}.npz"
    np.savez_compressed(path, cells=cells.astype(np.float16), truth=np.array(truth), field=np.array(field),
                        source=np.array(reading.source))
    return path


def load_samples(directory: Path, classes: str) -> tuple[np.ndarray, np.ndarray]:
    """All stored cells (N x 32 x 32 float32) and class indices; chars outside `classes` are skipped."""
    files = sorted(Path(directory).glob("*.npz"))
    if not files:
        raise TrainingError(f"{directory}: no correction samples (*.npz) to fine-tune on")
    xs, ys = [], []
    for f in files:
        try:
            with np.load(f) as d:
                cells, truth = d["cells"].astype(np.float32), str(d["truth"])
        except (OSError, KeyError, ValueError) as exc:
            raise TrainingError(f"{f}: unreadable correction sample ({exc})") from exc
        for cell, ch in zip(cells, truth):
            if ch in classes:
                xs.append(cell)
                ys.append(classes.index(ch))
    return np.stack(xs), np.array(ys, np.int64)
