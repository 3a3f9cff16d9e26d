"""Field grammars of the printed form: which strings a field may hold, and the most probable one.

The grammar is form data (declared per field in the template), not game logic: a position is "one row
letter and one column number in either order" because that is what the slip asks for (D 5.3.5).
Decoding treats cells as independent given the image and returns the posterior of the best string
among the strings the grammar allows, which is what the calibrated threshold is fitted on.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Grammar:
    """kind: digits | letters | position | mark. For position, `rows` and `columns` bound the two signs."""

    kind: str
    min_len: int = 1
    max_len: int = 15
    rows: str = "ABCDEFGHIJKLMNO"
    columns: int = 15

    @classmethod
    def from_dict(cls, d: dict) -> "Grammar":
        return cls(kind=d["kind"], min_len=d.get("min_len", 1), max_len=d.get("max_len", 15),
                   rows=d.get("rows", "ABCDEFGHIJKLMNO"), columns=d.get("columns", 15))

    def alphabet(self) -> str:
        return {"digits": DIGITS, "letters": LETTERS}.get(self.kind, DIGITS + LETTERS)

    def candidates(self, n: int) -> list[str]:
        """All strings of length n the grammar allows (only enumerated for short position fields)."""
        if self.kind != "position":
            raise ValueError(f"candidates() is only defined for position fields, not {self.kind}")
        numbers = [str(i) for i in range(1, self.columns + 1)]
        out = [r + c for r in self.rows for c in numbers if 1 + len(c) == n]
        out += [c + r for r in self.rows for c in numbers if 1 + len(c) == n]
        return out


@dataclass(frozen=True)
class Decoded:
    text: str
    confidence: float
    valid: bool  # False when no allowed string has the number of written cells


def decode(grammar: Grammar, probs: np.ndarray, classes: str) -> Decoded:
    """Best allowed string for per-cell class probabilities `probs` (n_cells × len(classes))."""
    n = probs.shape[0]
    if n == 0:
        return Decoded("", 1.0, grammar.min_len == 0)
    index = {c: i for i, c in enumerate(classes)}
    if grammar.kind == "position":
        cands = grammar.candidates(n)
        if not cands:
            return _free_decode(probs, classes, valid=False)
        cols = np.array([[index[ch] for ch in s] for s in cands])  # candidates x n
        scores = np.prod(probs[np.arange(n)[None, :], cols], axis=1)
        total = float(scores.sum())
        best = int(scores.argmax())
        if total <= 0:
            return Decoded(cands[best], 0.0, True)
        return Decoded(cands[best], float(scores[best] / total), True)
    alphabet = grammar.alphabet()
    cols = [index[c] for c in alphabet]
    sub = probs[:, cols]
    sub = sub / np.clip(sub.sum(axis=1, keepdims=True), 1e-12, None)
    best = sub.argmax(axis=1)
    text = "".join(alphabet[i] for i in best)
    conf = float(np.prod(sub[np.arange(n), best]))
    return Decoded(text, conf, grammar.min_len <= n <= grammar.max_len)


def _free_decode(probs: np.ndarray, classes: str, valid: bool) -> Decoded:
    best = probs.argmax(axis=1)
    return Decoded("".join(classes[i] for i in best), 0.0, valid)


