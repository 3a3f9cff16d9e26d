"""The pile of a round (RULES.md §2: one slip per table and round) and the reader's calibrated
confusions, on reading records without images."""
from __future__ import annotations

import numpy as np
import pytest

from corrector.decoding import decode_round
from corrector.decoding.confusion import fit
from corrector.decoding.evidence import CLASSES, slip_ink
from corrector.decoding.pile import empty_table_odds
from tests.decoding.helpers import THRESHOLD, crafted_box, decoder, record, undeciding
from tests.decoding.test_decoder import WORDS


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "AEMODLR", round_no=1)


def test_two_slips_claiming_one_table_both_go_to_review(dec):
    verdicts = decode_round(dec, [record(1, 5, 26, "H4", "MODEL"), record(1, 5, 20, "H8", "MODEL")])
    assert [v.decided for v in verdicts] == [False, False]
    assert all("also claims table 5" in v.held for v in verdicts)  # and each shows how unsure it is


def test_a_table_another_slip_names_for_sure_is_not_this_slips(dec):
    doubtful = record(1, 3, 20, "H8", "MODEL", doubts={("table", 0): ("2", 0.4)})  # 3 or 2?
    alone = dec.decode(doubtful)
    assert not alone.decided
    clear, settled = decode_round(dec, [record(1, 2, 26, "H4", "MODEL"), doubtful])
    assert clear.decided and clear.best.reading.table == 2
    assert settled.decided and settled.best.reading.table == 3


def test_a_table_mostly_named_by_the_ink_is_never_taken_away(dec):
    # the ink says 2 far more than 3; table 2 is filed already: a duplicate claim, not a guess at 3
    doubtful = record(1, 2, 20, "H8", "MODEL", doubts={("table", 0): ("3", 0.2)})
    (verdict,) = decode_round(dec, [doubtful], taken={2})
    assert not verdict.decided


def test_confusions_learnt_on_calibration_boxes_soften_a_systematic_misread():
    k, r = CLASSES.index("K"), CLASSES.index("R")
    read_k = np.full(len(CLASSES), 0.01 / (len(CLASSES) - 1))
    read_k[k] = 0.99
    boxes = [(read_k, "R")] * 60 + [(read_k, "K")] * 20  # this hand's R looks like K
    confusion = fit(boxes, CLASSES)
    assert confusion.weight > 0 and confusion.given_read[k, r] > 0.6
    mixed = confusion.mix(read_k)
    assert abs(mixed.sum() - 1) < 1e-9 and mixed[r] > mixed[k] > 0.1  # three R written for every K read
    ink = slip_ink(record(1, 5, 26, "H4", "MODEK"), confusion=confusion)
    assert ink.fields["word"].logp[4, r] > np.log(0.01)


def test_a_slip_in_review_still_claims_its_table(dec):
    """The second slip's declared score is in doubt (review), but its table reads 5 like the first slip's:
    the first may not be filed at table 5 alone, for the arbiter will file the second there too."""
    clear = record(1, 5, 26, "H4", "MODEL")
    unsure = record(1, 5, 26, "H4", "MODEL", doubts={("score", 0): ("3", 0.5)})  # 26 or 36?
    alone, = decode_round(dec, [clear])
    assert alone.decided
    first, second = decode_round(dec, [clear, unsure])
    assert not second.decided and second.best.reading.table == 5
    assert not first.decided and "also claims table 5" in first.held


