"""Training recipe of the ring judge (`scanner/ringjudge.py`). Needs torch and onnx (the [train] extra).

Slips are drawn in the training faces with many joker marks (circles of every way the pen module
draws, and dots and ticks, which are no circle), scanned one per page (a third as phone photos) and
searched for rings by the real scanner, box after box and again beside a ring erased, as at scan
time. Every ring fitted around a letter is one example, labelled by whether a circle was drawn
around that letter: the rings of plain letters (an O, a D, the bowl of a Q or of a script letter) and
the arcs of a neighbour's circle are the judge's counter-examples. The judge is checked on slips
drawn the same way in the calibration faces, never trained on; the held-out faces are not touched.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from scanner import glyph, ringjudge
from scanner.fields import PAPER, MarkSearch, context_mm
from scanner.synth.slip import SlipStyle
from scanner.template import Template
from scanner.train.judging import Examples, JudgeConfig, JudgeRecipe, judge_main, searched_fields, slips_drawn


@dataclass(frozen=True)
class RingConfig(JudgeConfig):
    seed: int = 20261128
    train_slips: int = 2500
    check_slips: int = 500
    circle_weight: float = 0.25  # a missed circle against a false one, in the loss (a false one marks a plain letter)
    dot_share: float = 0.2  # of the joker marks drawn: circles 0.7, dots 0.2, ticks the rest
    circle_share: float = 0.7
    jokers_per_word: int = 4


class _WatchedSearch(MarkSearch):
    """The scanner's mark search, keeping what the ring judge sees of every ring it fits. The rules
    alone decide which rings are erased, so that no verdict of a judge shapes its own examples."""

    judge_rings = False

    def __init__(self, work: np.ndarray, f, s: float) -> None:
        super().__init__(work, f, s)
        self.seen: list[tuple[int, np.ndarray, float]] = []  # (box, the judge's view, the rules' score)

    def look(self, i: int, kinds: tuple[str, ...]) -> None:
        super().look(i, kinds)
        found = self.found.get(i)
        if "circle" not in kinds or found is None or found.ring is None:
            return
        crop, inner, _ = self.view(i, context_mm(kinds))
        shape = found.ring
        rules = shape.score if shape.holds_letter else 0.25 * shape.score
        self.seen.append((i, ringjudge.features(glyph.ink_map(crop, PAPER), inner, shape), rules))


def _slip_examples(t: Template, style: SlipStyle, cfg: RingConfig, rng: np.random.Generator, photo: bool) -> Examples:
    out = Examples()
    for drawing, f, search in searched_fields(t, style, cfg, rng, photo, _WatchedSearch):
        for i, view, rules in search.seen:
            out.add(view, drawing.marks.get((f.name, i), ""), "circle", rules)
    return out


def recipe(cfg: RingConfig) -> JudgeRecipe:
    return JudgeRecipe("circle", partial(slips_drawn, _slip_examples), (ringjudge.RING, ringjudge.INSIDE, ringjudge.FACTS),
                       ringjudge.width(), cfg.circle_weight,
                       f"python -m scanner.train.rings --slips {cfg.train_slips} --seed {cfg.seed} "
                       f"--circle-weight {cfg.circle_weight}")


def main() -> None:
    judge_main("circle", ringjudge.MODEL, RingConfig, "circle_weight", recipe)


if __name__ == "__main__":
    main()
