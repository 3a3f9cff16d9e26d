"""The benchmarks write each real handwritten digit as the digit a person reads in it
(`mnist.load_as_read`, `mnist.READ_AS`): a 2 of MNIST's test part that reads as a 1 is written
where a 1 is meant, never where a 2 is, so a slip's truth is what its ink shows."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from scanner.pipeline import scan_page
from scanner.reader import OnnxReader
from scanner.source import Page
from scanner.synth import fonts
from scanner.synth.slip import SlipStyle, render_page, render_slip
from scanner.train import mnist

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _the_one_read_as_1() -> np.ndarray:
    images, labels, index = mnist._all()
    [k] = np.where((labels == 2) & (index == 440))[0]
    return images[k]


def _benchmark(name: str):
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _holds(images: np.ndarray, labels: np.ndarray, image: np.ndarray, digit: int) -> bool:
    return any(np.array_equal(im, image) for im in images[labels == digit])


def test_a_digit_read_as_another_is_labelled_as_read_and_nothing_else_changes():
    for part in mnist.PARTS:
        images, labels = mnist.load(part)
        read_images, read = mnist.load_as_read(part)
        assert np.array_equal(images, read_images)
        changed = np.flatnonzero(labels != read)
        assert len(changed) == mnist.relabelled(part)
    images, read = mnist.load_as_read("test")
    assert mnist.relabelled("test") == len(mnist.READ_AS) == 1
    assert _holds(images, read, _the_one_read_as_1(), 1) and not _holds(images, read, _the_one_read_as_1(), 2)
    assert "written as a person reads it" in mnist.as_read_note("test") and mnist.as_read_note("calibration") == ""


@pytest.mark.parametrize("name", ["round_benchmark", "scan_benchmark"])
def test_the_benchmarks_write_it_only_where_a_1_is_meant(name):
    bench = _benchmark(name)
    args = argparse.Namespace(digits="mnist", fonts="held_out")
    if name == "round_benchmark":
        style = bench.slip_style(args, [])
        images, labels = style.real_digits, style.real_digit_labels
    else:
        images, labels = bench.real_digits(args)
    assert _holds(images, labels, _the_one_read_as_1(), 1)
    assert not _holds(images, labels, _the_one_read_as_1(), 2)
    assert sum(_holds(images, labels, _the_one_read_as_1(), d) for d in range(10)) == 1


def test_the_scanner_reads_it_on_a_slip_as_the_1_a_person_reads(duplicat):
    """Why it is relabelled: written in the score and table boxes, the real scanner reads a 1."""
    style = SlipStyle(fonts=[p for p in fonts.resolve(fonts.CALIBRATION).paths if "dkg" in p.name],
                      real_digits=_the_one_read_as_1()[None], real_digit_labels=np.array([1]), real_digit_share=1.0)
    values = {"tur": "1", "masa": "11", "poz": "H1", "puncte": "11", "depunere": "CASA"}
    rng = np.random.default_rng(5)
    page = render_page([render_slip(duplicat, values, rng, style)], rng)
    [reading] = scan_page(Page(Path("slip.png"), 1, page), OnnxReader(), "cnn", (duplicat,))
    assert reading.fields["puncte"].text == "11"
    assert reading.fields["masa"].text == "11"
