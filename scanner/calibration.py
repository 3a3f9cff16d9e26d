"""Confidence calibration: temperature on the character logits, then a field-level acceptance threshold.

The threshold is chosen on simulated fields made of cells from fonts the model never saw in training
(scanner.synth.fonts.CALIBRATION), so "accepted" carries a measured error rate rather than a guess.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scanner.grammar import DIGITS, LETTERS, Grammar, decode

FIELD_MIX: tuple[tuple[Grammar, tuple[int, int]], ...] = (
    (Grammar("digits", 1, 2), (1, 2)),
    (Grammar("digits", 1, 3), (1, 3)),
    (Grammar("digits", 1, 4), (1, 4)),
    (Grammar("position"), (2, 3)),
    (Grammar("letters", 2, 15), (2, 15)),
)


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """Temperature minimising the negative log-likelihood on held-aside cells (grid search, robust)."""
    grid = np.exp(np.linspace(np.log(0.3), np.log(5.0), 60))
    nll = [-np.log(softmax(logits, t)[np.arange(len(labels)), labels] + 1e-12).mean() for t in grid]
    return float(grid[int(np.argmin(nll))])


@dataclass(frozen=True)
class FieldSample:
    confidence: float
    correct: bool


def missing_classes(labels: np.ndarray, classes: str) -> str:
    """The signs `simulate_fields` may write that no calibration cell holds (too few slips cut)."""
    drawn = set(LETTERS) | set(DIGITS)
    return "".join(c for i, c in enumerate(classes) if c in drawn and not (labels == i).any())


def simulate_fields(probs: np.ndarray, labels: np.ndarray, classes: str, n_fields: int,
                    seed: int) -> list[FieldSample]:
    """Assemble fields of the slip's kinds from individually classified cells and decode them."""
    rng = np.random.default_rng(seed)
    by_char = {c: np.nonzero(labels == i)[0] for i, c in enumerate(classes)}
    out: list[FieldSample] = []
    for k in range(n_fields):
        grammar, (lo, hi) = FIELD_MIX[k % len(FIELD_MIX)]
        if grammar.kind == "position":
            row = grammar.rows[rng.integers(len(grammar.rows))]
            col = str(rng.integers(1, grammar.columns + 1))
            truth = row + col if rng.random() < 0.5 else col + row
        else:
            alphabet = DIGITS if grammar.kind == "digits" else LETTERS
            truth = "".join(alphabet[i] for i in rng.integers(len(alphabet), size=rng.integers(lo, hi + 1)))
        rows = [by_char[c][rng.integers(len(by_char[c]))] for c in truth]
        got = decode(grammar, probs[rows], classes)
        out.append(FieldSample(got.confidence, got.text == truth))
    return out


def choose_threshold(samples: list[FieldSample], target_error: float = 0.0) -> float:
    """Lowest threshold whose accepted fields have an error rate <= target_error on the samples."""
    conf = np.array([s.confidence for s in samples])
    wrong = np.array([not s.correct for s in samples])
    order = np.argsort(-conf, kind="stable")
    rate = np.cumsum(wrong[order]) / np.arange(1, len(order) + 1)
    within = rate <= target_error
    if not within[0]:
        return 1.0
    # the accepted set is the longest prefix (by confidence) that never exceeds the target
    last = len(order) - 1 if within.all() else int(np.argmin(within)) - 1
    t = float(conf[order][last])
    above_wrong = conf[wrong & (conf >= t)]
    if target_error == 0.0 and above_wrong.size:  # ties with a wrong field: step just above it
        t = float(above_wrong.max()) + 1e-9
    return min(1.0, t)
