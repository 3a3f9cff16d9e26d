"""The ink has the last word (RULES.md §3): a slip is never decided on a reading that needs a box
to hold a class the reader's own distribution rules out (`priors.json` ink: not among the best
classes covering `plausible_mass`, and under `floor`), however strongly a legal move pulls.

The round: NU stands down from H11; the group ARDEIID lays ARDEIIND at H5 through its N (74)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from corrector.decoding import SlipDecoder
from corrector.decoding.evidence import CLASSES, plausible, slip_ink
from corrector.decoding.strokes import allow_pairs, twins
from tests.decoding.helpers import crafted_box, decoder, record

WORDS = {"ARDEIIND", "NU", "ARDE", "DAR", "RAD", "IED", "DIN", "ERA", "AER", "RADE", "DIE"}
NO_VETO = {"plausible_mass": 1.0, "floor": 0.0}
# the seventh box of `H5 ARDEIIID` as the reader saw it: 1, J, I at the top; N far below
SEEN = {"1": 0.98, "J": 0.006, "I": 0.005, "N": 0.003}
# the same box read as a digit that looks like no letter: the weight on 7 stays off the letters
SEVENTH = {"7": 0.98, "J": 0.006, "I": 0.005, "N": 0.003}


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


def _ardeiiid(seventh: dict[str, float] = SEVENTH) -> dict:
    rec = record(3, 7, 74, "H5", "ARDEIIID")
    rec["fields"]["depunere"]["chars"][6] = crafted_box(seventh)
    return rec


def test_the_nearby_legal_move_outweighs_this_ink_without_the_veto(dec):
    """The silent error of issue 20: the legal move's prior beats a box that reads 7, J or I."""
    blind = SlipDecoder(dec.k, replace(dec.p, ink=NO_VETO), confusion=None).decode(_ardeiiid())
    assert blind.decided and blind.best.reading.word == "ARDEIIND" and blind.best.outcome.status == "valid"


def test_RULES_3_one_letter_invalid_word_is_never_decided_as_the_legal_move(dec):
    v = dec.decode(_ardeiiid())
    assert dec.p.ink["plausible_mass"] < 1.0
    assert not v.decided or (v.best.reading.word != "ARDEIIND" and v.best.outcome.status == "incorrect")
    assert not v.decided and v.ruled_out == (("word", 6),)
    assert "word[7] reads 7" in v.doubt and "not N" in v.doubt
    # the review offers the written word's ruling: incorrect, 0 points (D 6.1.a)
    assert any(c.outcome.status == "incorrect" and c.outcome.credited == 0 for c in v.candidates)


def test_RULES_3_a_legal_move_is_decided_only_where_the_ink_reads_its_letter(dec):
    """N at 25 % against I at 65 %: the ink reads ARDEIIID (not a word), and the legal move would
    overrule it. Seen on held-out seed 3526 at a share of 0.57 (J5 LUOIC credited as LUDIC, its box
    O 0.54, D 0.31): the shipped share (1.0) sends every such slip to the arbiter with both rulings."""
    assert dec.p.ink["overrule_share"] == 1.0
    rec = record(3, 7, 74, "H5", "ARDEIIND")
    rec["fields"]["depunere"]["chars"][6] = crafted_box({"I": 0.65, "N": 0.25, "J": 0.1})
    held = dec.decode(rec)
    assert not held.agrees and held.ruled_out == (("word", 6),) and not held.decided
    rulings = {(c.reading.word, c.outcome.status) for c in held.candidates}
    assert ("ARDEIIND", "valid") in rulings and any(status == "incorrect" for _, status in rulings)
    # a looser share lets the legal move overrule that box: the way LUOIC was credited as LUDIC
    loose = SlipDecoder(dec.k, replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.3}), confusion=None)
    assert loose.decode(rec).ruled_out == ()
    # where the ink itself reads N first, the legal move is the ink's own reading: decided
    rec["fields"]["depunere"]["chars"][6] = crafted_box({"N": 0.55, "I": 0.35, "J": 0.1})
    agreeing = dec.decode(rec)
    assert agreeing.agrees and agreeing.ruled_out == () and agreeing.decided
    assert agreeing.best.reading.word == "ARDEIIND"


