"""The digit reader beside the character reader: it splits the digits' share of the boxes that hold
only digits (table, score), and nothing else."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from scanner import glyph
from scanner.errors import ModelError
from scanner.pipeline import scan_page
from scanner.reader import DEFAULT_MODEL, OnnxReader, read_digit_boxes
from scanner.source import Page
from scanner.synth import fonts, glyphs
from scanner.synth.slip import SlipStyle, render_page, render_slip
from scanner.train import cells, mnist


def _digit_cells(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    images, labels = mnist.load("calibration")
    rng = np.random.default_rng(seed)
    picked = rng.choice(len(labels), n, replace=False)
    x = np.stack([glyph.normalise(cells.cell_image(glyphs.real_digit_mask(images[k]), rng)).image for k in picked])
    return x, labels[picked]


def test_the_shipped_reader_reads_digit_boxes_with_its_digit_reader_keeping_the_letters_share():
    reader = OnnxReader()
    assert reader.digits is not None and reader.digits.classes == "0123456789"
    x, labels = _digit_cells(40, seed=3)
    as_letters_and_digits = reader.probabilities(x)
    split = read_digit_boxes(reader, x, as_letters_and_digits)
    first = reader.classes.index("0")
    np.testing.assert_allclose(split[:, :first], as_letters_and_digits[:, :first])  # the letters' share stays
    np.testing.assert_allclose(split[:, first:].sum(1), as_letters_and_digits[:, first:].sum(1), rtol=1e-5)
    assert not np.allclose(split, as_letters_and_digits, atol=1e-3)
    # within the digits, the digit reader's order
    assert np.array_equal(split[:, first:].argmax(1), reader.digits.probabilities(x).argmax(1))
    assert (split[:, first:].argmax(1) == labels).mean() >= 0.95


def test_a_reader_without_a_digit_reader_leaves_the_boxes_as_read():
    reader = OnnxReader()
    reader.digits = None
    x, _ = _digit_cells(5, seed=4)
    probs = reader.probabilities(x)
    assert read_digit_boxes(reader, x, probs) is probs


def test_a_scanned_slip_has_only_the_boxes_a_digit_may_be_in_read_again(duplicat):
    """Table, round, score and position boxes get the digit reader's split (the position's row is a
    number; its letters' share stays the character reader's); the word, which holds no digit, is read
    by the character reader alone."""
    images, labels = mnist.load("calibration")
    style = SlipStyle(fonts=[p for p in fonts.resolve(fonts.CALIBRATION).paths if "dkg" in p.name])
    style.real_digits, style.real_digit_labels, style.real_digit_share = images, labels, 1.0
    values = {"tur": "7", "masa": "31", "poz": "H8", "puncte": "64", "depunere": "CASA"}
    rng = np.random.default_rng(11)
    page = render_page([render_slip(duplicat, values, rng, style)], rng)
    with_digits = OnnxReader()
    without = OnnxReader()
    without.digits = None
    [a] = scan_page(Page(Path("slip.png"), 1, page), with_digits, "cnn", (duplicat,))
    [b] = scan_page(Page(Path("slip.png"), 1, page), without, "cnn", (duplicat,))
    assert [c.probs for c in a.fields["depunere"].chars] == [c.probs for c in b.fields["depunere"].chars]
    changed = [name for name in ("tur", "masa", "poz", "puncte")
               if any(not np.allclose(ca.probs, cb.probs, atol=1e-4)
                      for ca, cb in zip(a.fields[name].chars, b.fields[name].chars))]
    assert changed == ["tur", "masa", "poz", "puncte"]
    first = with_digits.classes.index("0")
    for ca, cb in zip(a.fields["poz"].chars, b.fields["poz"].chars):  # the letters' share as it was
        np.testing.assert_allclose(ca.probs[:first], cb.probs[:first], rtol=1e-5, atol=1e-7)
    assert a.fields["puncte"].text == "64" and a.fields["masa"].text == "31" and a.fields["poz"].text == "H8"


def test_a_sidecar_naming_a_digit_reader_that_is_not_there_is_refused_naming_it(tmp_path):
    model = tmp_path / "reader.onnx"
    shutil.copy(DEFAULT_MODEL, model)
    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    meta["digits"] = "gone.onnx"
    model.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="gone.json"):
        OnnxReader(model)


def test_a_digit_reader_taught_from_a_reader_is_named_in_that_readers_sidecar(tmp_path):
    """`fluturas reader train-digits --init-from R.pt --out D.onnx` leaves R reading its digit boxes
    with D, wherever D is written."""
    from scanner.train.digits import name_in_reader

    reader_dir, digit_dir = tmp_path / "reader", tmp_path / "elsewhere"
    reader_dir.mkdir()
    digit_dir.mkdir()
    shipped = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    shutil.copy(DEFAULT_MODEL, reader_dir / "r.onnx")
    (reader_dir / "r.json").write_text(json.dumps({**shipped, "digits": None}))
    assert OnnxReader(reader_dir / "r.onnx").digits is None
    for suffix in (".onnx", ".json"):
        shutil.copy(DEFAULT_MODEL.parent / f"digits{suffix}", digit_dir / f"d{suffix}")
    name_in_reader(reader_dir / "r.pt", digit_dir / "d.onnx")
    assert json.loads((reader_dir / "r.json").read_text())["digits"] == "../elsewhere/d.onnx"
    assert OnnxReader(reader_dir / "r.onnx").digits.classes == "0123456789"


def test_a_digit_reader_taught_further_leaves_the_one_it_continues_as_it_was(tmp_path):
    """`train-digits --init-from digits.pt`: the digit reader's own sidecar is no character
    reader's and is not written to."""
    from scanner.train.digits import name_in_reader

    for suffix in (".onnx", ".json"):
        shutil.copy(DEFAULT_MODEL.parent / f"digits{suffix}", tmp_path / f"d{suffix}")
    before = (tmp_path / "d.json").read_bytes()
    name_in_reader(tmp_path / "d.pt", tmp_path / "d2.onnx")
    assert (tmp_path / "d.json").read_bytes() == before


