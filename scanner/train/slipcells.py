"""Cells cut by the real scanner from rendered slips, with their true characters.

Calibration uses these rather than loose synthetic cells: the confidence threshold must hold for what
the scanner actually feeds the model (rectified, dropped-out, joker marks erased).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from scanner.pipeline import scan_page
from scanner.source import Page
from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
from scanner.synth.values import random_values
from scanner.template import Template
from scanner.train.cells import CLASSES


class _Blind:
    """A reader that sees nothing: only the scanner's cuts are wanted here."""

    classes = CLASSES
    threshold = 1.0

    def probabilities(self, cells: np.ndarray) -> np.ndarray:
        return np.full((len(cells), len(CLASSES)), 1.0 / len(CLASSES), np.float32)


def slip_cells(t: Template, font_paths: list[Path], n_slips: int, seed: int,
               real_digits: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(cells N x 32 x 32, labels) from n_slips slips scanned one per page; a third as phone photos."""
    rng = np.random.default_rng(seed)
    style = SlipStyle(fonts=list(font_paths))
    if real_digits is not None:
        style.real_digits, style.real_digit_labels = real_digits
        style.real_digit_share = 0.5
    xs, ys = [], []
    for k in range(n_slips):
        values, jokers = random_values(t, rng)
        img = render_slip(t, values, rng, style, jokers)
        page = render_page([img], rng, PageStyle(photo=k % 3 == 0, jpeg_quality=85 if k % 3 == 0 else None))
        for r in scan_page(Page(Path(f"cal{k}"), 1, page), _Blind(), "cnn", (t,)):
            for name, text in values.items():
                cells = r.cells.get(name)
                if cells is not None and len(cells) == len(text):
                    xs.extend(cells)
                    ys.extend(CLASSES.index(c) for c in text)
    return np.stack(xs), np.array(ys, np.int64)