def test_RULES_3_d_one_digit_score_change_is_never_read_as_the_right_score(dec):
    # 75 written, the move makes 74: the second box reads 5 and nothing like 4
    rec = record(3, 7, 75, "H5", "ARDEIIND")
    rec["fields"]["puncte"]["chars"][1] = crafted_box({"5": 0.97, "6": 0.025, "4": 0.003})
    blind = SlipDecoder(dec.k, replace(dec.p, ink=NO_VETO, score={**dec.p.score, "wrong": 1e-5}),
                        confusion=None).decode(rec)
    assert blind.decided and blind.best.reading.score == 74  # a prior that forgives wrong scores
    v = SlipDecoder(dec.k, replace(dec.p, score={**dec.p.score, "wrong": 1e-5}), confusion=None).decode(rec)
    assert not v.decided or (v.best.reading.score == 75 and v.best.outcome.warning == "SCORE_WRONG")
    assert v.best.reading.score == 75 or v.ruled_out == (("score", 1),)


def test_plausible_set_covers_the_mass_then_the_floor():
    p = np.log(np.array([[0.9, 0.06, 0.03, 0.008, 0.002]]))
    assert plausible(p, 0.95, 0.05).tolist() == [[True, True, False, False, False]]
    assert plausible(p, 0.95, 0.025).tolist() == [[True, True, True, False, False]]
    assert plausible(p, 0.99, 0.5).tolist() == [[True, True, True, False, False]]
    assert plausible(p, 1.0, 0.5).all()


def test_the_arbiter_reviews_the_field_the_ink_rules_out(dec):
    """`round scan` holds the slip with the ruled-out field among the unsure ones (arbiter/slips/decoding.py)."""
    from arbiter.slips.decoding import decoded
    from arbiter.slips.readings import SlipReading

    rec = _ardeiiid()
    reading = SlipReading("scans/a.png", 0, "0" * 64, {}, (), None, (), rec)
    held = decoded(reading, dec.decode(rec))
    assert held.unsure[0] == "decoder" and "word" in held.unsure
    assert "the ink rules it out" in held.doubt


def test_a_box_left_empty_between_written_ones_is_never_decided(ro):
    """PETICESC written (its C the joker), its thin I too faint for the scanner to count: it reads PETCESC with a gap
    between written boxes. Ruled on the boxes kept that is a sure "word not in the list" (D 6.1.a),
    a silent error; the ink is incomplete, so the slip goes to review, in the arbiter's words."""
    from arbiter.words.reasons import review_reason

    dec = decoder(ro, {"PETICE", "PETICES", "CE"}, "PETICES", round_no=1)
    rec = record(1, 5, 63, "H4", "PETCESC")
    whole = dec.decode(rec)
    assert whole.decided and whole.best.outcome.status == "incorrect"  # what the ink kept says
    rec["fields"]["depunere"]["warnings"] = ["gap_between_written_boxes"]
    v = dec.decode(rec)
    assert not v.decided
    assert v.doubt == "a box left empty between the written boxes of word"
    assert review_reason("decoder: " + v.doubt) == "o căsuță goală între căsuțele scrise: depunere"


def _ardei_declared_as_arde(last: dict[str, float], ink: float) -> dict:
    """`H8 ARDeI` (E the joker, circled) declared 8, the score of the legal ARDe (ARDeI makes 12),
    its I after the circle written with `ink` of its box."""
    rec = record(2, 7, 8, "H8", "ARDEI", jokers=(3,))
    rec["fields"]["depunere"]["chars"][4].update(crafted_box(last), ink=ink)
    return rec


def test_RULES_3_d_a_letter_read_clearly_after_a_circle_is_no_tail_of_it(ro):
    """Seen on held-out seed 3542: a faint L after a circled joker, read L 0.81, was left out as
    the circle's tail, and `10I CINSuL` declared 13 was credited as the legal CINSU, which scores
    13, without its warning (D 6.2.d). A box the reader reads as a sign is written: no ruling
    leaves it out without an arbiter. A fainter box it cannot read may still be a tail."""
    dec = decoder(ro, {"ARDE", "ARDEI", "DAR"}, "ARDI?", round_no=2)
    v = dec.decode(_ardei_declared_as_arde({"I": 0.8, "1": 0.1, "L": 0.05}, ink=0.03))
    assert v.best.reading.word == "ARDE" and v.probability > dec.p.threshold  # the prior pulls as before
    assert not v.decided and v.ruled_out == (("word", 4),)
    assert v.held.endswith("word[5] is written (I) but the reading leaves it out")
    tail = dec.decode(_ardei_declared_as_arde({"C": 0.3, "I": 0.25, "L": 0.2, "O": 0.15}, ink=0.03))
    assert tail.ruled_out == () and tail.best.reading.word == "ARDE"


