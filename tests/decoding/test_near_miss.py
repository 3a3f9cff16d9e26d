"""A zero ruling two misread letters from a legal move goes to review (`decoding.nearmiss`); a
one-letter phoney stays the ink's to rule (RULES.md §3, D 6.1: 0 points).

The round: NU stands down from H11; the group ARDEIID lays ARDEIIND at H5 through its N (74)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from arbiter.words.reasons import review_reason
from corrector.decoding import SlipDecoder
from corrector.decoding.knowledge import LegalMove
from corrector.decoding.nearmiss import two_letters_from
from tests.decoding.helpers import decoder, record

WORDS = {"ARDEIIND", "NU", "ARDE", "DAR", "RAD", "IED", "DIN", "ERA", "AER", "RADE", "DIE"}
MOVES = (LegalMove("H8", "SMACEAM", (), 43), LegalMove("11I", "DINDU", (), 20), LegalMove("H8", "TRIB", (), 12))


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


def test_two_letters_of_the_word_at_the_same_square_are_a_near_miss():
    near = two_letters_from("H8", "SNAGEAM", MOVES)
    assert near is not None and near.move.word == "SMACEAM" and near.letters == (("M", "N"), ("C", "G"))


def test_one_letter_read_as_another_in_the_position_and_the_word_is_a_near_miss():
    near = two_letters_from("11J", "DJNDU", MOVES)
    assert near is not None and near.move.position == "11I" and near.letters == (("I", "J"), ("I", "J"))


def test_a_one_letter_phoney_is_no_near_miss_even_beside_a_two_letter_one():
    assert two_letters_from("H8", "TRTB", MOVES) is None  # the player's own phoney: the ink rules it
    both = MOVES + (LegalMove("H8", "SNACEAM", (), 40),)
    assert two_letters_from("H8", "SNAGEAM", both) is None  # one letter from a legal move: that one


def test_a_square_and_a_letter_changed_apart_are_two_mistakes_not_a_near_miss():
    assert two_letters_from("11J", "DINDA", MOVES) is None  # the square's I read J, the word's U read A
    assert two_letters_from("G9", "SMACEAM", MOVES) is None  # two signs of the square: not fitting
    assert two_letters_from("H8", "SNAGEAN", MOVES) is None  # three letters: a phoney of its own


def test_a_hand_read_wrong_twice_is_held_with_the_legal_move_it_may_be(dec):
    for written, letters in (("ARDEJJND", "I read J, I read J"), ("ANDEIIMD", "R read N, N read M")):
        v = dec.decode(record(3, 7, 74, "H5", written))
        assert v.best.outcome.status == "incorrect" and v.best.reading.word == written
        assert not v.decided and v.held == f"ruled incorrect two letters from the legal H5 ARDEIIND: {letters}"


def test_the_one_letter_phoney_is_still_ruled_on_the_ink_alone(dec):
    """ARDEIIMD, one letter off ARDEIIND, is not held by the rule: at thresholds it reaches it is
    decided incorrect, 0 points, while the two-letter reading stays in review at any threshold."""
    low = SlipDecoder(dec.k, replace(dec.p, threshold=0.6, threshold_overrule=0.6), confusion=None, mark_scores=None)
    phoney = low.decode(record(3, 7, 74, "H5", "ARDEIIMD"))
    assert phoney.held == "" and phoney.decided
    assert phoney.best.outcome.status == "incorrect" and phoney.best.outcome.credited == 0
    twice = low.decode(record(3, 7, 74, "H5", "ANDEIIMD"))
    assert not twice.decided and twice.held.startswith("ruled incorrect two letters from the legal H5 ARDEIIND")


def test_the_arbiter_reads_why_in_romanian_without_codes():
    text = review_reason("decoder: ruled incorrect two letters from the legal H5 ARDEIIND: R read N, N read M")
    assert text == ("decizie de depunere incorectă, dar la două litere de mutarea legală H5 ARDEIIND "
                    "(R citit ca N, N citit ca M): verificați acele căsuțe înainte de a acorda 0 puncte")
    english = review_reason("ruled incorrect two letters from the legal H5 ARDEIIND: R read N, N read M", "en")
    assert "two letters away from the legal move H5 ARDEIIND (R read N, N read M)" in english
