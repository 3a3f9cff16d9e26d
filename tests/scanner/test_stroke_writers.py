"""Made-up writers printing capitals and digits stroke by stroke (`scanner.synth.stroke_writers`):
every sign drawn, read by the shipped reader as the sign it is labelled, and each writer different."""
from __future__ import annotations

import numpy as np

from scanner import glyph
from scanner.reader import OnnxReader
from scanner.synth import fonts, glyphs, stroke_writers
from scanner.train import cells

# Signs a reader cannot tell apart from the shape alone (the decoder folds them: evidence.LOOKALIKES).
LOOKALIKE = set("O0I1")


def _cells(ch: str, n: int) -> np.ndarray:
    out = []
    for i in range(n):
        rng = np.random.default_rng(7919 * i + ord(ch))
        out.append(glyph.normalise(cells.cell_image(stroke_writers.stroke_glyph(ch, rng), rng)).image)
    return np.stack(out)


def test_every_sign_has_a_skeleton_in_unit_height():
    skeletons = stroke_writers.skeletons()
    assert set(skeletons) == set(cells.CLASSES)
    for ch, strokes in skeletons.items():
        ys = [y for stroke in strokes for _, y in stroke]
        assert min(ys) >= -0.01 and 0.99 <= max(ys) <= (1.3 if ch in "JQ" else 1.01), ch
    assert set(stroke_writers.VARIANTS) <= set(cells.CLASSES)


def test_the_shipped_reader_reads_each_stroke_written_sign_as_its_label():
    """A variant drawn under the wrong label would teach the reader a wrong sign: every sign but the
    look-alikes is read as itself in most of its cells by a reader never trained on them."""
    reader = OnnxReader(with_digits=False)
    for ch in cells.CLASSES:
        if ch in LOOKALIKE:
            continue
        pred = reader.logits(_cells(ch, 12)).argmax(1)
        assert (pred == cells.CLASSES.index(ch)).mean() >= 0.75, ch


def test_each_writer_draws_the_sign_differently_and_a_seed_draws_it_again():
    a = stroke_writers.stroke_glyph("R", np.random.default_rng(1))
    b = stroke_writers.stroke_glyph("R", np.random.default_rng(1))
    c = stroke_writers.stroke_glyph("R", np.random.default_rng(2))
    assert np.array_equal(a, b)
    assert a.shape != c.shape or not np.allclose(a, c)


def test_a_careless_hand_moves_every_stroke_but_keeps_their_number():
    drawing = stroke_writers.skeletons()["H"]
    moved = stroke_writers.careless(drawing, np.random.default_rng(3))
    assert len(moved) == len(drawing)
    for before, after in zip(drawing, moved):
        assert len(before) == len(after)
        shift = np.abs(np.asarray(before) - np.asarray(after)).max()
        assert 0 < shift < 0.3


def test_printed_variants_are_drawn_now_and_then():
    """A serifed I has three strokes, the skeleton's one: both come out of many draws."""
    rng = np.random.default_rng(5)
    counts = [len(stroke_writers.drawing_of("I", rng)) for _ in range(200)]
    assert counts.count(3) > 30 and counts.count(1) > 80


def test_training_cells_take_the_asked_share_of_stroke_writers(monkeypatch):
    """`fluturas reader train --stroke-share 1`: every drawn letter from a stroke writer, none from a
    face; with the default, none from a stroke writer."""
    usable = [p for p in fonts.resolve(fonts.TRAIN).paths if glyphs.font_covers(str(p), cells.CLASSES)][:1]
    calls = {"face": 0, "strokes": 0}
    real_render, real_strokes = glyphs.render_glyph, stroke_writers.stroke_glyph

    def face(*args, **kwargs):
        calls["face"] += 1
        return real_render(*args, **kwargs)

    def strokes(*args, **kwargs):
        calls["strokes"] += 1
        return real_strokes(*args, **kwargs)

    monkeypatch.setattr(glyphs, "render_glyph", face)
    monkeypatch.setattr(stroke_writers, "stroke_glyph", strokes)
    x, y = cells.make_cells(usable, 1, seed=4, recipe=cells.CellRecipe(stroke_share=1.0), classes="ABC")
    assert calls["face"] == 0 and calls["strokes"] >= 3
    assert y.tolist() == [cells.CLASSES.index(c) for c in "ABC"] and x.shape == (3, 32, 32)
    calls.update(face=0, strokes=0)
    cells.make_cells(usable, 1, seed=4, classes="ABC")
    assert calls["strokes"] == 0 and calls["face"] >= 3


def test_a_recipe_names_the_stroke_writers_only_when_it_drew_from_them():
    from scanner.train import recipe

    assert "stroke_writers" not in recipe.recipe_of(recipe.TrainConfig(), {})
    drawn = recipe.recipe_of(recipe.TrainConfig(stroke_share=0.3), {"mode": "train"})
    assert drawn["stroke_writers"] == recipe.STROKE_WRITERS and drawn["stroke_share"] == 0.3
    assert "scanner/synth/bundled/hershey" in drawn["stroke_writers"]
    assert recipe.cell_recipe(recipe.TrainConfig(stroke_share=0.3)).stroke_share == 0.3


def test_reader_train_takes_the_stroke_share_and_refuses_one_above_1(monkeypatch, tmp_path):
    """`fluturas reader train --stroke-share 0.3` (the run itself is replaced: tests never train)."""
    from click.testing import CliRunner

    from cli import main
    from scanner.reader import ReaderMeta
    from scanner.train import recipe

    seen = []
    monkeypatch.setattr(recipe, "train_reader",
                        lambda out, cfg, log: seen.append(cfg) or ReaderMeta(cells.CLASSES, 32, 1.0, 0.99, 0.0, {}, {}))
    for flags in ([], ["--stroke-share", "0.3"]):
        run = CliRunner().invoke(main, ["reader", "train", "--out", str(tmp_path / "m.onnx"), *flags])
        assert run.exit_code == 0, run.output
    assert [cfg.stroke_share for cfg in seen] == [0.0, 0.3]
    run = CliRunner().invoke(main, ["reader", "train", "--out", str(tmp_path / "m.onnx"), "--stroke-share", "1.5"])
    assert run.exit_code == 2 and "--stroke-share" in run.output
