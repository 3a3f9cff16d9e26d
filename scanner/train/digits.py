"""The digit reader: the character reader taught again on digits alone, for the boxes that hold only
digits (score, table). Needs the optional [train] extra.

The character reader shares its capacity among 36 signs, and on the digit boxes the decoder's worst
doubts are its digits (a score one digit off, a table read as another seated table). Starting from its
weights, this recipe trains on digit cells only, with the loss on the ten digit outputs: mostly real
handwritten digits (MNIST's training part, MNIST's test set, whose writers wrote no calibration or
held-out digit, scikit-learn's training part), each drawn again as another writer might, beside the
training faces' digits and the digits the scanner cuts from slips in the training faces. The
calibration digits fit its temperature; the held-out digits only measure it.
"""
from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from scanner.calibration import fit_temperature, softmax
from scanner.errors import TrainingError
from scanner.reader import ReaderMeta, meta_path
from scanner.train import cells, mnist
from scanner.train.recipe import (STROKE_WRITERS, TrainConfig, _require_torch, build_cells, build_slip_cells,
                                  calibration_cells, calibration_data, fit, logits_of, real_digit_accuracy,
                                  trained_arch, training_digit_labels, training_faces)

DIGITS = "0123456789"
FIRST_DIGIT = cells.CLASSES.index("0")


@dataclass(frozen=True)
class DigitConfig:
    # torch weights (.pt) it starts from: a character reader's, or a digit reader's to teach it further;
    # None: random weights of `arch`, so that its mistakes owe nothing to another reader's (an ensemble's
    # members disagree where they are unsure only when they were not taught from one another)
    init_from: str | None = None
    arch: str = "charnet"  # the shape of a reader started from random weights
    seed: int = 20261129
    n_per_digit: int = 8000  # drawn cells per digit
    real_share: float = 0.75  # share of drawn cells written with a real handwritten digit
    real_distortion: float = 0.7  # share of real digits drawn again as another writer (cells.REAL_DIGIT_STYLE)
    monoline_share: float = 0.25  # share of the faces' digits redrawn with a round pen
    stroke_share: float = 0.0  # share of the faces' digits printed stroke by stroke instead (synth.stroke_writers)
    train_slips: int = 400  # slips in the training faces cut by the scanner; their digit boxes are added
    epochs: int = 3
    learning_rate: float = 5e-4
    batch_size: int = 128
    threads: int = 2
    workers: int = 2
    calibration_slips: int = 400


def digit_cells(cfg: DigitConfig) -> tuple[np.ndarray, np.ndarray]:
    """The training cells (labels 0-9): drawn ones (`recipe.build_cells`, digits alone), then the
    digit boxes the scanner cut from slips in the training faces."""
    recipe = cells.CellRecipe(real_digit_share=cfg.real_share, monoline_share=cfg.monoline_share,
                              real_digit_distortion=cfg.real_distortion, stroke_share=cfg.stroke_share)
    x, y = build_cells("train", cfg.n_per_digit, cfg.seed, True, cfg.workers, recipe, writers_apart=True,
                       classes=DIGITS)
    if cfg.train_slips:
        xs, ys = build_slip_cells("train", cfg.train_slips, cfg.seed, cfg.workers, writers_apart=True)
        keep = ys >= FIRST_DIGIT
        x, y = np.concatenate([x, xs[keep]]), np.concatenate([y, ys[keep]])
    return x, y - FIRST_DIGIT


def digit_net(reader_net):
    """The character network seen through its ten digit outputs (what the ONNX export holds)."""
    torch = _require_torch()

    class DigitOutputs(torch.nn.Module):
        def __init__(self, net) -> None:
            super().__init__()
            self.net = net

        def forward(self, x):
            return self.net(x)[:, FIRST_DIGIT:FIRST_DIGIT + 10]

    return DigitOutputs(reader_net)


def starting_net(weights: Path):
    """(the character network of `weights`, its shape): the shape its sidecar records, as
    fine-tuning reads it (`recipe.trained_arch`; charnet without a sidecar). Weights that are not
    a character reader's are refused at once, before minutes of drawing cells."""
    torch = _require_torch()
    from scanner.train.model import build

    arch = trained_arch(weights) if meta_path(weights).exists() else "charnet"
    net = build(arch, len(cells.CLASSES))
    try:
        net.load_state_dict(torch.load(weights, map_location="cpu"))
    except Exception as exc:  # torch raises many kinds (unpickling, zip, key and shape mismatches)
        raise TrainingError(f"{weights}: not the torch weights of a character reader "
                            f"({type(exc).__name__})") from exc
    return net, arch


