"""Letters whose stroke ends carry a ball (`synth.glyphs.ball_ends`), the dot judge's counter-examples
of a joker dot: a ball sits on a stroke's end, narrower than a pressed dot, and a style without them
draws every glyph exactly as before."""
from __future__ import annotations

import numpy as np

from scanner.synth import fonts
from scanner.synth.glyphs import GlyphStyle, ball_ends, render_glyph


def _a_training_face():
    return next(iter(fonts.resolve(fonts.TRAIN).paths))


def test_a_ball_is_drawn_on_the_stroke_end_nearest_the_lower_right():
    stroke = np.zeros((80, 80), np.float32)
    stroke[10:70, 36:44] = 1.0  # an I, 8 pixels wide
    balled = ball_ends(stroke, np.random.default_rng(0), (1.6, 1.6))
    added = (balled > 0.5) & ~(stroke > 0.5)
    ys, xs = np.nonzero(added)
    assert added.sum() > 10 and ys.min() > 55  # at its lower end, not along the stem
    assert xs.max() - xs.min() + 1 <= 2 * 1.6 * 4 + 2  # about 1.6 times the stroke's width across


def test_without_balls_every_glyph_is_drawn_as_before():
    face = _a_training_face()
    plain = [render_glyph(ch, face, np.random.default_rng(7)) for ch in "KZL"]
    again = [render_glyph(ch, face, np.random.default_rng(7), GlyphStyle(ball_end_share=0.0)) for ch in "KZL"]
    balled = [render_glyph(ch, face, np.random.default_rng(7), GlyphStyle(ball_end_share=1.0)) for ch in "KZL"]
    assert all(np.array_equal(a, b) for a, b in zip(plain, again))
    assert not any(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(plain, balled))
