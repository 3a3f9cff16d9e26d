"""A trained reader in 8-bit integers, so that a wider network reads as fast as the small one did.

The `--arch wide` network does four times the work of the five-layer one on every cell, which alone
would bring the scan under its budget of 15 slips a second on two cores. Its weights and
activations stored as 8-bit integers (onnxruntime's static quantisation, one scale per output
channel) run about three times faster on a CPU. The activations' ranges are measured on cells the
scanner itself cut from slips written in the training faces, never on calibration, validation or
held-out hands; the integer model is then calibrated again (temperature and threshold) on the
calibration faces like any reader, since rounding shifts its confidences a little.

A digit reader (`fluturas reader train-digits`, ten classes) is quantised the same way, its ranges
set by the digit boxes alone of those training-face slips, and only its temperature refitted, on the
calibration digits, as its training fits it: it has no threshold of its own.

Needs the [train] extra (`onnx`, which onnxruntime's quantisation tools read models with).
"""
from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from scanner.errors import TrainingError
from scanner.reader import ReaderMeta, meta_path
from scanner.train.digits import DIGITS, FIRST_DIGIT, fit_on_calibration_digits
from scanner.train.recipe import TrainConfig, build_slip_cells, calibration_data, recalibrate

RANGE_SLIPS = 60  # slips whose cut cells set the activations' ranges (about 1,100 cells)
DIGIT_RANGE_SLIPS = 120  # a slip holds about ten digit boxes: twice the slips give a digit reader as many cells
BATCH = 64


def _tools():
    try:
        from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as exc:  # onnx is missing
        raise TrainingError("quantising needs the [train] extra (onnx): pip install -e '.[train]'") from exc
    return CalibrationDataReader, QuantFormat, QuantType, quantize_static, quant_pre_process


def range_cells(slips: int, seed: int, workers: int, digits_only: bool = False) -> np.ndarray:
    """Cells cut by the scanner from `slips` slips in the training faces, shaped as the reader takes
    them; with `digits_only`, the digit cells alone (what a digit reader is given)."""
    x, y = build_slip_cells("train", slips, seed, workers)
    if digits_only:
        x = x[y >= FIRST_DIGIT]
    return x[:, None].astype(np.float32)


def recalibrate_digits(model: Path, cfg: TrainConfig, log) -> ReaderMeta:
    """Refit a digit reader's temperature on the calibration slips' digit cells (as
    `scanner.train.digits` fits it after training) and rewrite its sidecar."""
    from scanner.reader import OnnxReader

    reader = OnnxReader(model, with_digits=False)
    temperature, metrics = fit_on_calibration_digits(reader.logits, cfg)
    meta = reader.meta
    meta.temperature = temperature
    meta.metrics.update(metrics)
    meta.recipe.update(calibration_data())
    meta.save(meta_path(model))
    log(f"calibration digits: {meta.metrics['calibration_digit_accuracy']:.4f}, temperature {temperature:.3f}")
    return meta


def quantize_reader(model: Path, out: Path, cfg: TrainConfig = TrainConfig(), slips: int = RANGE_SLIPS,
                    log=lambda s: None) -> ReaderMeta:
    """Write `out`, `model` in 8-bit integers, with the sidecar of `model` calibrated again for it
    and, beside it, the float weights (.pt) it came from, which training and fine-tuning continue."""
    reader_cls, fmt, qtype, quantize_static, pre_process = _tools()
    source = ReaderMeta.load(meta_path(model))  # refuses, naming it, a model without its sidecar
    if source.recipe.get("quantized"):
        raise TrainingError(f"{model}: this reader is already in 8-bit integers")
    digits = source.classes == DIGITS
    if digits and slips == RANGE_SLIPS:
        slips = DIGIT_RANGE_SLIPS
    t0 = time.time()
    cells = range_cells(slips, cfg.seed + 3, cfg.workers, digits_only=digits)
    kind = "digit cells" if digits else "cells"
    log(f"{len(cells)} {kind} from {slips} training-face slips set the activations' ranges")

    class Cells(reader_cls):
        def __init__(self) -> None:
            self.batches = iter(cells[i:i + BATCH] for i in range(0, len(cells), BATCH))

        def get_next(self):
            batch = next(self.batches, None)
            return None if batch is None else {"cells": batch}

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # ONNX's own shape inference suffices for these plain networks (the symbolic one needs sympy)
        pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        quantize_static(str(prepared), str(out), Cells(), quant_format=fmt.QDQ, per_channel=True,
                        activation_type=qtype.QUInt8, weight_type=qtype.QInt8)
    written = [out, meta_path(out)]
    if model.with_suffix(".pt").exists() and model.with_suffix(".pt") != out.with_suffix(".pt"):
        shutil.copyfile(model.with_suffix(".pt"), out.with_suffix(".pt"))
        written.append(out.with_suffix(".pt"))
    recipe = {**source.recipe, "quantized": {
        "from": model.name, "format": "onnxruntime static QDQ: weights int8 per channel, activations uint8",
        "ranges": f"{len(cells)} {kind} cut from {slips} slips in the training faces, seed {cfg.seed + 3}"}}
    replace(source, recipe=recipe).save(meta_path(out))
    try:
        meta = recalibrate_digits(out, cfg, log) if digits else recalibrate(out, cfg, log)
    except TrainingError:  # too few calibration slips: no reader is left behind with the float one's calibration
        for path in written:
            path.unlink(missing_ok=True)
        raise
    log(f"quantised in {time.time() - t0:.0f} s")
    return meta
