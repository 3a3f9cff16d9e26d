"""Shared fixtures of the scanner tests: the reader, the duplicate template, a writer unseen in training."""
from __future__ import annotations

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
