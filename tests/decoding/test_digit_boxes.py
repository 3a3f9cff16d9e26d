"""The boxes of the table, round and score are weighed on their digits alone
(`evidence.digits_alone`), with confusions of their own (`ConfusionByConfidence.digit_boxes`).

The digit reader splits the digits' share of such a box; the character reader's letters told the
decoder nothing but a row of the letters' confusions. On held-out hands a clear 2 read Y 0.95 by
the character reader (2 0.98 of the digits' share) was lent a 4 or a 1 as often as a 2, and a clear
7 whose box looked a little like a T fell among the unsure boxes, where a 7 is a 1 one time in
seven: each such score went to review ("doubt on score")."""
from __future__ import annotations

import numpy as np
import pytest

from corrector.decoding.confusion import ConfusionByConfidence, fit_by_confidence, load_confusion, save_confusion
from corrector.decoding.evidence import CLASSES, DIGITS, digits_alone, field_ink
from tests.decoding.helpers import crafted_box, decoder, record

WORDS = {"MODEL", "MODELE", "DOR", "ROD", "MOD", "LAMA", "ELAN"}


def box(probs: dict[str, float], rest: float = 1e-5) -> np.ndarray:
    return np.asarray(crafted_box(probs, rest)["probs"])


def digit_share(p: np.ndarray) -> np.ndarray:
    """`p` over the digits alone, made whole."""
    d = p[[CLASSES.index(c) for c in DIGITS]]
    return d / d.sum()


def test_a_digit_box_is_weighed_on_its_digits_with_look_alikes_folded_in():
    y_like_two = box({"Y": 0.95, "2": 0.018, "4": 0.0003, "V": 0.014})
    alone = digits_alone(y_like_two, CLASSES)
    assert alone.sum() == pytest.approx(1.0)
    assert alone[CLASSES.index("Y")] == 0 and alone[CLASSES.index("V")] == 0
    assert alone[CLASSES.index("2")] > 0.95
    z_for_two = digits_alone(box({"Z": 0.6, "2": 0.3, "7": 0.1}), CLASSES)
    assert z_for_two[CLASSES.index("2")] == pytest.approx(0.9, abs=1e-3)  # Z is the 2's look-alike


def calibration_digit_boxes() -> tuple[list, list]:
    """Letter boxes whose T is sometimes a 7, and digit boxes read on their digits where a sure 7
    is a 7: the letters' confusions lend a T-like box a 7, the digits' lend a sure 7 nothing."""
    letters = [(box({"T": 0.95, "7": 0.04}), "T")] * 60 + [(box({"T": 0.95, "7": 0.04}), "7")] * 20
    sevens = [(digits_alone(box({"7": 0.999}), CLASSES), "7")] * 300
    ones = [(digits_alone(box({"1": 0.999}), CLASSES), "1")] * 300
    unsure = [(digits_alone(box({"7": 0.6, "1": 0.4}), CLASSES), c) for c in "7171"] * 10
    return letters, sevens + ones + unsure


def test_a_clear_seven_in_a_box_a_little_letter_like_stays_a_seven():
    letters, digits = calibration_digit_boxes()
    pooled = fit_by_confidence(letters + digits, CLASSES)
    apart = fit_by_confidence(letters, CLASSES, digit_boxes=digits)
    # a 7 written clearly, whose box the character reader finds 4 % T: 0.96 on the digits, 0.999 of them a 7
    seven = crafted_box({"7": 0.959, "T": 0.04, "1": 0.001})
    before = digit_share(pooled.mix(np.asarray(seven["probs"])))
    now = field_ink({"text": "7", "chars": [seven]}, CLASSES, confusion=apart, holds=DIGITS)
    now_digits = digit_share(np.exp(now.logp[0]))
    assert now_digits[DIGITS.index("7")] > 0.99
    assert now_digits[DIGITS.index("7")] > before[DIGITS.index("7")]
    # a box the digit reader itself is unsure of stays unsure
    torn = field_ink({"text": "7", "chars": [crafted_box({"7": 0.55, "1": 0.4, "T": 0.05})]}, CLASSES,
                     confusion=apart, holds=DIGITS)
    assert digit_share(np.exp(torn.logp[0]))[DIGITS.index("1")] > 0.3