def test_a_digit_read_in_a_word_box_counts_for_the_letter_it_looks_like(dec):
    """A word box holds letters: the reader's 1 there is the writer's I (`evidence.LOOKALIKES`).
    The box of issue 20 (1, J, I) then reads I: without the veto the nearby legal move (N) is no
    longer sure enough to be decided, and the veto still rules the N out."""
    blind = SlipDecoder(dec.k, replace(dec.p, ink=NO_VETO), confusion=None).decode(_ardeiiid(SEEN))
    assert not blind.decided and blind.probability < 0.9
    unfolded = SlipDecoder(dec.k, replace(dec.p, ink=NO_VETO), confusion=None).decode(_ardeiiid(SEVENTH))
    assert unfolded.probability > 0.999  # the same box with its weight on a digit like no letter
    v = dec.decode(_ardeiiid(SEEN))
    assert not v.decided and v.ruled_out == (("word", 6),)


def test_a_clear_letter_read_as_its_look_alike_digit_is_not_ruled_out(dec):
    """ARDEIIND written, an I read as the digit 1 almost surely: a word box holds letters, so the
    box reads I and the legal move is decided, not held back by the veto."""
    rec = record(3, 7, 74, "H5", "ARDEIIND")
    rec["fields"]["depunere"]["chars"][4] = crafted_box({"1": 0.995, "I": 0.003, "L": 0.002})
    v = dec.decode(rec)
    assert v.ruled_out == () and v.best.reading.word == "ARDEIIND" and v.decided


def _ink_of(rec: dict, read: dict[tuple[str, int], str]):
    """The slip's ink with each named box read as its first class at 0.995, its second at 0.004."""
    for (name, i), (first, second) in read.items():
        rec["fields"][name]["chars"][i] = crafted_box({first: 0.995, second: 0.004})
    return slip_ink(rec)


def test_number_boxes_read_letters_as_their_look_alike_digits():
    """A round box read as Z holds a 2; a word box read as 5 holds an S; a position holds digits
    and the rows A-O: its S is a 5, its O stays an O."""
    ink = _ink_of(record(2, 7, 74, "8S", "AS"), {("tur", 0): "Z2", ("depunere", 1): "5S", ("poz", 0): "S5",
                                                ("poz", 1): "0O"})
    two, s, five, o = (CLASSES.index(ch) for ch in "2S5O")
    assert plausible(ink.fields["round"].ink_logp, 0.99, 0.01)[0, two]
    assert plausible(ink.fields["word"].ink_logp, 0.99, 0.01)[1, s]
    position = plausible(ink.fields["position"].ink_logp, 0.99, 0.01)
    assert position[0, five] and not position[0, s]
    assert not position[1, o]  # a row letter and a digit both fit a position: left as read


# a box the reader is lost on: it leans J, then L, Z and I, and leaves N one per cent
LOST = {"J": 0.48, "L": 0.19, "Z": 0.09, "I": 0.05, "T": 0.04, "F": 0.03, "S": 0.03, "E": 0.02, "A": 0.02,
        "R": 0.015, "N": 0.012, "U": 0.01, "C": 0.008}


def test_RULES_3_a_legal_move_that_overrules_the_ink_needs_its_letter_near_the_boxs_best(dec):
    """Overruling the ruling the ink itself reads (ARDEIJID: not a word) takes each letter of the
    legal move at least `ink.overrule_share` of its box's best class: N at 1 % against J at 48 %
    is the ink's plausible tail, not its reading (OLIT credited as OLUT on the calibration hands)."""
    loose = SlipDecoder(dec.k, replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.0}), confusion=None)
    v = loose.decode(_ardeiiid(LOST))
    assert v.best.reading.word == "ARDEIIND" and not v.agrees and v.ruled_out == ()
    strict = SlipDecoder(dec.k, replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.1}), confusion=None)
    held = strict.decode(_ardeiiid(LOST))
    assert not held.decided and held.ruled_out == (("word", 6),)
    assert "word[7] reads" in held.doubt and "not N" in held.doubt
    assert any(c.outcome.status == "incorrect" and c.outcome.credited == 0 for c in held.candidates)


def test_the_share_asked_of_an_overruling_reading_is_calibrated_and_spares_a_near_second(dec):
    """At a share under 1, a box torn between two letters may be overruled for the legal one; a
    reading that agrees with the ink is never asked the share."""
    assert 0.0 < dec.p.ink["overrule_share"] <= 1.0
    strict = SlipDecoder(dec.k, replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.1}), confusion=None)
    torn = strict.decode(_ardeiiid({"J": 0.55, "N": 0.4, "I": 0.05}))
    assert torn.ruled_out == () and torn.best.reading.word == "ARDEIIND"
    agreeing = record(3, 7, 74, "H5", "ARDEIIND")
    agreeing["fields"]["depunere"]["chars"][6] = crafted_box({"N": 0.9, "J": 0.05, "I": 0.05})
    assert strict.decode(agreeing).ruled_out == ()
    allowed = plausible(np.log(np.array([[0.6, 0.3, 0.05, 0.05]])), 0.99, 0.01, share=0.1)
    assert allowed.tolist() == [[True, True, False, False]]


