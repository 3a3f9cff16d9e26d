"""Training data of the reader: the font and real-digit splits the benchmark's claims rest on."""
from __future__ import annotations

import numpy as np
import pytest

from scanner.synth import fonts, glyphs
from scanner.train import cells


def test_font_splits_are_installed_and_disjoint():
    train, calibration, held_out = (fonts.resolve(s) for s in (fonts.TRAIN, fonts.CALIBRATION, fonts.HELD_OUT))
    for split in (train, calibration, held_out):
        assert split.missing == (), f"install.sh should have installed {split.missing}"
    assert not set(train.paths) & set(calibration.paths)
    assert not set(train.paths) & set(held_out.paths)
    assert not set(calibration.paths) & set(held_out.paths)


def test_every_font_family_is_drawn_equally_often_whatever_its_number_of_weights():
    train = fonts.resolve(fonts.TRAIN)
    weight = dict(zip(train.paths, train.weights()))
    assert sorted(p for g in train.groups for p in g) == sorted(train.paths)
    for group in train.groups:
        assert abs(sum(weight[p] for p in group) - 1.0) < 1e-9
    assert max(len(g) for g in train.groups) > 1  # the weighting matters: some families have many files


def test_script_faces_are_drawn_as_often_as_asked_against_printing_families():
    """`fluturas reader train --script-weight 0.3`: each script face weighs 0.3 of a printing family,
    every other face and family unchanged; the default draws every family equally."""
    from scanner.synth import fontsource

    scripts = {fontsource.face_path(f) for f in fontsource.SCRIPT}
    if not scripts & set(fonts.writers("train").paths):
        pytest.skip("the @fontsource faces are not fetched (python -m scanner.synth.fontsource)")
    even, less = fonts.writers("train"), fonts.writers("train", script_weight=0.3)
    assert even.paths == less.paths and set(fontsource.SCRIPT) <= set(fontsource.TRAIN)
    assert set(even.weights()) >= {1.0} and sum(even.weights()) == pytest.approx(len(even.groups))
    for path, w_even, w_less in zip(even.paths, even.weights(), less.weights()):
        assert w_less == pytest.approx(w_even * (0.3 if path in scripts else 1.0)), path
    assert fonts.writers("validation", script_weight=0.3).weights() == fonts.writers("validation").weights()


def test_make_cells_never_draws_a_font_of_weight_zero(monkeypatch):
    usable = [p for p in fonts.resolve(fonts.TRAIN).paths if glyphs.font_covers(str(p), cells.CLASSES)][:2]
    drawn: list[str] = []
    real_render = glyphs.render_glyph

    def spy(char, font_path, rng, *args, **kwargs):
        drawn.append(str(font_path))
        return real_render(char, font_path, rng, *args, **kwargs)

    monkeypatch.setattr(glyphs, "render_glyph", spy)
    x, y = cells.make_cells(usable, 2, seed=3, weights=[0.0, 1.0])
    assert set(drawn) == {str(usable[1])}
    assert x.shape == (2 * len(cells.CLASSES), 32, 32) and np.bincount(y).tolist() == [2] * len(cells.CLASSES)


def test_real_digit_parts_for_training_calibration_and_evaluation_do_not_overlap():
    n = len(cells.load_real_digits(slice(None))[1])
    parts = [set(range(n)[s]) for s in (cells.REAL_DIGIT_TRAIN, cells.REAL_DIGIT_CALIBRATION, cells.REAL_DIGIT_EVAL)]
    assert all(parts)
    assert not parts[0] & parts[1] and not parts[0] & parts[2] and not parts[1] & parts[2]
    assert set().union(*parts) == set(range(n))


def test_a_cell_that_lost_its_glyph_is_not_taught():
    """Fading can leave a blank cell or a few dots; taught with a label, that is noise (cells.legible)."""
    font = next(str(p) for p in fonts.resolve(fonts.TRAIN).paths if glyphs.font_covers(str(p), cells.CLASSES))
    rng = np.random.default_rng(1)
    mask = glyphs.render_glyph("K", font, rng)
    cell = cells.glyph.normalise(cells.cell_image(mask, rng)).image
    assert cells.legible(cell, mask)
    assert not cells.legible(np.zeros_like(cell), mask)
    dots = np.zeros_like(cell)
    dots[5:8, 5:8] = dots[20:23, 24:27] = 1.0
    assert not cells.legible(dots, mask)


def test_held_out_faces_come_bundled_for_a_machine_without_the_packages(tmp_path, monkeypatch):
    """An installed wheel renders the sample tournament without system fonts (scanner/synth/bundled)."""
    from scanner.synth import fonts

    monkeypatch.setattr(fonts, "FONT_ROOT", tmp_path)  # no system font at all
    found = fonts.resolve(fonts.HELD_OUT)
    assert not found.missing and len(found.groups) == len(fonts.HELD_OUT)
    assert all(fonts.BUNDLED in p.parents for p in found.paths)
    assert fonts.resolve(fonts.TRAIN).paths == ()  # training faces are never bundled