def test_a_slip_moved_off_a_claimed_table_takes_the_seat_it_moves_to(dec):
    """Seen on held-out hands: table 38 read 35 (0.86, a little 36), table 35 read 35 for sure,
    table 36 read 36 or 38. A fit that pushed the second 35 onto 36 without seating it there left
    36 looking free and decided the third slip for table 38 at 0.998. Every assignment of the pile
    weighed at once, the second 35 is at 36 only where the third is not: the third stays in doubt
    between 36, 38 and 33, the second goes to review, and the sure 35 keeps its table."""
    sure_35 = record(1, 5, 26, "H4", "MODEL")
    also_35 = record(1, 5, 26, "H4", "MODEL", doubts={("table", 0): ("6", 0.08)})
    six_or_eight = record(1, 6, 26, "H4", "MODEL")
    six_or_eight["fields"]["masa"]["chars"][0] = crafted_box({"6": 0.45, "8": 0.4, "3": 0.15})
    a, b, c = decode_round(dec, [sure_35, also_35, six_or_eight])
    assert a.decided and a.best.reading.table == 5
    assert not b.decided and b.best.reading.table == 6 and b.posterior.tables[5] > 0.01  # or a second 35
    assert not c.decided and c.posterior.tables[6] > 0.01 and c.posterior.tables[3] > 0.1


def test_RULES_2_two_slips_on_one_table_hold_back_the_tables_their_ink_allows(dec):
    """Seen on held-out hands in a room of 100: table 99 read 79 went to review (79 claimed twice),
    while table 29 read 99 (a 2 at 0.007) was decided for 99, which then no other slip claimed. The
    arbiter files the slip in review at 99: the decided slip would leave table 99 with two slips and
    29 with none."""
    twelve_read_fourteen = record(1, 14, 26, "H4", "MODEL", doubts={("table", 1): ("2", 0.007)})
    fourteen_read_thirteen = record(1, 13, 20, "H8", "MODEL", doubts={("table", 1): ("4", 0.03)})
    thirteen = record(1, 13, 26, "H4", "MODEL")
    twelve = record(1, 12, 26, "H4", "MODEL")  # table 12 has a slip: no seating doubt is left but 13's
    alone = decode_round(dec, [twelve_read_fourteen, thirteen, twelve])
    assert alone[0].decided and alone[0].best.reading.table == 14
    first, second, third = decode_round(dec, [twelve_read_fourteen, fourteen_read_thirteen, thirteen])
    assert not second.decided and not third.decided  # table 13 claimed twice
    assert not first.decided and first.best.reading.table == 14
    assert "review may be table 14" in first.held
    # a slip whose ink is sure of its table 14 keeps it: both slips would have to be misread
    sure, _, _ = decode_round(dec, [record(1, 14, 26, "H4", "MODEL"), fourteen_read_thirteen, thirteen])
    assert sure.decided and sure.best.reading.table == 14


def test_RULES_2_a_table_no_slip_names_holds_back_a_slip_that_may_be_its(dec):
    """Seen on held-out hands in a room of 100: table 99 read 49 was decided for 49, whose own slip
    had no table written, so nothing collided and table 99 had no slip: the seating cannot tell the
    two apart, only the ink can, and it left 99 a chance (a 9 at 0.007)."""
    ninety_nine_read_forty_nine = record(1, 4, 26, "H4", "MODEL", doubts={("table", 0): ("9", 0.007)})
    without_table = record(1, None, 20, "H8", "MODEL")
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(1, 17) if t not in (4, 9)]
    held, tableless, *others = decode_round(dec, [ninety_nine_read_forty_nine, without_table, *everyone_else])
    assert not tableless.decided and all(v.decided for v in others)
    assert not held.decided and held.best.reading.table == 4
    assert held.doubt == "table 9 has no slip and this one may be its"
    # once table 9 has its slip, the 9 in the ink is only a misread: table 4 it is
    nine = record(1, 9, 20, "H8", "MODEL")
    decided, *_ = decode_round(dec, [ninety_nine_read_forty_nine, without_table, *everyone_else, nine])
    assert decided.decided and decided.best.reading.table == 4
    # the calibration, deciding nothing, still sees that the slip is held, not merely unsure
    unsure, *_ = decode_round(undeciding(dec), [ninety_nine_read_forty_nine, without_table, *everyone_else])
    assert unsure.held == "table 9 has no slip and this one may be its" and "sure of" in unsure.doubt
    # a slip whose ink is sure of its table is decided whatever tables have no slip
    sure, *_ = decode_round(dec, [record(1, 4, 26, "H4", "MODEL"), without_table])
    assert sure.decided