def test_the_digit_boxes_confusions_are_kept_and_read_back(tmp_path):
    letters, digits = calibration_digit_boxes()
    apart = fit_by_confidence(letters, CLASSES, digit_boxes=digits)
    path = tmp_path / "confusion.json"
    save_confusion(apart, path)
    loaded = load_confusion(path)
    assert isinstance(loaded, ConfusionByConfidence) and loaded.digit_boxes is not None
    p = digits_alone(box({"7": 0.7, "1": 0.3}), CLASSES)
    assert np.allclose(loaded.for_digit_boxes().mix(p), apart.for_digit_boxes().mix(p), atol=1e-6)
    assert np.allclose(loaded.mix(p), apart.mix(p), atol=1e-6)


def test_the_shipped_confusions_weigh_the_digit_boxes_apart():
    shipped = load_confusion()
    assert isinstance(shipped, ConfusionByConfidence) and shipped.digit_boxes is not None
    seven = digits_alone(box({"7": 0.959, "T": 0.04, "1": 0.001}), CLASSES)
    assert digit_share(shipped.for_digit_boxes().mix(seven))[DIGITS.index("7")] > 0.99


def test_RULES_3_d_a_clear_score_in_a_letter_like_hand_is_decided(ro):
    """`H4 MODEL 26`, its 2 a Y to the character reader, a 2 to the digit reader: the declared score
    is the move's, decided without review; the same box read 2 or 1 alike by the digit reader goes
    to review."""
    from corrector.decoding import SlipDecoder

    dec = decoder(ro, WORDS, "AEMODLR", round_no=1)
    shipped = SlipDecoder(dec.k, dec.p, confusion=load_confusion(), mark_scores=None)
    score = 26  # H4 MODEL on the empty board: its double word
    assert shipped.decode(record(1, 5, score, "H4", "MODEL")).best.outcome.warning is None
    written = record(1, 5, score, "H4", "MODEL")
    tens = str(score)[0]
    written["fields"]["puncte"]["chars"][0] = crafted_box({"Y": 0.95, tens: 0.0196, "4": 0.0002, "V": 0.03})
    v = shipped.decode(written)
    assert v.decided and v.best.reading.score == score and v.best.outcome.warning is None
    other = "1" if tens != "1" else "7"
    split = record(1, 5, score, "H4", "MODEL")
    split["fields"]["puncte"]["chars"][0] = crafted_box({"Y": 0.95, tens: 0.012, other: 0.008, "V": 0.03})
    assert not shipped.decode(split).decided


def test_the_calibration_fits_the_digit_boxes_apart_as_the_decoder_weighs_them(bench):
    """`round_benchmark.py --calibrate`: the boxes of the table, round and score feed the digit
    boxes' confusions, weighed on their digits; every box, as read, the letters' bands."""
    truth = bench.Written(table=7, round=2, position="H4", word="MODEL", jokers=(), score=26, mistake=None, seat=7)
    rec = record(2, 7, 26, "H4", "MODEL")
    rec["fields"]["puncte"]["chars"][0] = crafted_box({"Y": 0.95, "2": 0.0196, "V": 0.03})
    piles = [([rec], [truth])]
    letters = list(bench.confusion_boxes(piles))
    digits = list(bench.confusion_boxes(piles, digit_fields=True))
    assert [c for _, c in letters] == list("27H426MODEL")  # the letters' bands see every box, as read
    assert [c for _, c in digits] == list("27" + "26")
    two = digits[2][0]
    assert two[CLASSES.index("Y")] == 0 and two[CLASSES.index("2")] > 0.95
