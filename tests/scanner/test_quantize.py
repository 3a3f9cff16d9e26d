"""`fluturas reader quantize`: the shipped reader stored in 8-bit integers reads real cut cells as
the float one does, is calibrated again for itself, names the data that set its ranges, and a
reader already in integers is refused in one line."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("onnx", reason="quantising needs onnx (pip install -e .[dev] or .[train])")

from scanner.calibration import fit_temperature  # noqa: E402
from scanner.reader import DEFAULT_MODEL, OnnxReader  # noqa: E402
from scanner.train.quantize import quantize_reader  # noqa: E402
from scanner.train.recipe import TrainConfig, calibration_cells  # noqa: E402

SMALL = TrainConfig(calibration_slips=16, calibration_fields=2000, workers=1)


@pytest.fixture(scope="module")
def quantized(tmp_path_factory):
    """The shipped reader (and the digit reader its sidecar names) copied, then quantised."""
    where = tmp_path_factory.mktemp("quantized")
    for name in ("reader.onnx", "reader.json", "reader.pt", "digits.onnx", "digits.json"):
        shutil.copy(DEFAULT_MODEL.parent / name, where / name)
    meta = quantize_reader(where / "reader.onnx", where / "int8.onnx", SMALL, slips=4)
    return where, meta


def test_the_integer_reader_reads_real_cut_cells_as_the_float_one(quantized):
    where, meta = quantized
    cells, labels = calibration_cells(SMALL)  # cut by the scanner from calibration-face slips
    floats, ints = OnnxReader(where / "reader.onnx"), OnnxReader(where / "int8.onnx")
    p, q = floats.probabilities(cells), ints.probabilities(cells)
    assert len(cells) > 200
    assert (p.argmax(1) == q.argmax(1)).mean() >= 0.98
    assert (q.argmax(1) == labels).mean() >= (p.argmax(1) == labels).mean() - 0.02
    assert (where / "int8.onnx").stat().st_size < 0.5 * (where / "reader.onnx").stat().st_size
    assert ints.digits is not None  # the digit reader the float one names still reads the digit boxes


def test_the_integer_reader_is_calibrated_again_and_names_what_set_its_ranges(quantized):
    where, meta = quantized
    source = json.loads((where / "reader.json").read_text())
    sidecar = json.loads((where / "int8.json").read_text())
    assert sidecar["temperature"] == pytest.approx(meta.temperature) and 0.3 < meta.temperature < 3
    assert sidecar["recipe"]["quantized"]["from"] == "reader.onnx"
    assert "training faces" in sidecar["recipe"]["quantized"]["ranges"]
    assert sidecar["recipe"]["fontsource_train"] == source["recipe"]["fontsource_train"]
    assert (where / "int8.pt").read_bytes() == (where / "reader.pt").read_bytes()  # training goes on in floats
    import onnx

    ops = {node.op_type for node in onnx.load(str(where / "int8.onnx")).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops


def test_a_reader_already_in_integers_is_refused_in_one_line(quantized, tmp_path):
    from click.testing import CliRunner

    from cli import main

    where, _ = quantized
    before = sorted(p.name for p in where.iterdir())
    run = CliRunner().invoke(main, ["reader", "quantize", str(where / "int8.onnx"), "--out", str(tmp_path / "again.onnx")])
    assert run.exit_code == 2, run.output
    assert "already in 8-bit integers" in run.output and str(where / "int8.onnx") in run.output
    assert len(run.output.strip().splitlines()) == 1
    assert sorted(p.name for p in where.iterdir()) == before and not list(tmp_path.iterdir())
    assert np.isfinite(OnnxReader(where / "int8.onnx").threshold)
    bare = tmp_path / "bare.onnx"
    shutil.copy(where / "reader.onnx", bare)  # a model without its sidecar
    for args, named in (([str(bare)], "bare.json"), ([str(where / "reader.onnx"), "--slips", "0"], "--slips")):
        run = CliRunner().invoke(main, ["reader", "quantize", *args, "--out", str(tmp_path / "q.onnx")])
        assert run.exit_code == 2 and named in run.output and len(run.output.strip().splitlines()) == 1, run.output
    # one calibration slip holds few of the 36 signs: refused once the integer model is made, which is removed
    run = CliRunner().invoke(main, ["reader", "quantize", str(where / "reader.onnx"), "--slips", "1",
                                    "--out", str(tmp_path / "q.onnx")])
    errors = [line for line in run.output.splitlines() if line.startswith("error")]  # progress lines go before
    assert run.exit_code == 2 and errors == [run.output.strip().splitlines()[-1]], run.output
    assert "--slips 1: the calibration slips hold no" in errors[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bare.onnx"]
    assert sorted(p.name for p in where.iterdir()) == before


def test_a_digit_reader_is_quantised_on_digit_cells_and_gets_its_own_temperature(tmp_path):
    """The shipped digit reader (its float checkpoint, digits-wide), quantised: it reads the
    calibration digits as the float one does, its ranges are named as set by digit cells, and it is
    given a temperature and no threshold, as its training gives it."""
    source = DEFAULT_MODEL.parent / "checkpoints" / "digits-wide.onnx"
    for suffix in (".onnx", ".json", ".pt"):
        shutil.copy(source.with_suffix(suffix), tmp_path / f"float{suffix}")
    meta = quantize_reader(tmp_path / "float.onnx", tmp_path / "int8.onnx", SMALL, slips=8)
    sidecar = json.loads((tmp_path / "int8.json").read_text())
    assert sidecar["classes"] == "0123456789" and sidecar["threshold"] == 0.0
    assert "digit cells" in sidecar["recipe"]["quantized"]["ranges"]
    cells, labels = calibration_cells(SMALL)
    digit = labels >= 26
    float_reader = OnnxReader(tmp_path / "float.onnx", with_digits=False)
    int_reader = OnnxReader(tmp_path / "int8.onnx", with_digits=False)
    floats, ints = float_reader.probabilities(cells[digit]), int_reader.probabilities(cells[digit])
    assert digit.sum() > 40
    # its temperature is the one the calibration digits ask of the integer model itself
    assert sidecar["temperature"] == pytest.approx(meta.temperature)
    assert meta.temperature == pytest.approx(fit_temperature(int_reader.logits(cells[digit]), labels[digit] - 26))
    # rounding moves the logits a little (0.07 on average on the calibration digits), not the reading
    assert np.abs(float_reader.logits(cells[digit]) - int_reader.logits(cells[digit])).mean() < 0.2
    assert (floats.argmax(1) == ints.argmax(1)).mean() >= 0.98
    assert (ints.argmax(1) == labels[digit] - 26).mean() >= (floats.argmax(1) == labels[digit] - 26).mean() - 0.02
    assert (tmp_path / "int8.onnx").stat().st_size < 0.5 * (tmp_path / "float.onnx").stat().st_size