def test_RULES_2_a_full_pile_weighs_a_second_slip_against_the_table_it_would_leave_empty(ro):
    """Seen on held-out hands in a room of 100: table 43's 4 read 9 at 0.88, beside table 93's slip
    sure of 93. Weighed as a second slip at 93, it left table 43, which no other slip may be at,
    as likely empty as not, and went to review 0.97 sure of 43. Every table of a full pile hands
    in a slip but for an absent player (`table.absent`): the slip is table 3's. In a pile scanned
    in parts, table 1's slip still to come, a table may be empty for now: it stays in review."""
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1, tables=range(1, 4))
    one, two = record(1, 1, 26, "H4", "MODEL"), record(1, 2, 26, "H4", "MODEL")
    three_read_two = record(1, 2, 26, "H4", "MODEL", doubts={("table", 0): ("3", 0.08)})
    _, sure_two, seated = decode_round(dec, [one, two, three_read_two])
    assert sure_two.decided and sure_two.best.reading.table == 2
    assert seated.decided and seated.best.reading.table == 3 and seated.posterior.tables.get(2, 0.0) < 1e-3
    sure_two, unsure = decode_round(dec, [two, three_read_two])
    assert sure_two.decided and not unsure.decided and 0.5 < unsure.posterior.tables[3] < THRESHOLD


@pytest.mark.parametrize(("slips", "free", "odds"), [
    (100, 100, 0.02 / 0.98),  # full pile: a table is empty only for an absent player
    (80, 100, 0.2 / 0.8),  # a fifth of the tables still to come
    (40, 100, 1.0),  # more empty tables than filled: never more than even, as without `absent`
    (100, 100, None),  # no `absent` known: as before
])
def test_a_table_left_empty_costs_what_the_pile_makes_it_likely(slips, free, odds):
    absent = None if odds is None else 0.02
    assert empty_table_odds(slips, free, absent) == pytest.approx(1.0 if odds is None else odds)


def test_RULES_2_a_slip_in_review_for_its_score_holds_back_no_other_table(dec):
    """Only two slips naming one table say a table was misread: a slip in review for its score,
    its table 13 a little like 14, leaves the slip of table 14 decided."""
    clear = record(1, 14, 26, "H4", "MODEL")
    unsure = record(1, 13, 26, "H4", "MODEL", doubts={("score", 0): ("3", 0.5), ("table", 1): ("4", 0.03)})
    first, second = decode_round(dec, [clear, unsure])
    assert first.decided and not second.decided


def _with_table_boxes(slip: dict, *boxes: dict) -> dict:
    slip["fields"]["masa"] = {"text": "", "chars": list(boxes), "jokers": []}
    return slip


def test_RULES_2_the_pile_never_seats_a_slip_where_its_ink_rules_the_table_out(ro):
    """Seen on held-out hands in a room of 40: table 23's 2 read Y (Y 0.95, 2 0.02), table 13's 1
    read 2 (2 0.59, 1 0.05). The pile swapped them: table 23's slip went to 13, though a 1 is no
    class its first box may hold (review), and table 13's slip was decided for 23. A slip is never
    decided at a table its ink rules out, so the pile never seats it there either: each is
    decided at its own table."""
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1, tables=range(1, 41))
    third = crafted_box({"3": 0.999})
    thirteen_read_23 = _with_table_boxes(record(1, 13, 26, "H4", "MODEL"),
                                         crafted_box({"2": 0.59, "9": 0.09, "1": 0.05, "7": 0.03}), third)
    twenty_three_read_y3 = _with_table_boxes(record(1, 23, 20, "H8", "MODEL"),
                                             crafted_box({"Y": 0.95, "2": 0.02, "X": 0.01, "V": 0.008, "L": 0.006}),
                                             third)
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(1, 41) if t not in (13, 23)]
    thirteen, twenty_three, *others = decode_round(dec, [thirteen_read_23, twenty_three_read_y3, *everyone_else])
    assert all(v.decided for v in others)
    assert "not 1" in "".join(_veto_of(dec, twenty_three_read_y3, 13))  # its ink rules table 13 out
    seatable = dec.seatable_tables(dec.decode(twenty_three_read_y3))
    assert 23 in seatable and 13 not in seatable
    assert twenty_three.decided and twenty_three.best.reading.table == 23
    assert thirteen.best.reading.table == 13  # decided there or not, never at 23