def test_weights_that_are_not_a_readers_are_refused_before_any_drawing(tmp_path):
    """`train-digits --init-from` a file that is not a character reader's weights: one error naming
    it, at once, and nothing written (where torch is installed: the [train] extra)."""
    pytest.importorskip("torch")
    from scanner.errors import TrainingError
    from scanner.train.digits import DigitConfig, train_digit_reader

    weights = tmp_path / "w.pt"
    weights.write_text("not weights")
    with pytest.raises(TrainingError, match=f"{weights}: not the torch weights of a character reader"):
        train_digit_reader(tmp_path / "d.onnx", DigitConfig(init_from=str(weights)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.pt"]


def test_a_digit_reader_starts_from_the_shape_its_weights_sidecar_records(tmp_path):
    """A wider reader's weights start a wider digit reader (the shape fine-tuning reads from the
    sidecar); the shipped digit reader's weights, taught from the wide reader, a wide one again."""
    torch = pytest.importorskip("torch")
    from scanner.train.digits import starting_net
    from scanner.train.model import build

    wide = tmp_path / "wide.pt"
    torch.save(build("wide", len(cells.CLASSES)).state_dict(), wide)
    (tmp_path / "wide.json").write_text(json.dumps({**json.loads(DEFAULT_MODEL.with_suffix(".json").read_text()),
                                                    "recipe": {"arch": "wide"}}))
    assert starting_net(wide)[1] == "wide"
    assert starting_net(DEFAULT_MODEL.parent / "digits.pt")[1] == "wide"


def test_train_digits_takes_a_stroke_share_into_the_drawn_cells(monkeypatch, tmp_path):
    """`fluturas reader train-digits --stroke-share 0.3`: the share reaches the recipe the digit cells
    are drawn with (the run itself is replaced: tests never train); above 1 it is refused."""
    from click.testing import CliRunner

    from cli import main
    from scanner.reader import ReaderMeta
    from scanner.train import digits

    seen = []
    monkeypatch.setattr(digits, "train_digit_reader",
                        lambda out, cfg, log: seen.append(cfg) or ReaderMeta("0123456789", 32, 1.0, 0.0, 0.0, {}, {}))
    weights = tmp_path / "r.pt"
    weights.write_bytes(b"weights")
    for flags in ([], ["--stroke-share", "0.3"]):
        run = CliRunner().invoke(main, ["reader", "train-digits", "--init-from", str(weights),
                                        "--out", str(tmp_path / "d.onnx"), *flags])
        assert run.exit_code == 0, run.output
    assert [cfg.stroke_share for cfg in seen] == [0.0, 0.3]
    run = CliRunner().invoke(main, ["reader", "train-digits", "--init-from", str(weights), "--stroke-share", "1.5"])
    assert run.exit_code == 2 and "--stroke-share" in run.output

    drawn = []
    monkeypatch.setattr(digits, "build_cells", lambda split, n, seed, augment, workers, recipe, **kw:
                        drawn.append((recipe, kw["classes"])) or (np.zeros((1, 32, 32), np.float32),
                                                                   np.array([digits.FIRST_DIGIT])))
    x, y = digits.digit_cells(digits.DigitConfig(init_from="r.pt", stroke_share=0.3, train_slips=0))
    assert drawn[0][0].stroke_share == 0.3 and drawn[0][1] == "0123456789" and y.tolist() == [0]


def test_a_digit_reader_without_weights_to_start_from_starts_from_random_ones_of_its_shape(monkeypatch, tmp_path):
    """`fluturas reader train-digits --arch wide` (no --init-from): random weights of that shape, so
    that its mistakes owe nothing to another reader's; --arch beside --init-from is refused (exit 2),
    as is a shape no reader has (where torch is installed, the network itself is built)."""
    from click.testing import CliRunner

    from cli import main
    from scanner.reader import ReaderMeta
    from scanner.train import digits

    seen = []
    monkeypatch.setattr(digits, "train_digit_reader",
                        lambda out, cfg, log: seen.append(cfg) or ReaderMeta("0123456789", 32, 1.0, 0.0, 0.0, {}, {}))
    run = CliRunner().invoke(main, ["reader", "train-digits", "--arch", "wide", "--out", str(tmp_path / "d.onnx")])
    assert run.exit_code == 0, run.output
    assert (seen[0].init_from, seen[0].arch) == (None, "wide")
    weights = tmp_path / "r.pt"
    weights.write_bytes(b"weights")
    run = CliRunner().invoke(main, ["reader", "train-digits", "--arch", "wide", "--init-from", str(weights)])
    assert run.exit_code == 2 and "--arch" in run.output and len(seen) == 1
    torch = pytest.importorskip("torch")
    from scanner.errors import TrainingError

    a, arch = digits.fresh_net("charnet", 7)
    b, _ = digits.fresh_net("charnet", 7)
    assert arch == "charnet" and all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values()))
    with pytest.raises(TrainingError, match="--arch round: not a reader shape"):
        digits.fresh_net("round", 7)