def fresh_net(arch: str, seed: int):
    """(a character network of shape `arch` with random weights drawn from `seed`, its shape)."""
    torch = _require_torch()
    from scanner.train.model import ARCHITECTURES, build

    if arch not in ARCHITECTURES:
        raise TrainingError(f"--arch {arch}: not a reader shape (one of {', '.join(ARCHITECTURES)})")
    torch.manual_seed(seed)
    return build(arch, len(cells.CLASSES)), arch


def fit_on_calibration_digits(logits_of_cells: Callable[[np.ndarray], np.ndarray],
                              cfg: TrainConfig) -> tuple[float, dict]:
    """A digit reader's temperature, fitted on the calibration slips' digit cells, and its accuracy
    there: one fit, so a reader trained and the same reader in 8-bit integers are calibrated alike."""
    xc, yc = calibration_cells(cfg)
    digit = yc >= FIRST_DIGIT
    if not digit.any():
        raise TrainingError(f"--slips {cfg.calibration_slips}: the calibration slips hold no digit; calibrate on more slips")
    logits, labels = logits_of_cells(xc[digit]), yc[digit] - FIRST_DIGIT
    temperature = fit_temperature(logits, labels)
    accuracy = float((softmax(logits, temperature).argmax(1) == labels).mean())
    return temperature, {"calibration_digit_cells": int(digit.sum()), "calibration_digit_accuracy": round(accuracy, 4)}


def train_digit_reader(out: Path, cfg: DigitConfig, log=lambda s: None) -> ReaderMeta:
    """Train from the character reader's weights, fit the temperature on the calibration digits,
    export `out` (.onnx), its torch weights (.pt) and its sidecar JSON."""
    torch = _require_torch()
    from scanner.train.recipe import export_onnx

    torch.set_num_threads(cfg.threads)
    t0 = time.time()
    net, arch = starting_net(Path(cfg.init_from)) if cfg.init_from else fresh_net(cfg.arch, cfg.seed)
    model = digit_net(net)
    x, y = digit_cells(cfg)
    log(f"{len(x)} digit cells in {time.time() - t0:.0f} s")
    fit(model, x, y, TrainConfig(seed=cfg.seed, batch_size=cfg.batch_size, schedule="cosine"),
        cfg.epochs, cfg.learning_rate, log)
    seconds = time.time() - t0
    temperature, metrics = fit_on_calibration_digits(lambda x: logits_of(model, x),
                                                     TrainConfig(calibration_slips=cfg.calibration_slips))
    metrics.update({
        "mnist_digit_accuracy_test_part": round(real_digit_accuracy(net, mnist.load("test")), 4),
        "training_seconds": round(seconds)})
    log(f"calibration digits: {metrics['calibration_digit_accuracy']:.4f}, temperature {temperature:.3f}; "
        f"MNIST test part {metrics['mnist_digit_accuracy_test_part']:.4f}")
    out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(model, out)
    torch.save(net.state_dict(), out.with_suffix(".pt"))
    recipe = {**asdict(cfg), "init_from": Path(cfg.init_from).name if cfg.init_from else None, "arch": arch, **training_faces(),
              "font_split": "scanner/synth/fonts.py", "fontsource_split": "scanner/synth/fontsource.py",
              **calibration_data(), "real_digits_train": training_digit_labels(True),
              "real_digits_eval": [mnist.label("test")],
              **({"stroke_writers": STROKE_WRITERS} if cfg.stroke_share else {})}
    # no threshold of its own: a digit field is accepted on the character reader's threshold
    meta = ReaderMeta(DIGITS, 32, temperature, 0.0, 0.0, recipe, metrics)
    meta.save(meta_path(out))
    if cfg.init_from:
        name_in_reader(Path(cfg.init_from), out)
    return meta


def name_in_reader(weights: Path, digit_model: Path) -> None:
    """Name the digit reader in the sidecar of the character reader it was taught from (the `.json`
    beside its weights), so that reader reads its digit boxes with it from now on. A digit reader
    taught further from a digit reader's weights is named nowhere: the character reader that names
    the one it continues keeps naming that file, which the default `--out` replaces."""
    sidecar = meta_path(weights)
    if not sidecar.exists():
        return
    reader = ReaderMeta.load(sidecar)
    if reader.classes == DIGITS:
        return
    reader.digits = os.path.relpath(digit_model.resolve(), sidecar.resolve().parent)
    reader.save(sidecar)
