"""Training recipe of the dot judge (`scanner/dotjudge.py`). Needs torch and onnx (the [train] extra).

Slips are drawn in the training faces with many joker marks (dots of every way the pen module draws,
and circles and ticks, which are no dot), scanned one per page (a third as phone photos) and cut by
the real scanner: rings are searched and erased first, as at scan time, and every written box left is
one example, labelled by the way its mark was drawn. The judge is checked on slips drawn the same way
in the calibration faces, never trained on; the held-out faces are not touched.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from scanner import dotjudge, glyph
from scanner.fields import PAPER, context_mm
from scanner.marks import dot_evidence
from scanner.pipeline import PX_PER_MM
from scanner.synth.slip import SlipStyle
from scanner.template import Template
from scanner.train.judging import Examples, JudgeConfig, JudgeRecipe, judge_main, searched_fields, slips_drawn


@dataclass(frozen=True)
class DotConfig(JudgeConfig):
    seed: int = 20261126
    dot_weight: float = 1.0  # a missed dot against a false one, in the loss (a false dot costs a penalty too)


def _slip_examples(t: Template, style: SlipStyle, cfg: DotConfig, rng: np.random.Generator, photo: bool) -> Examples:
    out = Examples()
    for drawing, f, search in searched_fields(t, style, cfg, rng, photo):
        for i in range(len(f.boxes)):
            seen = search.view(i, context_mm(("dot",))) if search.jokers[i] is None else None
            if seen is None:
                continue
            crop, inner, avoid = seen
            level = glyph.ink_map(crop, PAPER)
            evidence = dot_evidence(level > glyph.INK_LEVEL, inner, PX_PER_MM, avoid, level)
            if evidence is not None:
                out.add(evidence.view, drawing.marks.get((f.name, i), ""), "dot", evidence.rule_score)
    return out


def recipe(cfg: DotConfig) -> JudgeRecipe:
    return JudgeRecipe("dot", partial(slips_drawn, _slip_examples), (dotjudge.PATCH, dotjudge.CONTEXT, dotjudge.RULES),
                       dotjudge.width(), cfg.dot_weight,
                       f"python -m scanner.train.dots --slips {cfg.train_slips} --seed {cfg.seed} --dot-weight {cfg.dot_weight}"
                       + (f" --ball-end-share {cfg.ball_end_share}" if cfg.ball_end_share else ""))


def main() -> None:
    judge_main("dot", dotjudge.MODEL, DotConfig, "dot_weight", recipe)


if __name__ == "__main__":
    main()
