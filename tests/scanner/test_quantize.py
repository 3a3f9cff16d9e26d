"""`fluturas reader quantize`: the shipped reader stored in 8-bit integers reads real cut cells as
the float one does, is calibrated again for itself, names the data that set its ranges, and a
reader already in integers is refused in one line."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("onnx", reason="quantising needs onnx (pip install -e .[dev] or .[train])")

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
