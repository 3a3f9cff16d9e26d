"""A mark the search finds may be a stroke of the letter itself: the calibration hand `dkg` writes
its O as a wide ring that fills the box, which the ring search takes for a circled joker. Erased, it
leaves scraps read as N, U or D, and a plain ZOIT became ZNIT with a joker: 'incorrect' at 0.999.
The scanner reads such a box as written too, and keeps the letter when the erasing destroyed it."""
from __future__ import annotations

import numpy as np
import pytest

from scanner import fields
from scanner.fields import mark_is_the_letter, read_fields
from scanner.synth.slip import SlipStyle, draw_slip
from scanner.template import load_template

DUPLICAT = load_template("duplicat")
ROUND_WORDS = ("ZOOG", "GOGOL", "DOCTOR", "QUOD", "COCO")


def _read(reader, style: SlipStyle, word: str, seed: int, jokers: list[int]):
    drawing = draw_slip(DUPLICAT, {"depunere": word}, np.random.default_rng(seed), style, {"depunere": jokers})
    return read_fields(drawing.image, DUPLICAT, reader, 8.0)[0]["depunere"]


def _unmarked_words(reader, style) -> tuple[int, int, int]:
    """Slips of round words without a joker: how many, how many with a mark found, how many read right."""
    total = marked = right = 0
    for seed in range(4):
        for word in ROUND_WORDS:
            f = _read(reader, style, word, seed, [])
            total += 1
            marked += bool(f.jokers)
            right += f.text == word
    return total, marked, right


def test_a_wide_o_is_read_as_the_letter_not_as_a_circled_joker(reader, style, monkeypatch):
    total, marked, right = _unmarked_words(reader, style)
    assert marked <= total // 4, f"{marked} of {total} unmarked slips carry a joker mark"
    assert right >= total * 3 // 4, f"{right} of {total} read right"
    monkeypatch.setattr(fields, "mark_is_the_letter", lambda *a: False)
    _, marked_before, right_before = _unmarked_words(reader, style)
    assert marked_before > 2 * marked and right_before < right  # the check is what made the difference


@pytest.mark.parametrize("index", [1, 3])
def test_a_circled_o_is_still_a_joker(reader, style, index):
    """A ring drawn around an O leaves the O readable once erased: the joker stays."""
    found = sum(_read(reader, SlipStyle(fonts=style.fonts, joker_mark="circle"), "COCO", seed, [index]).jokers
                == [index] for seed in range(6))
    assert found >= 5, f"{found} of 6 circled O found"


def test_the_rule_on_the_readers_distributions():
    classes = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

    def dist(**p: float) -> np.ndarray:
        out = np.full(len(classes), 1e-4)
        for ch, v in p.items():
            out[classes.index(ch)] = v
        return out / out.sum()

    o = dist(O=0.97)
    assert mark_is_the_letter("circle", dist(N=0.4, U=0.3), o, classes)  # scraps: the ring was the O
    assert mark_is_the_letter("circle", None, o, classes)  # nothing left at all
    ring = dist(**{"0": 0.97})  # a ring drawn around a letter, as written, reads as the digit 0
    assert not mark_is_the_letter("circle", dist(A=0.9), ring, classes)  # a letter inside the ring
    assert mark_is_the_letter("circle", dist(N=0.7, U=0.2), o, classes)  # an O's remainder read as N
    assert not mark_is_the_letter("circle", dist(N=0.7, U=0.2), dist(O=0.8, Q=0.15), classes)  # not sure
    assert not mark_is_the_letter("circle", dist(**{"0": 0.7}), o, classes)  # the O itself, ring erased
    assert not mark_is_the_letter("circle", dist(N=0.4, U=0.3), dist(T=0.97), classes)  # no round letter
    assert not mark_is_the_letter("circle", dist(O=0.45, U=0.3), o, classes)  # the same letter, only fainter
    assert mark_is_the_letter("dot", dist(E=0.6, C=0.3), dist(G=0.99), classes)  # a G's spur
    assert not mark_is_the_letter("dot", dist(E=0.5, C=0.4), dist(G=0.8, C=0.15), classes)  # the letter not sure


def test_RULES_2_a_box_whose_mark_stays_is_also_read_as_written(reader, style):
    """A dot kept as a joker mark: the box is read once erased (`probs`) and with the dot left in
    (`probs_as_written`), which the decoder weighs for every reading that takes the dot for a
    stroke of the letter. A box without a mark has no reading as written. Both survive the record."""
    from scanner.reading import CharReading

    dotted = SlipStyle(fonts=style.fonts, joker_mark="dot")
    kept = letters = 0
    for word, index in (("ZOOG", 0), ("QUOD", 1)):
        for seed in range(3):
            f = _read(reader, dotted, word, seed, [index])
            for k, c in enumerate(f.chars):
                if k not in f.jokers:
                    assert c.probs_as_written == []
                    continue
                kept += 1
                assert len(c.probs_as_written) == len(reader.classes) and abs(sum(c.probs_as_written) - 1) < 1e-3
                letters += reader.classes[int(np.argmax(c.probs_as_written))] == word[k]
                again = CharReading.from_dict({**c.__dict__})
                assert again.probs_as_written == c.probs_as_written
    assert kept >= 5, f"{kept} of 6 dots kept"
    assert letters >= kept - 1, f"{letters} of {kept} dotted letters read, as written, as themselves"
