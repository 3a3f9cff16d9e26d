"""How the reader errs, learnt on calibration hands: P(written class | the reader's best class).

A reader sure of a box can still be wrong in a systematic way (a hand whose R looks like K, a U
read as V); and a K read in a Romanian word is mostly an R, since K has no tile. The decoder mixes
each box's distribution with what was written when the reader read the same best class on the
calibration slips: p' = (1 − λ)·p + λ·Σ_r p(r)·P(c | r). Fitted by `python
benchmarks/round_benchmark.py --fonts calibration --calibrate` (calibration fonts only) and kept
as data in `confusion.json`.

How often the reader errs depends on how sure it is: on the calibration slips of seed 44, a box
written or read as a digit was misread 1 time in 700 when read at 0.99 or more, 1 in 30 at
0.9–0.99, 2 in 5 below 0.9. One matrix for all boxes lends a box read at 0.6 the errors of a box
read at 0.999 and the other way round, so the boxes are fitted in bands of the reader's confidence
(`ConfusionByConfidence`, `EDGES`), each with its own matrix and λ (a band without calibration
boxes gets λ 0: no evidence, no mixing).

The boxes of a field that holds digits alone (table, round, score) are read by the digit reader
within the digits' share, and are weighed on their digits alone (`evidence.digits_alone`): they
have their own confusions (`digit_boxes`), fitted on those boxes as the decoder sees them. Pooled
with the letters, a clear 7 whose box the character reader found a little letter-like fell in the
band of unsure boxes, where a 7 was a 1 one time in seven, and every such score went to review."""
from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CONFUSION_FILE = Path(__file__).with_name("confusion.json")
LAMBDAS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
EDGES = (0.9, 0.99)  # the reader's confidence (its best class's probability) where one band ends and the next begins


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


def band_of(p: np.ndarray, edges: tuple[float, ...]) -> int:
    """The band of the reader's confidence a box read `p` falls in: 0 below edges[0], k from edges[k-1]."""
    return int(np.searchsorted(edges, float(p.max()), side="right"))


@dataclass(frozen=True)
class ConfusionByConfidence:
    """One `Confusion` per band of the reader's confidence: `bands[k]` mixes the boxes whose best
    class has a probability in [edges[k-1], edges[k]) (the first from 0, the last up to 1)."""

    classes: str
    edges: tuple[float, ...]
    bands: tuple[Confusion, ...]
    # the confusions of the boxes of a digits-only field, read on their digits alone; None: those
    # boxes are mixed with the bands above
    digit_boxes: ConfusionByConfidence | None = None

    def for_digit_boxes(self) -> ConfusionByConfidence:
        return self.digit_boxes or self

    def band(self, p: np.ndarray) -> Confusion:
        return self.bands[band_of(p, self.edges)]

    def mix(self, p: np.ndarray) -> np.ndarray:
        return self.band(p).mix(p)

    def to_json(self) -> dict:
        data: dict = {"classes": self.classes, "edges": list(self.edges),
                      "bands": [{"weight": b.weight, "given_read": b.to_json()["given_read"]} for b in self.bands]}
        if self.digit_boxes is not None:
            data["digit_boxes"] = self.digit_boxes.to_json()
        return data


def fit_by_confidence(boxes: Iterable[tuple[np.ndarray, str]], classes: str,
                      edges: tuple[float, ...] = EDGES,
                      digit_boxes: Iterable[tuple[np.ndarray, str]] | None = None) -> ConfusionByConfidence:
    """`fit` on the boxes of each band of the reader's confidence; `digit_boxes` (the boxes of
    digits-only fields, as `evidence.digits_alone` weighs them) fitted apart."""
    by_band: list[list[tuple[np.ndarray, str]]] = [[] for _ in range(len(edges) + 1)]
    for p, c in boxes:
        by_band[band_of(p, edges)].append((p, c))
    digits = fit_by_confidence(digit_boxes, classes, edges) if digit_boxes is not None else None
    return ConfusionByConfidence(classes, tuple(edges), tuple(fit(pairs, classes) for pairs in by_band), digits)


ReaderConfusion = Confusion | ConfusionByConfidence


def load_confusion(path: Path = CONFUSION_FILE) -> ReaderConfusion | None:
    if not path.is_file():
        return None
    return confusion_from(json.loads(path.read_text(encoding="utf-8")))


def confusion_from(data: dict) -> ReaderConfusion:
    """The confusions kept as data by `save_confusion`."""
    if "bands" in data:
        bands = tuple(Confusion(data["classes"], np.asarray(b["given_read"], dtype=float), float(b["weight"]))
                      for b in data["bands"])
        digits = data.get("digit_boxes")
        return ConfusionByConfidence(data["classes"], tuple(float(e) for e in data["edges"]), bands,
                                     confusion_from(digits) if digits else None)  # type: ignore[arg-type]
    return Confusion(data["classes"], np.asarray(data["given_read"], dtype=float), float(data["weight"]))


def save_confusion(confusion: ReaderConfusion, path: Path = CONFUSION_FILE) -> None:
    path.write_text(json.dumps(confusion.to_json(), ensure_ascii=False) + "\n", encoding="utf-8")