def test_the_committed_model_names_exactly_the_fonts_it_was_trained_on():
    from scanner.reader import DEFAULT_MODEL, ReaderMeta, meta_path

    recipe = ReaderMeta.load(meta_path(DEFAULT_MODEL)).recipe
    assert recipe["fonts_train"] == fonts.split_entries(fonts.TRAIN)
    assert not set(recipe["fonts_train"]) & set(fonts.split_entries(fonts.HELD_OUT))
    assert not set(recipe["fonts_calibration"]) & set(fonts.split_entries(fonts.HELD_OUT))


def test_the_committed_models_name_exactly_the_real_digits_they_were_trained_on():
    """The shipped reader's and the checkpoints' real training digits are the ones their options
    draw, and never a part that calibrates or measures; the writers-apart checkpoints drew on them."""
    from scanner.reader import DEFAULT_MODEL, ReaderMeta, meta_path
    from scanner.train import mnist
    from scanner.train.recipe import training_digit_labels

    checkpoints = DEFAULT_MODEL.parent / "checkpoints"
    sidecars = [meta_path(DEFAULT_MODEL), checkpoints / "stage8-digits.json",
                checkpoints / "stage10-writers-apart.json", checkpoints / "scratch1.json"]
    for sidecar in sidecars:
        recipe = ReaderMeta.load(sidecar).recipe
        apart = recipe.get("writers_apart_digits", False)
        assert recipe["real_digits_train"] == training_digit_labels(apart), sidecar.name
        assert not {mnist.label("calibration"), mnist.label("test")} & set(recipe["real_digits_train"])
        assert apart == (sidecar.name in ("stage10-writers-apart.json", "scratch1.json"))


def test_no_never_used_face_in_any_split_or_in_the_shipped_recipe():
    """Faces listed by hash in never-used-faces.sha256 are never trained, calibrated or measured on."""
    import json

    from scanner.reader import DEFAULT_MODEL, meta_path
    from scanner.synth import fontsource

    banned = fontsource.never_used()
    assert len(banned) >= 40
    chosen = fontsource.chosen()
    assert len(chosen) == len(set(chosen)), "a face sits in two splits"
    assert not {fontsource.id_hash(f) for f in chosen} & banned
    recipe = json.loads(meta_path(DEFAULT_MODEL).read_text())["recipe"]
    seen = recipe.get("fontsource_train", []) + recipe.get("fontsource_calibration", [])
    assert not {fontsource.id_hash(f) for f in seen} & banned
    assert set(recipe.get("fontsource_train", [])) <= set(fontsource.TRAIN)
    assert set(recipe.get("fontsource_calibration", [])) <= set(fontsource.CALIBRATION)


def test_the_shipped_reader_never_trained_on_a_calibration_validation_or_held_out_face():
    """The calibration and validation faces stay hands the reader never saw: none is among the faces
    its recipe trained on, and a near-twin of a held-out face (delius / delius-swash-caps) sits in no other split."""
    import json

    from scanner.reader import DEFAULT_MODEL, meta_path
    from scanner.synth import fontsource

    recipe = json.loads(meta_path(DEFAULT_MODEL).read_text())["recipe"]
    trained = set(recipe["fontsource_train"])
    assert not trained & set(fontsource.CALIBRATION)
    assert not trained & set(fontsource.HELD_OUT) and not trained & set(fontsource.VALIDATION)
    others = fontsource.TRAIN + fontsource.CALIBRATION + fontsource.VALIDATION
    twins = [(f, h) for h in fontsource.HELD_OUT for f in others if f.startswith(h + "-") or h.startswith(f + "-")]
    assert not twins


def test_the_shipped_dot_judge_trained_on_training_faces_only_and_names_them():
    """The dot judge's recipe names the faces it trained and was checked on: the training split's,
    none of them a calibration, validation or held-out face, none listed never to be used."""
    import json

    from scanner import dotjudge
    from scanner.synth import fontsource

    recipe = json.loads(dotjudge.MODEL.with_suffix(".json").read_text())["recipe"]
    trained = set(recipe["fontsource_train"])
    assert trained and trained <= set(fontsource.TRAIN)
    assert not trained & (set(fontsource.CALIBRATION) | set(fontsource.VALIDATION) | set(fontsource.HELD_OUT))
    assert set(recipe["fontsource_calibration"]) <= set(fontsource.CALIBRATION)
    assert not {fontsource.id_hash(f) for f in trained | set(recipe["fontsource_calibration"])} & fontsource.never_used()


