"""How the reader errs, learnt on calibration hands: P(written class | the reader's best class).

A reader sure of a box can still be wrong in a systematic way (a hand whose R looks like K, a U
read as V); and a K read in a Romanian word is mostly an R, since K has no tile. The decoder mixes
each box's distribution with what was written when the reader read the same best class on the
calibration slips: p' = (1 − λ)·p + λ·Σ_r p(r)·P(c | r). Fitted by `python
benchmarks/round_benchmark.py --fonts calibration --calibrate` (calibration fonts only) and kept
as data in `confusion.json`."""
from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CONFUSION_FILE = Path(__file__).with_name("confusion.json")
LAMBDAS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


@dataclass(frozen=True)
class Confusion:
    """`given_read[r, c]` = P(written c | reader's best class r); `weight` = λ."""

    classes: str
    given_read: np.ndarray
    weight: float

    def mix(self, p: np.ndarray) -> np.ndarray:
        return (1 - self.weight) * p + self.weight * (p @ self.given_read)

    def to_json(self) -> dict:
        return {"classes": self.classes, "weight": self.weight,
                "given_read": [[round(float(x), 6) for x in row] for row in self.given_read]}


def fit(boxes: Iterable[tuple[np.ndarray, str]], classes: str, smoothing: float = 1.0) -> Confusion:
    """From (box distribution, written class) pairs of calibration slips: the matrix, smoothed
    towards the identity and an even spread, and the λ that best explains what was written."""
    pairs = [(p, classes.index(c)) for p, c in boxes if c in classes]
    n = len(classes)
    counts = np.zeros((n, n))
    for p, c in pairs:
        counts[int(np.argmax(p)), c] += 1
    given = counts + smoothing * (np.eye(n) + 1.0 / n)
    given /= given.sum(axis=1, keepdims=True)
    best, best_ll = 0.0, -math.inf
    for weight in LAMBDAS:
        ll = sum(math.log(max(1e-12, float((1 - weight) * p[c] + weight * (p @ given)[c]))) for p, c in pairs)
        if ll > best_ll:
            best, best_ll = weight, ll
    return Confusion(classes, given, best)


def load_confusion(path: Path = CONFUSION_FILE) -> Confusion | None:
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return Confusion(data["classes"], np.asarray(data["given_read"], dtype=float), float(data["weight"]))


def save_confusion(confusion: Confusion, path: Path = CONFUSION_FILE) -> None:
    path.write_text(json.dumps(confusion.to_json(), ensure_ascii=False) + "\n", encoding="utf-8")
