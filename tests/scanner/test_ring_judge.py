"""The ring judge (scanner/ringjudge.py) on real slips through the real scanner: circles the shape
rules turned down (a ring drawn wide around a large letter, a letter touching its ring) are found,
and plain letters, the round ones included, still carry no circle."""
from __future__ import annotations

import numpy as np

from scanner import ringjudge
from scanner.fields import read_fields
from scanner.synth import fonts
from scanner.synth.pen import CIRCLE_WAYS
from scanner.synth.slip import SlipStyle, draw_slip
from scanner.template import load_template

DUPLICAT = load_template("duplicat")
WORDS = ("PLATEA", "BOUDOIR", "MOMENT", "SQUAW", "CODOBELC", "GOGOMAN")


def _circles(reader, style, seeds: range) -> tuple[int, int, int]:
    """(circles drawn, circles found, circles found on letters drawn without one) on one slip a seed,
    each with two of its letters circled, the ways drawn in turn."""
    drawn = found = false = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        word = WORDS[seed % len(WORDS)]
        circled = sorted(int(i) for i in rng.choice(len(word), size=2, replace=False))
        marks = {("depunere", i): CIRCLE_WAYS[(seed + k) % len(CIRCLE_WAYS)] for k, i in enumerate(circled)}
        drawing = draw_slip(DUPLICAT, {"depunere": word}, rng, style, {"depunere": circled}, marks=marks)
        fields, _ = read_fields(drawing.image, DUPLICAT, reader, 8.0)
        f = fields["depunere"]
        ringed = {i for i in f.jokers if f.chars[i].joker == "circle"}
        drawn += len(circled)
        found += len(ringed & set(circled))
        false += len(ringed - set(circled))
    return drawn, found, false


def test_the_judge_finds_circles_the_shape_rules_turned_down(reader, monkeypatch):
    """Slips in the calibration faces (never trained on): the judge finds more of the circles drawn
    than the rules alone, and no more false ones."""
    style = SlipStyle(fonts=list(fonts.resolve(fonts.CALIBRATION).paths), overrun_share=0.1)
    drawn, judged, judged_false = _circles(reader, style, range(40))
    monkeypatch.setattr(ringjudge, "shipped", lambda: None)
    _, rules, rules_false = _circles(reader, style, range(40))
    assert judged > rules and judged >= 0.95 * drawn, (drawn, judged, rules)
    assert judged_false <= rules_false, (judged_false, rules_false)


def test_the_training_recipe_looks_at_rings_as_the_scanner_fits_them():
    """The judge's training examples come from the real scanner's ring search: on slips in the training
    faces every example is a view the size the shipped judge reads, labelled by whether a circle was
    drawn around that letter, and the circles drawn are among them."""
    from scanner.train import rings

    cfg = rings.RingConfig(jokers_per_word=4, circle_share=1.0, dot_share=0.0)
    style = SlipStyle(fonts=list(fonts.resolve(fonts.TRAIN).paths)[:5])
    ex = rings.Examples()
    for seed in range(4):
        ex.extend(rings._slip_examples(DUPLICAT, style, cfg, np.random.default_rng(seed), photo=False))
    assert sum(ex.marked) >= 3
    assert {len(v) for v in ex.views} == {ringjudge.width()}
    assert all(m == int(w.startswith("circle")) for m, w in zip(ex.marked, ex.ways))
    p = ringjudge.shipped().probabilities(np.stack(ex.views))
    assert p.shape == (len(ex.views),) and (p[np.array(ex.marked, bool)] > 0.5).mean() >= 0.9