def test_fetching_a_never_used_face_is_refused(tmp_path, monkeypatch):
    from scanner.synth import fontsource

    banned_face = "test-face-banned"
    listed = tmp_path / "never.sha256"
    listed.write_text(f"# test\n{fontsource.id_hash(banned_face)}\n")
    monkeypatch.setattr(fontsource, "NEVER_USED", listed)
    monkeypatch.setattr(fontsource, "CACHE", tmp_path / "cache")
    with pytest.raises(ValueError, match="never to be used"):
        fontsource.fetch([banned_face])


def test_mnist_parts_are_disjoint_and_only_the_first_half_is_kept():
    from scanner.train import mnist

    images, labels, index = mnist._all()
    for digit, count in enumerate((1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978)):  # the npm files' counts
        assert (labels == digit).sum() == count // 2
        assert index[labels == digit].max() == count // 2 - 1
    sizes = [len(mnist.load(p)[1]) for p in mnist.PARTS]
    assert sum(sizes) == len(labels)
    train, test = mnist.load("train")[0], mnist.load("test")[0]
    assert not {a.tobytes() for a in train[:200]} & {b.tobytes() for b in test}


def test_the_writers_apart_digits_are_mnist_test_set_and_share_no_digit_with_the_first_half():
    """mnist.load_writers_apart: MNIST's 10,000 test digits, none of them a digit of the first half
    (whose calibration and held-out parts measure the reader), and only training draws on them."""
    from scanner.train import mnist, recipe

    images, labels = mnist.load_writers_apart()
    assert images.shape == (10000, 28, 28) and images.dtype == np.uint8
    counts = np.bincount(labels, minlength=10)  # MNIST's published test-set counts
    assert counts.tolist() == [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
    first_half = {a.tobytes() for a in mnist._all()[0]}
    assert not first_half & {a.tobytes() for a in images}
    assert [len(lab) for _, lab in mnist.training_parts(False)] == [len(mnist.load("train")[1])]
    with_apart = recipe.training_digits(writers_apart=True)
    assert sum(len(lab) for _, lab in with_apart) == 1000 + len(mnist.load("train")[1]) + 10000
    assert any("test set" in name for name in recipe.training_digit_labels(True))
    assert not any("test set" in name for name in recipe.training_digit_labels(False))


def test_a_typeface_letter_is_redrawn_as_printed_with_one_round_pen():
    """monoline.redraw: a bold face's thick strokes become one line, one pen wide, and the letter
    stays the letter (the reader still reads it)."""
    import cv2

    from scanner import glyph
    from scanner.reader import OnnxReader
    from scanner.synth import monoline

    def half_width(mask):
        return cv2.distanceTransform((mask > 0.5).astype(np.uint8), cv2.DIST_L2, 5).max()

    bold = next(str(p) for p in fonts.resolve(fonts.TRAIN).paths if p.name == "DejaVuSans-Bold.ttf")
    rng = np.random.default_rng(2)
    reader = OnnxReader()
    for char in "HKR":
        raw = glyphs._raw(char, bold)
        line = monoline.thin(raw > 0.5)
        assert cv2.connectedComponents(line)[0] - 1 == 1  # one centre line, not broken
        assert cv2.distanceTransform(line, cv2.DIST_L2, 3).max() <= 1.0  # one pixel wide
        drawn = monoline.redraw(raw, 5)
        assert half_width(drawn) <= 4.0 and half_width(raw) >= 6.0
        cell = glyph.normalise(cells.cell_image(glyphs._crop(drawn), rng)).image
        assert reader.classes[int(reader.logits(cell[None]).argmax())] == char


def test_a_real_digit_is_drawn_again_as_another_writer_and_stays_its_digit():
    """cells.REAL_DIGIT_STYLE: the few thousand real training digits are varied (slant, pen, wobble)
    so the reader does not learn them by heart; the varied digit is another drawing, and the shipped
    reader still reads it as the digit it was."""
    from scanner import glyph
    from scanner.reader import OnnxReader
    from scanner.train import mnist

    images, labels = mnist.load("train")
    rng = np.random.default_rng(4)
    reader = OnnxReader()
    picked = rng.choice(len(labels), 60, replace=False)
    read_right = 0
    for k in picked:
        mask = glyphs.real_digit_mask(images[k])
        varied = glyphs.distort(mask, rng, cells.REAL_DIGIT_STYLE)
        assert varied.shape != mask.shape or np.abs(varied - mask).mean() > 0.01
        cell = glyph.normalise(cells.cell_image(varied, rng)).image
        read_right += reader.classes[int(reader.logits(cell[None]).argmax())] == str(labels[k])
    assert read_right >= 55


def test_training_cells_vary_real_digits_only_when_asked():
    font = [p for p in fonts.resolve(fonts.TRAIN).paths if glyphs.font_covers(str(p), cells.CLASSES)][:1]
    from scanner.train import mnist

    real = [mnist.load("train")]
    plain = cells.CellRecipe(real_digit_share=1.0)
    varied = cells.CellRecipe(real_digit_share=1.0, real_digit_distortion=1.0)
    a, _ = cells.make_cells(font, 2, seed=5, recipe=plain, real_digits=real)
    b, _ = cells.make_cells(font, 2, seed=5, recipe=plain, real_digits=real)
    c, y = cells.make_cells(font, 2, seed=5, recipe=varied, real_digits=real)
    digits = np.array([cells.CLASSES[k].isdigit() for k in y])
    assert np.array_equal(a, b)
    assert not np.array_equal(a[digits], c[digits])
    assert np.array_equal(a[~digits], c[~digits])  # the letters (drawn first) are as they were


def _family_key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def test_no_fetched_face_is_a_debian_font_of_another_split():
    """A fetched face and a Debian font of the same family are one hand: Klee One calibrating a reader
    trained on fonts-klee would make the calibration hands look unseen when they are not."""
    from PIL import ImageFont

    from scanner.synth import fontsource

    debian = {"train": fonts.TRAIN, "calibration": fonts.CALIBRATION, "held_out": fonts.HELD_OUT}
    family_split = {}
    for split, entries in debian.items():
        for path in fonts.resolve(entries).paths:
            family_split.setdefault(_family_key(ImageFont.truetype(str(path), 20).getname()[0]), set()).add(split)
    assert "kleeone" in family_split and "kaushanscript" in family_split  # the names are read, not guessed
    crossed = [(face, split, family_split[_family_key(face)]) for split, faces in fontsource.SPLITS.items()
               for face in faces if family_split.get(_family_key(face), {split}) - {split}]
    assert not crossed


def test_a_recalibration_records_the_faces_it_calibrated_on(tmp_path):
    """The recipe names exactly the data a model saw: refitting the temperature on today's
    calibration faces rewrites the faces its sidecar lists, whatever the training run listed."""
    import json
    import shutil

    from scanner.reader import DEFAULT_MODEL, meta_path
    from scanner.synth import fontsource
    from scanner.train.recipe import TrainConfig, recalibrate

    model = tmp_path / "reader.onnx"
    shutil.copy(DEFAULT_MODEL, model)
    for name in ("digits.onnx", "digits.json"):  # the digit reader its sidecar names
        shutil.copy(DEFAULT_MODEL.parent / name, tmp_path / name)
    sidecar = json.loads(meta_path(DEFAULT_MODEL).read_text())
    sidecar["recipe"]["fontsource_calibration"] = ["klee-one"]  # a face that left the split
    meta_path(model).write_text(json.dumps(sidecar))
    meta = recalibrate(model, TrainConfig(calibration_slips=40, calibration_fields=2000))
    recipe = json.loads(meta_path(model).read_text())["recipe"]
    assert recipe["fontsource_calibration"] == list(fontsource.CALIBRATION) == meta.recipe["fontsource_calibration"]
    assert recipe["fonts_calibration"] == fonts.split_entries(fonts.CALIBRATION)


def test_reader_train_takes_the_writers_apart_digits_and_the_script_weight_only_when_asked(monkeypatch, tmp_path):
    """`fluturas reader train --writers-apart-digits` and `--script-weight` set the recipe's options,
    a weight above 1 is refused (the run itself is replaced: tests never train)."""
    from click.testing import CliRunner

    from cli import main
    from scanner.reader import ReaderMeta
    from scanner.train import recipe

    seen = []

    def capture(out, cfg, log):
        seen.append(cfg)
        return ReaderMeta(cells.CLASSES, 32, 1.0, 0.99, 0.0, {}, {})

    monkeypatch.setattr(recipe, "train_reader", capture)
    for flags in ([], ["--writers-apart-digits"]):
        run = CliRunner().invoke(main, ["reader", "train", "--out", str(tmp_path / "m.onnx"), *flags])
        assert run.exit_code == 0, run.output
    assert [cfg.writers_apart_digits for cfg in seen] == [False, True]
    run = CliRunner().invoke(main, ["reader", "train", "--out", str(tmp_path / "m.onnx"), "--script-weight", "0.3"])
    assert run.exit_code == 0, run.output
    assert [cfg.script_weight for cfg in seen] == [1.0, 1.0, 0.3]
    run = CliRunner().invoke(main, ["reader", "train", "--out", str(tmp_path / "m.onnx"), "--script-weight", "2"])
    assert run.exit_code == 2 and "--script-weight" in run.output
