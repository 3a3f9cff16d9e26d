"""Random but well-formed field values for a template (benchmarks and tests)."""
from __future__ import annotations

import numpy as np

from scanner.grammar import LETTERS
from scanner.template import Template


def random_values(t: Template, rng: np.random.Generator, joker_rate: float = 0.15) -> tuple[dict[str, str], dict[str, list[int]]]:
    """Values for every field (digits, positions in either order, words of 2-15 letters) and joker indices."""
    values: dict[str, str] = {}
    jokers: dict[str, list[int]] = {}
    for f in t.fields:
        g = f.grammar
        n = len(f.boxes)
        if g.kind == "digits":
            values[f.name] = str(int(rng.integers(1, 10 ** min(n, g.max_len))))
        elif g.kind == "position":
            row, col = g.rows[rng.integers(len(g.rows))], str(rng.integers(1, g.columns + 1))
            values[f.name] = row + col if rng.random() < 0.5 else col + row
        elif g.kind == "letters":
            word = "".join(LETTERS[i] for i in rng.integers(len(LETTERS), size=rng.integers(2, n + 1)))
            values[f.name] = word
            jokers[f.name] = sorted(i for i in range(len(word)) if rng.random() < joker_rate)[:2]
        elif g.kind == "mark":
            values[f.name] = "X" if rng.random() < 0.3 else ""
    return values, jokers
