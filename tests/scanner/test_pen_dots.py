"""Joker dots as a ballpoint makes them (D 5.3.5): 0.6-1.0 mm across, barely wider than the strokes,
beside the letter's lower right. Drawn apart from the letter or pressed on the end of its last stroke,
they are found and erased; no other box of the word carries a mark."""
from __future__ import annotations

import numpy as np

from scanner.fields import read_fields
from scanner.synth.slip import draw_slip
from scanner.template import load_template

DUPLICAT = load_template("duplicat")
WORD = "PLATEAR"


def _read(reader, style, seed: int, jokers: dict[int, str]):
    marks = {("depunere", i): way for i, way in jokers.items()}
    drawing = draw_slip(DUPLICAT, {"depunere": WORD}, np.random.default_rng(seed), style,
                        {"depunere": sorted(jokers)}, marks=marks)
    fields, _ = read_fields(drawing.image, DUPLICAT, reader, 8.0)
    return fields["depunere"]


HALF_SEEN = 0.05  # a dot score from here up is doubted by the decoder (corrector/decoding/marks.json)


def _found(reader, style, way: str) -> tuple[int, int]:
    """Dots drawn `way` on three letters of six slips: how many were found, of how many; no other box
    of the word may carry a mark, the dot is erased, not read as a letter, and a dot not found is
    still half seen (the slip goes to review, the joker is never silently lost)."""
    found = total = 0
    for seed in range(40, 46):
        for index in (1, 4, 6):
            f = _read(reader, style, seed, {index: way})
            total += 1
            found += f.jokers == [index] and f.chars[index].joker == "dot"
            assert set(f.jokers) <= {index}, (way, seed, index, f.jokers)
            assert len(f.chars) == len(WORD), (way, seed, f.text)
            assert f.chars[index].marks.get("dot", 0.0) >= HALF_SEEN, (way, seed, index, f.chars[index].marks)
    return found, total


def test_ballpoint_dot_apart_from_the_letter_is_found_and_nothing_else_is_marked(reader, style):
    found, total = _found(reader, style, "dot_pen_apart")
    assert found >= total - 1, f"{found} of {total} ballpoint dots found"


def test_ballpoint_dot_pressed_on_the_stroke_end_is_found_and_nothing_else_is_marked(reader, style):
    """On shape alone such a dot is the rounded end of a stroke; the dot judge tells them apart. A dot
    pressed on the end of the stroke the letter needs (an R's leg) takes that end with it when erased:
    the letter left reads as another (F), so the scanner keeps the letter and only half believes the
    dot (`fields.mark_is_the_letter`): the slip goes to review."""
    found, total = _found(reader, style, "dot_pen_touching")
    assert found >= total - 3, f"{found} of {total} ballpoint dots on the stroke's end found"


def test_ballpoint_dot_is_small():
    """The renderer draws what players draw: a dot 0.6-1.0 mm across (not a pressed blob), beside the
    letter, apart from its ink or on it."""
    import cv2

    from scanner.synth.pen import Written, draw_dot

    s, box = 8.0, DUPLICAT.field("depunere").boxes[0]
    cell = np.zeros((int(box.h * s), int(box.w * s)), np.float32)
    cv2.line(cell, (10, 8), (10, 38), 1.0, 2)  # an L: its foot ends at the lower right
    cv2.line(cell, (10, 38), (30, 38), 1.0, 2)
    letter = Written(cell, (int(box.x * s), int(box.y * s)))
    for way in ("dot_pen_apart", "dot_pen_touching"):
        for seed in range(5):
            ink = np.zeros((int(DUPLICAT.height_mm * s), int(DUPLICAT.width_mm * s)), np.float32)
            draw_dot(ink, way, box, letter, s, np.random.default_rng(seed), 3)
            dot = ink > 0.5
            area_mm2 = dot.sum() / s ** 2
            assert np.pi * 0.25 ** 2 <= area_mm2 <= np.pi * 0.55 ** 2, (way, area_mm2)
            ys, xs = np.nonzero(dot)
            assert xs.mean() > letter.origin[0] + 20 and ys.mean() > letter.origin[1] + 30, way  # lower right
            placed = np.zeros_like(ink)
            placed[letter.origin[1]:letter.origin[1] + cell.shape[0], letter.origin[0]:letter.origin[0] + cell.shape[1]] = cell
            assert ((placed > 0.5) & dot).any() == (way == "dot_pen_touching"), way