def test_RULES_2_a_slip_left_without_a_table_still_claims_the_one_its_ink_names(ro):
    """Seen on held-out seed 3542 (40 seats): table 22's second 2 read 9 at 0.98, and table 29's
    own slip read 29 at 0.77 (99 at 0.12, no seated table). The seating gave 29 to the surer slip
    and left table 29's own without a table, in review; table 22's slip was decided for 29, which
    the arbiter, filing the slip in review at the 29 its ink names, would then hold twice."""
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1, tables=range(1, 41))
    two = crafted_box({"2": 0.991, "Q": 0.001})
    twenty_two_read_29 = _with_table_boxes(record(1, 22, 26, "H4", "MODEL"), two,
                                           crafted_box({"9": 0.981, "2": 0.002, "S": 0.001}))
    twenty_nine = _with_table_boxes(record(1, 29, 20, "H8", "MODEL"), crafted_box({"2": 0.772, "9": 0.123, "Z": 0.023}),
                                    crafted_box({"9": 0.997, "G": 0.001}))
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(1, 41) if t not in (22, 29)]
    misread, own, *others = decode_round(dec, [twenty_two_read_29, twenty_nine, *everyone_else])
    assert all(v.decided for v in others) and not own.decided
    assert misread.best.reading.table == 29 and not misread.decided
    assert misread.held == "another slip of this round also claims table 29"
    # a slip without a table written holds back no table: the one read 29 for sure is decided
    without_table = record(1, None, 20, "H8", "MODEL")
    decided, tableless, *_ = decode_round(dec, [_with_table_boxes(record(1, 29, 26, "H4", "MODEL"), two,
                                                                  crafted_box({"9": 0.997})), without_table,
                                               *everyone_else])
    assert decided.decided and decided.best.reading.table == 29 and not tableless.decided


def _veto_of(dec, slip: dict, table: int) -> list[str]:
    """What the slip's own ink says against `table` (the decoder's veto text, one per box)."""
    from corrector.decoding.decoder import _field_veto, _number, _veto_text
    ink = slip_ink(slip)
    f = ink.fields["table"]
    return [_veto_text(v) for v in _field_veto("table", f, _number(table, f), ink.classes, dec.p.ink)]


def test_RULES_2_two_slips_that_may_have_each_others_tables_both_go_to_review(dec):
    """Seen on held-out hands in a room of 100: table 24 read 29 (its 4 read 9 at 0.94) and table 29
    read 24 (its 9 read 4 at 0.95). Nothing collides and no table lacks a slip, so the seating had
    only the two inks, and the first was decided for table 29 at 0.9998: two players' moves swapped."""
    four_read_nine = record(1, 9, 26, "H4", "MODEL", doubts={("table", 0): ("4", 0.03)})
    nine_read_four = record(1, 4, 20, "H8", "MODEL", doubts={("table", 0): ("9", 0.03)})
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(1, 17) if t not in (4, 9)]
    first, second, *others = decode_round(dec, [four_read_nine, nine_read_four, *everyone_else])
    assert all(v.decided for v in others)
    assert not first.decided and not second.decided
    assert first.held == "this slip and table 4's may have each other's table numbers"
    assert second.held == "this slip and table 9's may have each other's table numbers"
    # one ink sure of its table settles both: a swap would need it misread too
    sure_nine = record(1, 9, 26, "H4", "MODEL", doubts={("table", 0): ("4", 0.0003)})
    first, second, *_ = decode_round(dec, [sure_nine, nine_read_four, *everyone_else])
    assert first.decided and first.best.reading.table == 9
    assert second.decided and second.best.reading.table == 4
    # the calibration, deciding nothing, still sees both held
    unsure, *_ = decode_round(undeciding(dec), [four_read_nine, nine_read_four, *everyone_else])
    assert unsure.held.startswith("this slip and table 4's")