def test_RULES_3_an_overruling_digit_is_weighed_against_the_best_digit_not_a_letter(dec):
    """A score box holds digits: a 7 some hand writes so that the reader names it V 0.86 is still
    the box's best digit, so a legal move overruling another box (its N torn with a J) is not held
    back by the V (seen in the demo: a 2 read V 0.86, Z 0.06, 2 0.04 vetoed a sure, right ruling).
    Where the reader puts another digit first (1 0.10, 7 0.04) the 7 stays ruled out."""
    half = SlipDecoder(dec.k, replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.5}), confusion=None)

    def ruled_out(seven: dict[str, float]) -> tuple:
        rec = _ardeiiid({"J": 0.55, "N": 0.4, "I": 0.05})
        rec["fields"]["puncte"]["chars"][0] = crafted_box(seven)
        v = half.decode(rec)
        assert not v.agrees and v.best.reading.word == "ARDEIIND" and v.best.reading.score == 74
        return v.ruled_out

    assert ruled_out({"V": 0.86, "7": 0.1, "1": 0.04}) == ()
    assert ruled_out({"V": 0.86, "1": 0.1, "7": 0.04}) == (("score", 0),)
    holds = np.array([[False, True, True]])  # the first class is one the box cannot hold
    p = np.log(np.array([[0.86, 0.1, 0.04]]))
    assert plausible(p, 0.99, 0.01, share=0.5, holds=holds).tolist() == [[True, True, False]]
    assert plausible(p, 0.99, 0.01, share=0.5).tolist() == [[True, False, False]]


def test_RULES_3_a_ruling_the_confusions_lend_and_the_reader_does_not_read_needs_the_share(dec):
    """The ink alone is read from the boxes mixed with the reader's confusions, in which a box read J
    may be mostly an N: the legal move then agrees with it, and only the reader's own reading (J,
    ARDEIJID: not a word) says the ruling is borrowed. Such a ruling needs each letter's share of its
    box as an overruling one does (a 2A read L 0.55, 2 0.28, 1 0.04 was credited as the legal 1A at
    0.9992 on a calibration pile)."""
    from corrector.decoding.confusion import Confusion

    given = np.eye(len(CLASSES))
    j, n = CLASSES.index("J"), CLASSES.index("N")
    given[j, j], given[j, n] = 0.1, 0.9  # what was written where the reader read J: mostly N
    lending = Confusion(CLASSES, given, 0.9)
    strict = replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.1})
    v = SlipDecoder(dec.k, strict, confusion=lending).decode(_ardeiiid(LOST))
    assert v.agrees, "the mixed ink alone reads the legal move"
    assert v.best.reading.word == "ARDEIIND" and not v.decided and v.ruled_out == (("word", 6),)
    assert "not N" in v.doubt
    # without the lent N the reader's own reading is the legal move's: nothing borrowed, nothing asked
    agreeing = record(3, 7, 74, "H5", "ARDEIIND")
    agreeing["fields"]["depunere"]["chars"][6] = crafted_box({"N": 0.9, "J": 0.05, "I": 0.05})
    assert SlipDecoder(dec.k, strict, confusion=lending).decode(agreeing).ruled_out == ()


# the box as the reader saw the first letter of `K3 OOR` on held-out seed 3523, the letters renamed to
# this round's: the written I leads by a hair, the legal move's N holds 0.06 / 0.205 = 0.29 of it
SPREAD = {"I": 0.205, "J": 0.19, "L": 0.175, "1": 0.081, "N": 0.06, "T": 0.045, "F": 0.03, "E": 0.03,
          "Y": 0.026, "A": 0.02, "H": 0.018, "K": 0.015, "P": 0.012, "R": 0.01}


