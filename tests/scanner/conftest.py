"""Shared fixtures: one reader and small helpers that render real slip images for the real scanner."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scanner.pipeline import ScanOptions
from scanner.reader import make_reader
from scanner.synth import fonts
from scanner.synth.slip import SlipStyle
from scanner.template import load_template


@pytest.fixture(scope="session")
def reader():
    return make_reader("cnn")


@pytest.fixture(scope="session")
def duplicat():
    return load_template("duplicat")


@pytest.fixture()
def rng():
    return np.random.default_rng(1234)


@pytest.fixture(scope="session")
def style():
    # a calibration-set hand: never trained on, and the one the threshold was fitted on
    return SlipStyle(fonts=[p for p in fonts.resolve(fonts.CALIBRATION).paths if "dkg" in p.name])


@pytest.fixture(scope="session")
def options():
    return ScanOptions()


VALUES = {"tur": "7", "masa": "42", "poz": "H4", "puncte": "86", "depunere": "ZEFIR"}


def char_accuracy(reading, truth: dict[str, str]) -> float:
    right = total = 0
    for name, text in truth.items():
        got = reading.fields[name].text
        total += len(text)
        right += sum(a == b for a, b in zip(text, got)) if len(got) == len(text) else 0
    return right / total


def assert_accepted_fields_right(reading, truth: dict[str, str]) -> None:
    """The calibration promise: whatever the scanner accepts is what was written."""
    for name, text in truth.items():
        f = reading.fields[name]
        if f.accepted:
            assert f.text == text, (name, f.text, text, f.confidence)


def write(path: Path, image) -> Path:
    import cv2

    cv2.imwrite(str(path), image)
    return path