def test_RULES_2_two_slips_that_may_have_each_others_tables_and_say_the_same_are_both_decided(dec):
    """Table 24 read 29 and table 29 read 24, both writing H4 MODEL 26: swapped or not, each table
    is filed and ruled alike, so both are decided, each naming the other as its twin; had one of
    them another move or score, both would go to review (the test above)."""
    four_read_nine = record(1, 9, 26, "H4", "MODEL", doubts={("table", 0): ("4", 0.03)})
    nine_read_four = record(1, 4, 26, "H4", "MODEL", doubts={("table", 0): ("9", 0.03)})
    everyone_else = [record(1, t, 20, "H8", "MODEL") for t in range(1, 17) if t not in (4, 9)]
    first, second, *others = decode_round(dec, [four_read_nine, nine_read_four, *everyone_else])
    assert all(v.decided and not v.twins for v in others)
    assert first.decided and first.best.reading.table == 9 and first.twins == (4,)
    assert second.decided and second.best.reading.table == 4 and second.twins == (9,)
    assert first.twin_note() == "may have swapped table numbers with the slip of table 4, which says the same"
    # the same move with another declared score is another ruling: both to review
    nine_read_four_36 = record(1, 4, 36, "H4", "MODEL", doubts={("table", 0): ("9", 0.03)})
    first, second, *_ = decode_round(dec, [four_read_nine, nine_read_four_36, *everyone_else])
    assert first.held == "this slip and table 4's may have each other's table numbers" and not first.twins
    assert not second.decided


def test_RULES_2_a_twin_whose_other_twin_goes_to_review_goes_too(dec):
    """Table 9's slip may be table 4's and say the same, but table 4's is in review (its score in
    doubt): the arbiter may file it at 9, so table 9's slip is not decided there alone."""
    four_read_nine = record(1, 9, 26, "H4", "MODEL", doubts={("table", 0): ("4", 0.03)})
    unsure_nine_read_four = record(1, 4, 26, "H4", "MODEL", doubts={("table", 0): ("9", 0.03), ("score", 0): ("3", 0.5)})
    everyone_else = [record(1, t, 20, "H8", "MODEL") for t in range(1, 17) if t not in (4, 9)]
    first, second, *others = decode_round(dec, [four_read_nine, unsure_nine_read_four, *everyone_else])
    assert not second.decided
    assert not first.decided and first.held == "this slip and table 4's may have each other's table numbers"


def test_RULES_2_one_ink_unsure_of_its_table_and_a_slip_that_may_be_its_go_to_review(dec):
    """Seen on held-out hands in a room of 16: table 1's slip read 2 (2 at 0.62, 1 at 0.14) and
    table 2's read 1 (2 at 0.0047), each decided for the other's table at 0.998-0.999."""
    two_or_one = record(1, 2, 26, "H4", "MODEL", doubts={("table", 0): ("1", 0.18)})
    one_nearly_sure = record(1, 1, 20, "H8", "MODEL", doubts={("table", 0): ("2", 0.0047)})
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(3, 17)]
    first, second, *others = decode_round(dec, [two_or_one, one_nearly_sure, *everyone_else])
    assert all(v.decided for v in others)
    assert first.held == "this slip and table 1's may have each other's table numbers"
    assert second.held == "this slip and table 2's may have each other's table numbers"
    # a table 1 whose ink gives 2 nothing: the pile settles the unsure slip at table 2
    one_sure = record(1, 1, 20, "H8", "MODEL")
    first, second, *_ = decode_round(dec, [two_or_one, one_sure, *everyone_else])
    assert first.decided and first.best.reading.table == 2
    assert second.decided and second.best.reading.table == 1


