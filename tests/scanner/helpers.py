"""Helpers shared by the scanner tests (values written on slips and how to score their reading)."""
from __future__ import annotations

from pathlib import Path

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
