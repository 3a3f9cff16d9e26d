"""The round box read against the game's rounds (RULES.md §2, D 6.2.b): only a round already
played, or the next one, can make a slip another round's; any other number is this round's slip
with its round miswritten (no warning: only a missing round number is one)."""
from __future__ import annotations

import pytest

from corrector.decoding import decode_round
from tests.decoding.helpers import decoder, record
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
