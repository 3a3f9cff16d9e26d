"""The round box read against the game's rounds (RULES.md §2, D 6.2.b): only a round already
played, or the next one, can make a slip another round's; any other number is this round's slip
with its round miswritten (no warning: only a missing round number is one)."""
from __future__ import annotations

import pytest

from corrector.decoding import decode_round
from tests.decoding.helpers import crafted_box, decoder, record
from tests.decoding.test_decoder import WORDS


@pytest.fixture(scope="module")
def round_14(ro):
    return decoder(ro, WORDS, "AEMODLR", round_no=14)


def test_a_14_read_74_is_this_rounds_slip(round_14):
    read_74 = record(74, 5, 26, "H4", "MODEL", doubts={("round", 0): ("1", 0.03)})
    (v,) = decode_round(round_14, [read_74])
    assert v.decided and v.best.round_state == "ok" and v.best.reading.round == 14
    assert v.best.outcome.warning is None


def test_a_round_not_yet_played_is_no_other_rounds_slip(round_14):
    (v,) = decode_round(round_14, [record(19, 5, 26, "H4", "MODEL")])
    assert v.decided and v.best.round_state == "ok"


def test_a_round_already_played_makes_the_slip_another_rounds(round_14):
    for written in (13, 1, 15):
        (v,) = decode_round(round_14, [record(written, 5, 26, "H4", "MODEL")])
        assert not v.decided and v.best.round_state == "other" and v.best.reading.round == written


def _round_box(rec: dict, *boxes: dict[str, float]) -> dict:
    """The record with its round boxes read as exactly these distributions."""
    rec["fields"]["tur"]["chars"] = [crafted_box(b) for b in boxes]
    rec["fields"]["tur"]["text"] = "".join(max(b, key=b.get) for b in boxes)
    return rec


@pytest.fixture(scope="module")
def round_1(ro):
    return decoder(ro, WORDS, "AEMODLR", round_no=1)


def test_a_round_box_torn_with_the_next_round_is_this_rounds_when_this_round_explains_the_move(round_1):
    """Another round's slip seldom holds a legal move of this round with its score (`round.other_legal`):
    the move's own evidence settles what the round box leaves open."""
    (v,) = decode_round(round_1, [_round_box(record(1, 5, 26, "H4", "MODEL"), {"1": 0.5, "2": 0.5})])
    assert v.decided and v.best.round_state == "ok" and v.best.outcome.credited == 26


def test_a_move_this_round_does_not_explain_gets_no_such_help(round_1):
    """MODER is no word: it is as likely another round's move as a mistake of this one."""
    (v,) = decode_round(round_1, [_round_box(record(1, 5, 26, "H4", "MODER"), {"1": 0.5, "2": 0.5})])
    assert not v.decided


def test_a_round_box_read_as_the_next_round_rules_out_nothing_when_this_round_explains_the_move(round_14):
    """The round's number bears on no ruling (a wrong one is no warning: only a missing one, D 6.2.b):
    read as another round's, it leaves the slip that round's or this one's, which the posterior
    weighs; it rules no reading out. A 14 whose 4 is read 5 (4 at 0.009) is round 14's MODEL."""
    (v,) = decode_round(round_14, [_round_box(record(14, 5, 26, "H4", "MODEL"), {"1": 1.0}, {"5": 0.985, "4": 0.009})])
    assert v.decided and v.best.round_state == "ok" and v.best.reading.round == 14
    assert not v.ruled_out and v.best.outcome.warning is None
