"""`fluturas reader combine`: readers of different shapes (the five-layer reader and a wide one) read
together as one ONNX model, their mean log-probability, calibrated for itself; its torch weights
rebuild it from the shape its sidecar names; its recipe names every face any member trained on; an
ensemble is not taken as a member."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="combining readers needs torch (pip install -e .[train])")

from scanner.reader import DEFAULT_MODEL, OnnxReader  # noqa: E402
from scanner.train.model import build  # noqa: E402
from scanner.train.recipe import TrainConfig, calibration_cells, combine_readers, training_digit_labels  # noqa: E402

SMALL = TrainConfig(calibration_slips=16, calibration_fields=2000, workers=1)
WIDE = DEFAULT_MODEL.parent / "checkpoints" / "wide-stage2.pt"


@pytest.fixture(scope="module")
def combined(tmp_path_factory):
    """The shipped five-layer reader and the wide checkpoint, combined."""
    where = tmp_path_factory.mktemp("combined")
    for name in ("reader.onnx", "reader.json", "reader.pt"):
        shutil.copy(DEFAULT_MODEL.parent / name, where / name)
    for suffix in (".json", ".pt"):
        shutil.copy(WIDE.with_suffix(suffix), where / f"wide{suffix}")
    for name, part in (("reader", slice(10, None)), ("wide", slice(0, 10))):  # members that saw different faces
        sidecar = json.loads((where / f"{name}.json").read_text())
        sidecar["recipe"]["fontsource_train"] = sidecar["recipe"]["fontsource_train"][part]
        if name == "wide":  # and one of them also learnt from the writers-apart digits
            sidecar["recipe"].update(writers_apart_digits=True, real_digits_train=training_digit_labels(True))
        (where / f"{name}.json").write_text(json.dumps(sidecar))
    meta = combine_readers([where / "reader.onnx", where / "wide.onnx"], where / "both.onnx", SMALL)
    return where, meta


def _member(where, name: str, arch: str):
    net = build(arch, 36)
    net.load_state_dict(torch.load(where / f"{name}.pt", map_location="cpu"))
    return net.eval()


def test_members_of_two_shapes_read_as_their_mean_log_probability(combined):
    where, meta = combined
    cells, labels = calibration_cells(SMALL)  # cut by the scanner from calibration-face slips
    assert len(cells) > 200
    x = torch.from_numpy(cells.astype(np.float32)[:, None])
    with torch.no_grad():
        small = torch.log_softmax(_member(where, "reader", "charnet")(x), 1).numpy()
        wide = torch.log_softmax(_member(where, "wide", "wide")(x), 1).numpy()
    reader = OnnxReader(where / "both.onnx")
    np.testing.assert_allclose(reader.logits(cells), (small + wide) / 2, atol=1e-4)
    disagree = small.argmax(1) != wide.argmax(1)
    assert disagree.any()  # two shapes, two ways of going wrong
    surer = np.maximum(np.exp(small).max(1), np.exp(wide).max(1))
    both = np.exp(reader.logits(cells))
    both /= both.sum(1, keepdims=True)
    assert (both.max(1)[disagree] < surer[disagree]).all()  # less sure where the members disagree
    sidecar = json.loads((where / "both.json").read_text())
    assert sidecar["recipe"]["arch"] == "charnet+wide"
    assert [m["model"] for m in sidecar["recipe"]["members"]] == ["reader.onnx", "wide.onnx"]
    small_faces, wide_faces = (m["fontsource_train"] for m in sidecar["recipe"]["members"])
    assert sidecar["recipe"]["fontsource_train"] == small_faces + wide_faces  # every face any member saw
    assert sidecar["recipe"]["writers_apart_digits"] is True
    assert sidecar["recipe"]["real_digits_train"] == training_digit_labels(True)  # the members' digits, together
    assert 0.3 < meta.temperature < 3


def test_the_ensembles_weights_rebuild_it_from_the_shape_its_sidecar_names(combined):
    where, _ = combined
    arch = json.loads((where / "both.json").read_text())["recipe"]["arch"]
    net = _member(where, "both", arch)
    cells, _ = calibration_cells(SMALL)
    with torch.no_grad():
        again = net(torch.from_numpy(cells[:50].astype(np.float32)[:, None])).numpy()
    np.testing.assert_allclose(again, OnnxReader(where / "both.onnx").logits(cells[:50]), atol=1e-4)


def test_an_ensemble_is_not_taken_as_a_member(combined, tmp_path):
    from click.testing import CliRunner

    from cli import main

    where, _ = combined
    run = CliRunner().invoke(main, ["reader", "combine", str(where / "both.onnx"), str(where / "reader.onnx"),
                                    "--out", str(tmp_path / "again.onnx"), "--slips", "4"])
    assert run.exit_code == 2, run.output
    assert "cannot be a member" in run.output and len(run.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())
