"""A zero ruling two misread letters from a legal move, or one sign of its square from a square
where its word scores, goes to review (`decoding.nearmiss`); a one-letter phoney, and a square
written clearly elsewhere, stay the ink's to rule (RULES.md §3, D 6.1: 0 points; §3.3, D 6.3.b).

The round: NU stands down from H11; the group ARDEIID lays ARDEIIND at H5 through its N (74)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arbiter.words.reasons import review_reason
from corrector.decoding import SlipDecoder
from corrector.decoding.confusion import fit
from corrector.decoding.evidence import slip_ink
from corrector.decoding.knowledge import LegalMove
from corrector.decoding.nearmiss import one_sign_from, two_signs_from
from tests.decoding.helpers import CLASSES, crafted_box, decoder, record

WORDS = {"ARDEIIND", "NU", "ARDE", "DAR", "RAD", "IED", "DIN", "ERA", "AER", "RADE", "DIE"}
MOVES = (LegalMove("H8", "SMACEAM", (), 43), LegalMove("11I", "DINDU", (), 20), LegalMove("H8", "TRIB", (), 12))


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


@pytest.fixture(scope="module")
def low(dec):
    """The same round decided at thresholds of 0.6: a hold that stands there stands at any threshold."""
    return SlipDecoder(dec.k, replace(dec.p, threshold=0.6, threshold_overrule=0.6), confusion=None, mark_scores=None)


def test_two_letters_of_the_word_at_the_same_square_are_a_near_miss():
    near = two_signs_from("H8", "SNAGEAM", MOVES)
    assert near is not None and near.move.word == "SMACEAM" and near.letters == (("M", "N"), ("C", "G"))


def test_one_letter_read_as_another_in_the_position_and_the_word_is_a_near_miss():
    near = two_signs_from("11J", "DJNDU", MOVES)
    assert near is not None and near.move.position == "11I" and near.letters == (("I", "J"), ("I", "J"))


def test_a_one_letter_phoney_is_no_near_miss_even_beside_a_two_letter_one():
    assert two_signs_from("H8", "TRTB", MOVES) is None  # the player's own phoney: the ink rules it
    both = MOVES + (LegalMove("H8", "SNACEAM", (), 40),)
    assert two_signs_from("H8", "SNAGEAM", both) is None  # one letter from a legal move: that one


def test_a_sign_of_the_square_and_a_letter_of_the_word_are_a_near_miss():
    """11J DINDU written one sign off the legal 11I, its U read A: the player is penalised, not
    zeroed (RULES.md §3.3), and the zero stands on the A alone."""
    near = two_signs_from("11J", "DINDA", MOVES)
    assert near is not None and near.move.position == "11I" and near.letters == (("I", "J"), ("U", "A"))


def test_more_than_two_signs_from_every_legal_move_is_no_near_miss():
    assert two_signs_from("G9", "SMACEAM", MOVES) is None  # two signs of the square: not fitting
    assert two_signs_from("H8", "SNAGEAN", MOVES) is None  # three letters: a phoney of its own
    assert two_signs_from("11J", "DANDA", MOVES) is None  # a sign and two letters


def test_a_hand_read_wrong_twice_is_held_with_the_legal_move_it_may_be(dec):
    for written, letters in (("ARDEJJND", "I read J, I read J"), ("ANDEIIMD", "R read N, N read M")):
        v = dec.decode(record(3, 7, 74, "H5", written))
        assert v.best.outcome.status == "incorrect" and v.best.reading.word == written
        assert not v.decided and v.held == f"ruled incorrect two signs from the legal H5 ARDEIIND: {letters}"


def test_the_one_letter_phoney_is_still_ruled_on_the_ink_alone(low):
    """ARDEIIMD, one letter off ARDEIIND, is not held by the rule: at thresholds it reaches it is
    decided incorrect, 0 points, while the two-letter reading stays in review at any threshold."""
    phoney = low.decode(record(3, 7, 74, "H5", "ARDEIIMD"))
    assert phoney.held == "" and phoney.decided
    assert phoney.best.outcome.status == "incorrect" and phoney.best.outcome.credited == 0
    twice = low.decode(record(3, 7, 74, "H5", "ANDEIIMD"))
    assert not twice.decided and twice.held.startswith("ruled incorrect two signs from the legal H5 ARDEIIND")


def test_the_arbiter_reads_why_in_romanian_without_codes():
    text = review_reason("decoder: ruled incorrect two signs from the legal H5 ARDEIIND: R read N, N read M")
    assert text == ("decizie de depunere incorectă, dar la două semne de mutarea legală H5 ARDEIIND "
                    "(R citit ca N, N citit ca M): verificați acele căsuțe înainte de a acorda 0 puncte")
    english = review_reason("ruled incorrect two signs from the legal H5 ARDEIIND: R read N, N read M", "en")
    assert "two signs away from the legal move H5 ARDEIIND (R read N, N read M)" in english
    # a reason stored while the decoder still wrote "two letters" reads the same
    assert review_reason("decoder: ruled incorrect two letters from the legal H5 ARDEIIND: R read N, N read M") == text


def test_a_square_one_misread_sign_from_where_the_word_scores_is_held_with_that_square(low):
    """G6 is two signs from the legal H5 (0 points, D 6.1.c); G5, one sign from H5, is penalised
    (RULES.md §3.3, D 6.3.b). A 5 the reader took for a 6 turns the player's penalty into a zero:
    where the reader itself leaves the 5 plausible, the zero goes to review at any threshold."""
    assert low.rule(low.decode(record(3, 7, 74, "G5", "ARDEIIND")).best.reading).status == "penalised"
    unsure = low.decode(record(3, 7, 74, "G6", "ARDEIIND", doubts={("position", 1): ("5", 0.03)}))
    assert unsure.best.outcome.status == "incorrect" and unsure.best.reading.position == "G6"
    assert not unsure.decided
    assert unsure.held == "ruled incorrect at G6, one sign from G5 where ARDEIIND scores: 5 read 6"


def test_a_square_written_clearly_two_signs_off_stays_a_zero(dec):
    """The same G6 written clearly: no box of the square may be another sign, so the zero stands."""
    clear = dec.decode(record(3, 7, 74, "G6", "ARDEIIND"))
    assert clear.decided and clear.held == ""
    assert clear.best.outcome.status == "incorrect" and clear.best.outcome.credited == 0


def test_a_sign_that_keeps_the_zero_holds_nothing(low):
    """A doubt between two signs that both leave the word a zero (G6 or G7, neither one sign from a
    square where ARDEIIND lies) is no reason to look: the zero is the ruling either way."""
    v = low.decode(record(3, 7, 74, "G6", "ARDEIIND", doubts={("position", 1): ("7", 0.03)}))
    assert v.best.outcome.status == "incorrect" and v.held == "" and v.decided


def test_the_arbiter_reads_the_square_to_check_in_romanian():
    text = review_reason("decoder: ruled incorrect at G6, one sign from G5 where ARDEIIND scores: 5 read 6")
    assert text == ("decizie de depunere incorectă la G6, dar la un semn de G5, unde ARDEIIND punctează "
                    "(5 citit ca 6): verificați căsuța poziției înainte de a acorda 0 puncte")
    english = review_reason("ruled incorrect at G6, one sign from G5 where ARDEIIND scores: 5 read 6", "en")
    assert english == ("ruled incorrect at G6, but one sign from G5, where ARDEIIND scores (5 read 6): "
                       "check the position box before giving 0 points")


def test_only_a_square_a_slip_can_name_is_one_sign_away():
    """N15's 1 read where a 0 is plausible names no N05: players write N5, and a square read with a
    leading zero is no reason to look."""
    logp = np.full((3, len(CLASSES)), np.log(1e-5))
    for i, ch in enumerate("N15"):
        logp[i, CLASSES.index(ch)] = np.log(0.9)
    logp[1, CLASSES.index("0")] = np.log(0.09)
    allowed = np.exp(logp) >= 0.01
    assert one_sign_from("N15", logp, allowed, CLASSES, lambda square: True) is None
    logp[1, CLASSES.index("2")] = np.log(0.05)
    allowed = np.exp(logp) >= 0.01
    found = one_sign_from("N15", logp, allowed, CLASSES, lambda square: square == "N25")
    assert found is None  # N25 is no square either: the board has 15 columns
    logp[2, CLASSES.index("4")] = np.log(0.05)
    allowed = np.exp(logp) >= 0.01
    found = one_sign_from("N15", logp, allowed, CLASSES, lambda square: square != "N15")
    assert found is not None and found.position == "N14" and found.sign == ("4", "5")


def test_a_zero_on_a_square_read_through_a_look_alike_is_held(low):
    """L and B side by side name no square. An L is no digit, so the other box is the row's digits
    and its B an 8 (`evidence.box_holds`): L8, where ARDEIIND does not fit. The L may as well be a
    6 written like one (6B), so the zero waits for the arbiter at any threshold."""
    folded = low.decode(record(3, 7, 74, "LB", "ARDEIIND"))
    assert folded.best.outcome.status == "incorrect" and folded.best.reading.position == "L8"
    assert not folded.decided
    assert folded.held == "ruled incorrect on a position read through a look-alike: B read 8 (table 7, L8 ARDEIIND, declared 74)"


def test_a_square_read_as_written_keeps_its_zero_and_a_fold_to_a_legal_square_its_credit(low):
    clear = low.decode(record(3, 7, 74, "L8", "ARDEIIND"))
    assert clear.decided and clear.held == "" and clear.best.outcome.status == "incorrect"
    legal = low.decode(record(3, 7, 74, "HS", "ARDEIIND"))  # a 5 written like an S, in the row's box
    assert legal.decided and legal.best.reading.position == "H5" and legal.best.outcome.credited == 74


# The row box of H6 ARDEIIND lost as a calibration pile's 1H ALERGIC was (one wrong sign, RULES.md
# §3.3, D 6.3.b: its 1 read L 0.29, N 0.08, Z 0.08, 6 0.07, 1 0.06, 2 0.04, credited as the legal 2H
# at 0.9944 through the Z), S in place of Z, on hands whose L in that box was mostly a 6.
LOST_ROW_BOXES = {
    # the S the box's best digit by the fold alone
    "the fold makes the box's best digit": {"L": 0.45, "S": 0.12, "N": 0.1, "6": 0.02},
    # the box's best digit the 6, owing the fold nothing; the ruling's 5 is 0.04 of the reader's own, 0.13 with the S
    "the fold lifts a digit past the box's best": {"L": 0.29, "N": 0.085, "S": 0.085, "6": 0.069, "1": 0.058,
                                                   "5": 0.042, "7": 0.017},
}


@pytest.mark.parametrize("lost", LOST_ROW_BOXES.values(), ids=LOST_ROW_BOXES.keys())
def test_a_credit_against_the_ink_on_a_square_read_through_a_look_alike_is_held(dec, lost):
    """The ink alone (the calibration's confusions) reads H6, one sign off the legal H5, which the
    S alone makes: the credit against the ink rests on the fold, and waits for the arbiter at any
    threshold."""
    confusion = fit([(np.array(crafted_box(lost)["probs"]), "6")] * 40
                    + [(np.array(crafted_box(lost)["probs"]), "L")] * 10, CLASSES)
    low = SlipDecoder(dec.k, replace(dec.p, threshold=0.6, threshold_overrule=0.6), confusion=confusion,
                      mark_scores=None)
    slip = record(3, 7, 74, "H6", "ARDEIIND")
    slip["fields"]["poz"]["chars"][1] = crafted_box(lost)
    verdict = low.decode(slip)
    assert verdict.best.reading.position == "H5" and verdict.best.outcome.credited == 74 and not verdict.agrees
    assert not verdict.decided
    assert verdict.held == ("ruled against the ink's own reading on a position read through a look-alike: "
                            "S read 5 (table 7, H5 ARDEIIND, declared 74)")
    assert review_reason("decoder: " + verdict.held) == (
        "poziția devine pătrat doar luând o literă drept cifră (S citit ca 5), iar cerneala singură dă "
        "altă decizie: verificați căsuța poziției")


def test_a_credit_overruling_the_ink_elsewhere_keeps_a_square_the_ink_itself_reads(low):
    """The demo's `L1 BARSENe`: its 1 a bare stroke read I, credited against the ink's own reading
    on the joker mark. The ink's own reading has the 1 there too, so the square is no reason to
    hold it; a zero ruling on the same box still waits (`HS` read for H5 in the test above)."""
    slip = record(3, 7, 74, "H5", "ARDEIIND")
    slip["fields"]["poz"]["chars"][1] = crafted_box({"S": 0.9, "5": 0.05})
    ink = slip_ink(slip, low.p.mark["decided"], low.p.mark["undecided"], None)
    best = low.decode(slip).best
    assert best.reading.position == "H5" and best.outcome.credited == 74
    assert low._position_folds(best, ink, overruling=True) == []
    zero = replace(best, outcome=replace(best.outcome, status="incorrect", credited=0))
    assert low._position_folds(zero, ink) == [("S", "5")]


def test_the_arbiter_reads_the_look_alike_to_check_in_romanian():
    held = "ruled incorrect on a position read through a look-alike: B read 8 (table 7, L8 ARDEIIND, declared 74)"
    assert review_reason("decoder: " + held) == (
        "decizie de depunere incorectă pe o poziție care devine pătrat doar luând o literă drept cifră "
        "(B citit ca 8): verificați căsuța poziției înainte de a acorda 0 puncte")
    assert review_reason(held, "en") == ("ruled incorrect on a position that reads as a square only by taking a "
                                         "letter for a digit (B read 8): check the position box before giving 0 points")


def test_a_zero_one_sign_and_one_letter_from_the_legal_move_is_held(low):
    """H6 ARDEIIMD: the legal ARDEIIND written one sign off its H5 with its N read M, or a phoney
    at the wrong square. The first is penalised, not zeroed (RULES.md §3.3): the arbiter looks,
    at any threshold."""
    v = low.decode(record(3, 7, 74, "H6", "ARDEIIMD"))
    assert v.best.outcome.status == "incorrect" and v.best.reading.word == "ARDEIIMD"
    assert not v.decided and v.held == "ruled incorrect two signs from the legal H5 ARDEIIND: 5 read 6, N read M"
