"""A player keeps one hand the whole game (corrector/decoding/hands.py): once the player's settled
slips of earlier rounds have shown the reader's K to be the player's R, a K in that player's word
may be an R, and the legal move is no longer ruled out by the ink. Another player's slip, a slip
whose table is unsure, or a confusion seen once borrows nothing, and the hand lends no letter it
has not seen: a one-letter invalid word stays in review.

The round of test_ink_veto: NU stands down from H11; ARDEIIND at H5 through its N scores 74."""
from __future__ import annotations

import pytest

from arbiter.words.reasons import review_reason
from corrector.decoding import Hands, SlipDecoder, decode_round
from corrector.decoding.hands import MIN_SEEN
from tests.decoding.helpers import crafted_box, record
from tests.decoding.test_ink_veto import WORDS, _ardeiiid

# settled slips of table 7 in earlier rounds: each R of the player's read K
SETTLED = [(record(2, 7, 10, "H8", "DAK"), "H8", "DAR"), (record(1, 7, 12, "8H", "KAD"), "8H", "RAD"),
           (record(1, 7, 9, "H7", "EKA"), "H7", "ERA")]


@pytest.fixture(scope="module")
def dec(ro):
    from tests.decoding.helpers import decoder
    return decoder(ro, WORDS, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


def _in_hand(dec: SlipDecoder, hands: Hands) -> SlipDecoder:
    return SlipDecoder(dec.k, dec.p, confusion=None, mark_scores=None, hands=hands)


def _hands(settled=SETTLED, table: int = 7) -> Hands:
    hands = Hands()
    for rec, position, word in settled:
        hands.learn(table, rec, position, word)
    return hands


def _r_as_k(table: int = 7, **kw) -> dict:
    return record(3, table, 74, "H5", "AKDEIIND", **kw)  # the player's R, read K for sure


def test_a_players_R_read_K_is_ruled_out_until_the_players_settled_slips_show_it(dec):
    before = dec.decode(_r_as_k())
    assert not before.decided and before.best.reading.word == "AKDEIIND"  # as read: not a word, 0 points
    assert any(c.reading.word == "ARDEIIND" for c in before.candidates[1:])
    hands = _hands()
    assert hands.lent(7) == {"K": {"R": pytest.approx(0.5)}}  # three settled boxes read K, all R: half, the most lent
    after = _in_hand(dec, hands).decode(_r_as_k())
    assert after.decided and after.ruled_out == () and not after.agrees  # the hand alone gives it: an overruling
    assert after.best.reading.word == "ARDEIIND" and after.best.outcome.status == "valid"
    assert after.best.outcome.credited == 74
    assert [(f, i, needed) for f, i, needed, _ in after.in_hand] == [("word", 1, "R")]  # the box it lent
    assert after.hand_note().startswith("read in the player's hand: R read K") and not before.hand_note()


def _as_before(v) -> bool:
    return not v.decided and v.best.reading.word == "AKDEIIND"


def test_another_players_slip_borrows_nothing(dec):
    assert _as_before(_in_hand(dec, _hands()).decode(_r_as_k(table=8)))


def test_a_confusion_seen_once_lends_nothing(dec):
    hands = _hands(SETTLED[:MIN_SEEN - 1])
    assert hands.lent(7) == {}
    assert _as_before(_in_hand(dec, hands).decode(_r_as_k()))


def test_a_slip_whose_table_is_unsure_is_read_as_it_is(dec):
    assert _as_before(_in_hand(dec, _hands()).decode(_r_as_k(doubts={("table", 0): ("1", 0.3)})))  # 7 or 1?


def test_a_slip_the_pile_seats_surely_is_read_in_that_players_hand(dec):
    """Its table box reads 7 or 1 (1 at 0.3), too unsure for the hand alone; table 1's own slip
    says 1 for sure, so the whole pile seats it at 7, and it is read in table 7's player's hand
    (`SlipDecoder.in_seated_hand`): the legal ARDEIIND, its R lent by that hand."""
    in_hand = _in_hand(dec, _hands())
    unsure = _r_as_k(doubts={("table", 0): ("1", 0.3)})
    assert _as_before(in_hand.decode(unsure))
    seven, one = decode_round(in_hand, [unsure, record(3, 1, 74, "H5", "ARDEIIND")])
    assert seven.decided and seven.best.reading.table == 7 and seven.best.reading.word == "ARDEIIND"
    assert [(f, i, needed) for f, i, needed, _ in seven.in_hand] == [("word", 1, "R")]
    assert one.decided and one.best.reading.table == 1


def test_a_slip_the_pile_cannot_seat_surely_borrows_nothing(dec):
    """Without table 1's slip the pile cannot tell 7 from 1 either: read as it is, in review."""
    unsure = _r_as_k(doubts={("table", 0): ("1", 0.3)})
    (alone,) = decode_round(_in_hand(dec, _hands()), [unsure])
    assert not alone.decided and alone.in_hand == () and alone.best.reading.word == "AKDEIIND"


def test_a_slip_seated_at_another_players_table_borrows_nothing_of_this_one(dec):
    """Read 7 or 1, with table 7's own slip sure of 7: seated at 1, whose player's hand lends nothing."""
    unsure = _r_as_k(table=1, doubts={("table", 0): ("7", 0.3)})
    one, seven = decode_round(_in_hand(dec, _hands()), [unsure, record(3, 7, 74, "H5", "ARDEIIND")])
    assert one.best.reading.table == 1 and not one.decided and one.best.reading.word == "AKDEIIND"
    assert seven.decided and seven.best.reading.table == 7


def test_RULES_3_the_hand_lends_no_letter_it_has_not_seen(dec):
    """The player's K may be an R; the player's 7-like I is still no N: ARDEIIID stays in review."""
    v = _in_hand(dec, _hands()).decode(_ardeiiid())
    assert not v.decided and v.ruled_out == (("word", 6),)


def test_a_clearly_written_K_of_a_player_whose_K_reads_K_stays_K(dec):
    """Settled slips where the reader's K was a K (a joker K) teach the hand nothing to lend."""
    settled = [(record(1, 7, 10, "H8", "DAK"), "H8", "DAK")] * 4 + SETTLED[:1]
    hands = _hands(settled)
    assert hands.lent(7) == {}
    assert _as_before(_in_hand(dec, hands).decode(_r_as_k()))


def test_the_pile_reads_each_slip_in_its_own_players_hand(dec):
    hands = _hands()
    seven, eight = decode_round(_in_hand(dec, hands), [_r_as_k(table=7), _r_as_k(table=8)])
    assert seven.decided and seven.best.reading.table == 7
    assert not eight.decided and eight.best.reading.table == 8


def test_a_settled_field_read_with_another_number_of_boxes_teaches_nothing():
    hands = Hands()
    assert hands.learn(7, record(1, 7, 10, "H8", "DAKE"), "H8", "DAR") == 1  # the position's H only
    assert hands.learn(None, record(1, 7, 10, "H8", "DAK"), "H8", "DAR") == 0
    assert hands.learn(7, record(1, 7, 10, "H8", "DAK"), "H8", "DAR") == 4


def test_a_game_without_settled_slips_decodes_as_without_hands(dec):
    empty = _in_hand(dec, Hands()).decode(_r_as_k())
    assert empty.probability == pytest.approx(dec.decode(_r_as_k()).probability) and _as_before(empty)


def test_RULES_3_3_the_count_lends_no_sign_to_the_position(dec):
    """The reader reads this player's H as G (0.8) on two settled slips; the player then writes G5
    for the legal H5, a G read clearly. In the word the count would lend the G an H; in the position
    that would credit one wrong sign as the legal move, so the position keeps the ink's own G."""
    settled = []
    for rnd, position, word in ((1, "H8", "DAR"), (2, "H7", "ERA")):
        rec = record(rnd, 7, 10, "G" + position[1:], word)
        rec["fields"]["poz"]["chars"][0] = crafted_box({"G": 0.8, "H": 0.2})  # the player's H
        settled.append((rec, position, word))
    hands = _hands(settled)
    assert hands.lent(7) == {"G": {"H": pytest.approx(0.5)}}
    v = _in_hand(dec, hands).decode(record(3, 7, 74, "G5", "ARDEIIND"))  # a G, read G 0.999
    assert not v.decided or v.best.reading.position == "G5"  # never credited as the legal H5


def _j9_rau(position_box: dict[str, float]) -> dict:
    """`J9 RAU` by the player whose R reads K: one wrong sign, J for the legal I9 (4 points)."""
    rec = record(3, 7, 4, "J9", "KAU")
    rec["fields"]["poz"]["chars"][0] = crafted_box(position_box)
    return rec


@pytest.fixture(scope="module")
def rau(ro):
    from tests.decoding.helpers import decoder
    return decoder(ro, WORDS | {"RAU"}, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


def test_RULES_3_3_a_stroke_is_no_I_where_the_reader_saw_another_squares_letter(rau):
    """The hand lends the word's R, so the credit overrules the ink's own reading; its position's
    J is read 1 0.36, J 0.22, I 0.20, 7 0.10. Taken as I by the stroke (`strokes`), the legal I9
    was credited at 0.991; the reader saw a J there more than an I, so the arbiter looks."""
    v = _in_hand(rau, _hands()).decode(_j9_rau({"1": 0.36, "7": 0.10, "J": 0.22, "I": 0.20}))
    assert not v.decided and v.best.reading.position == "I9" and v.probability > rau.p.threshold_overrule
    assert v.held.startswith("ruled against the ink's own reading on a position whose I is a stroke read 1, "
                             "where the reader saw J more than I")


def test_a_bare_stroke_seen_as_nothing_else_is_the_I_of_its_square(rau):
    v = _in_hand(rau, _hands()).decode(_j9_rau({"1": 0.90, "I": 0.05}))
    assert v.decided and v.best.reading.position == "I9" and v.best.outcome.credited == 4


def test_the_arbiter_reads_the_stroke_to_check_in_romanian():
    held = ("ruled against the ink's own reading on a position whose I is a stroke read 1, where the reader "
            "saw J more than I (table 7, I9 RAU, declared 4)")
    assert review_reason("decoder: " + held) == (
        "I din poziție e o linie simplă citită ca 1, iar cititorul a văzut acolo mai degrabă J decât I: "
        "verificați căsuța poziției înainte de a acorda punctele")
