"""The dot judge (scanner/dotjudge.py) on real slips through the real scanner: plain letters leave it
sure there is no dot, so the decoder is not left to weigh a half-seen mark on every heavy stroke end."""
from __future__ import annotations

import numpy as np

from scanner import dotjudge
from scanner.fields import read_fields
from scanner.synth import fonts
from scanner.synth.slip import SlipStyle, draw_slip
from scanner.template import load_template

DUPLICAT = load_template("duplicat")
WORDS = ("ABCDEFGHIJKLMNO", "PQRSTUVWXYZOQBD", "GCUMWNVKXRSZEFH", "VALVULARA", "ZIGZAGUL", "LINGURITA")


def _dot_scores(reader, style) -> list[float]:
    scores = []
    for seed, word in enumerate(WORDS, start=70):
        drawing = draw_slip(DUPLICAT, {"depunere": word}, np.random.default_rng(seed), style, {"depunere": []})
        fields, _ = read_fields(drawing.image, DUPLICAT, reader, 8.0)
        scores += [c.marks.get("dot", 0.0) for c in fields["depunere"].chars]
    return scores


def test_the_judge_leaves_fewer_plain_letters_undecided_than_the_shape_rules(reader, monkeypatch):
    """Plain letters in the calibration faces: with the judge, far fewer of them score between 0.05 and
    0.5 (a half-seen dot the decoder must weigh) than with the shape rules alone, and most are near 0."""
    style = SlipStyle(fonts=list(fonts.resolve(fonts.CALIBRATION).paths))
    judged = np.array(_dot_scores(reader, style))
    monkeypatch.setattr(dotjudge, "shipped", lambda: None)
    rules = np.array(_dot_scores(reader, style))
    undecided = lambda s: int(((s >= 0.05) & (s <= 0.5)).sum())  # noqa: E731
    assert undecided(judged) <= undecided(rules) / 2, (undecided(judged), undecided(rules))
    assert (judged < 0.05).mean() >= 0.9, sorted(judged)[-10:]


def test_the_training_recipe_draws_its_examples_as_the_scanner_looks():
    """The judge's training examples come from the real scanner's mark search (rings erased first, the
    dot's context): one slip in the training faces gives a view per written letter box, each the size
    the shipped judge reads, labelled by how its mark was drawn."""
    from scanner.train import dots

    cfg = dots.DotConfig(jokers_per_word=3)
    style = SlipStyle(fonts=list(fonts.resolve(fonts.TRAIN).paths)[:3])
    ex = dots._slip_examples(DUPLICAT, style, cfg, np.random.default_rng(5), photo=False)
    assert len(ex.views) >= 3
    width = dotjudge.PATCH ** 2 + dotjudge.CONTEXT ** 2 + 2
    assert {len(v) for v in ex.views} == {width}
    assert all(d == int(w.startswith("dot")) for d, w in zip(ex.marked, ex.ways))
    assert dotjudge.shipped().probabilities(np.stack(ex.views)).shape == (len(ex.views),)  # one per box