def test_RULES_2_a_seven_that_may_be_a_one_beside_a_one_sure_of_itself_is_decided(ro):
    """Seen on held-out hands in rooms of 100: table 78's 7 read at 0.88 leaves 0.12 to a 1 (the
    reader's confusions), and table 18's ink gives 78 only 0.0015. A swap needs both misread: odds
    of 2e-4, under SWAP_ODDS, so both are decided. Where table 18's ink gives 78 twice as much, the
    odds pass it and both go to review, as the swaps seen (8.3e-4 and more) did."""
    from corrector.decoding.pile import SWAP_ODDS, swap_odds
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1, tables=range(1, 101))
    seven_or_one = record(1, 78, 26, "H4", "MODEL", doubts={("table", 0): ("1", 0.12)})
    one = record(1, 18, 20, "H8", "MODEL", doubts={("table", 0): ("7", 0.0015)})
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(1, 101) if t not in (18, 78)]
    def odds(a: dict, b: dict) -> float:  # from each slip's own ink, before the pile seats it
        return swap_odds(dec.decode(a).posterior.tables, dec.decode(b).posterior.tables, 78, 18)

    assert odds(seven_or_one, one) < SWAP_ODDS
    first, second, *others = decode_round(dec, [seven_or_one, one, *everyone_else])
    assert first.decided and first.best.reading.table == 78 and not first.twins
    assert second.decided and second.best.reading.table == 18
    one_less_sure = record(1, 18, 20, "H8", "MODEL", doubts={("table", 0): ("7", 0.003)})
    assert odds(seven_or_one, one_less_sure) >= SWAP_ODDS
    first, second, *_ = decode_round(dec, [seven_or_one, one_less_sure, *everyone_else])
    assert first.held == "this slip and table 18's may have each other's table numbers"
    assert second.held == "this slip and table 78's may have each other's table numbers"


def test_RULES_2_a_pile_too_entangled_to_enumerate_decides_no_slip_at_a_table_of_a_loop(ro, monkeypatch):
    """Seen on held-out hands, room of 100 (seed 3504): table 90 read 40 (a 9 at 0.0013), table
    40 read 40 (0.84, 90 at 0.08), the whole pile one group too entangled to enumerate. Propagated,
    table 40's slip goes to 90 and table 90's is most likely at 40: nothing collides, so each ink is
    weighed against the other's (`hold_swappable`) and both go to review, where the seating alone
    would have decided the first for table 40."""
    from corrector.decoding import seating
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1, tables=range(1, 101))
    ninety_read_forty = _with_table_boxes(record(1, 40, 26, "H4", "MODEL"),
                                          crafted_box({"4": 0.9987, "9": 0.0013}), crafted_box({"0": 0.9999}))
    forty = _with_table_boxes(record(1, 40, 20, "H8", "MODEL"),
                              crafted_box({"4": 0.91, "9": 0.085}), crafted_box({"0": 0.9999}))
    everyone_else = [record(1, t, 26, "H4", "MODEL") for t in range(1, 101) if t not in (40, 90)]
    monkeypatch.setattr(seating, "MAX_STEPS", 1)
    first, second, *others = decode_round(dec, [ninety_read_forty, forty, *everyone_else])
    assert second.best.reading.table == 90 and first.best.reading.table == 40
    assert not first.decided and not second.decided
    assert first.held == "this slip and table 90's may have each other's table numbers"
    assert sum(v.decided for v in others) >= 90