def test_RULES_3_a_legal_letter_under_a_third_of_its_boxs_best_never_overrules_the_ink(dec):
    """At a share of 0.2 the legal move was credited over the written invalid word (OOR as SOR, its S
    at 0.21 of the box's O); the shipped share holds such a slip for review with both readings."""
    loose = SlipDecoder(dec.k, replace(dec.p, ink={**dec.p.ink, "overrule_share": 0.2}), confusion=None)
    credited = loose.decode(_ardeiiid(SPREAD))
    assert credited.decided and credited.best.reading.word == "ARDEIIND" and not credited.agrees
    assert dec.p.ink["overrule_share"] >= 0.3
    held = dec.decode(_ardeiiid(SPREAD))
    assert not held.decided and held.ruled_out == (("word", 6),)
    assert "word[7] reads I, not N" in held.doubt
    assert any(c.outcome.status == "incorrect" and c.outcome.credited == 0 for c in held.candidates)


POSITION_WORDS = {"MODEL", "DOR", "ROD", "DAR", "RAD", "ERA", "EL", "ME", "AR", "MARE"}


@pytest.fixture(scope="module")
def across_model(ro):
    """MODEL lies across from H8; the top, MODEL again, stands down from 10F through its D (19)."""
    return decoder(ro, POSITION_WORDS, "AEMODLR", placed=(("H8", "MODEL"),), round_no=2)


def _position_box(rec: dict, i: int, probs: dict[str, float]) -> dict:
    rec["fields"]["poz"]["chars"][i] = crafted_box(probs)
    return rec


def test_RULES_3_a_row_digit_written_as_its_look_alike_letter_is_the_digit(across_model):
    """`1OF`: a position has one letter, and F, clearly written, is it; the O between the 1 and the
    F is the row's 0, as an arbiter reads it, and the reader's 0.995 on O no longer rules out 10F."""
    v = across_model.decode(_position_box(record(2, 7, 19, "10F", "MODEL"), 1, {"O": 0.995, "0": 0.001}))
    assert v.ruled_out == () and v.decided
    assert v.best.reading.position == "10F" and v.best.outcome.status == "valid" and v.best.outcome.credited == 19
    ink = slip_ink(_position_box(record(2, 7, 19, "10F", "MODEL"), 1, {"O": 0.995, "0": 0.001}))
    assert np.exp(ink.fields["position"].logp[1, CLASSES.index("0")]) > 0.99


def test_RULES_3_a_stroke_is_the_row_digit_where_only_the_digit_makes_a_square(across_model):
    """`G1I`: the G may be a 6 in some hands, so no end box is surely the column letter and the I
    stays an I in the ink's reading; but no square is written G1I, 61I or 611, and G11 is the only
    one with these strokes: the I is its 1, as an arbiter reads it, and G11 is decided."""
    rec = _position_box(record(2, 7, 12, "G11", "ME"), 2, {"I": 0.995, "1": 0.001})
    v = across_model.decode(rec)
    assert v.decided and v.ruled_out == () and v.best.reading.position == "G11"
    assert v.best.outcome.status == "valid" and v.best.outcome.credited == 12
    ink = slip_ink(rec)
    assert np.exp(ink.fields["position"].logp[2, CLASSES.index("I")]) > 0.99


def test_RULES_3_a_stroke_read_as_a_digit_is_the_row_letter_when_the_square_needs_it(across_model):
    """`17 ME`: a bare stroke read 1 (0.996) before a 7; a position has a letter, and I7 is the
    only square written with these strokes, so the reader's 1 is the row I and I7 ME is decided."""
    v = across_model.decode(_position_box(record(2, 7, 14, "I7", "ME"), 0, {"1": 0.996, "I": 0.002}))
    assert v.decided and v.ruled_out == ()
    assert v.best.reading.position == "I7" and v.best.outcome.status == "valid" and v.best.outcome.credited == 14


def test_RULES_3_two_squares_of_the_same_strokes_are_told_apart_by_the_reader_alone(across_model):
    """I1 (across) and 1I (down) are written with the same two strokes: only the square the reader's
    own reading prefers borrows the other stroke, so an inverted position is never decided on it."""
    rec = record(2, 7, 14, "I1", "ME")
    rec = _position_box(_position_box(rec, 0, {"I": 0.995, "1": 0.004}), 1, {"1": 0.995, "I": 0.004})
    f = slip_ink(rec).fields["position"]
    strict = plausible(f.ink_logp, 0.99, 0.01)
    assert twins("I1") == ["1I"] and twins("I7") == [] and twins("G11") == []
    assert (allow_pairs(strict, f, "1I", CLASSES) == strict).all()  # the reader reads I1: 1I borrows nothing
    eased = allow_pairs(strict, f, "I1", CLASSES)
    assert eased[0, CLASSES.index("1")] and eased[1, CLASSES.index("I")]
    assert not strict[0, CLASSES.index("1")] and not eased[0, CLASSES.index("G")]
