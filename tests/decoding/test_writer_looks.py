"""Two slips that may carry each other's table numbers, told apart by their letters
(corrector/decoding/writers.py): each player's settled letters show how the reader reads their
hand, and a slip whose letters look like one player's and not the other's is that player's
(RULES.md §2: one slip per table and round).

Table 9's player writes an M the reader reads M 0.7, N 0.29 on every slip; table 4's player an M
it reads M 0.999. Table 9's slip reads 9 with 4 at 0.03, table 4's reads 4 with 9 at 0.03, and
they say different moves: the table boxes alone cannot tell which is whose."""
from __future__ import annotations

import math

import numpy as np
import pytest

from corrector.decoding import Hands, SlipDecoder, decode_round
from corrector.decoding.evidence import box_distribution
from corrector.decoding.writers import UNLIKE, letter_density, writer_log_odds
from tests.decoding.helpers import CLASSES, crafted_box, decoder, record
from tests.decoding.test_decoder import WORDS

SCRIPT_M = {"M": 0.70, "N": 0.29}  # table 9's player's M, as the reader reads it on every slip
CLEAR_M = {"M": 0.999}


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "AEMODLR", round_no=3)


def _slip(round_no: int, table: int, score: int, position: str, m_look: dict[str, float],
          table_doubt: tuple[str, float] | None = None) -> dict:
    doubts = {("table", 0): table_doubt} if table_doubt else None
    rec = record(round_no, table, score, position, "MODEL", doubts=doubts)
    rec["fields"]["depunere"]["chars"][0] = crafted_box(m_look)
    return rec


def _hands(nine_m: dict[str, float] = SCRIPT_M, four_m: dict[str, float] = CLEAR_M) -> Hands:
    """Two settled slips of each player, from rounds 1 and 2."""
    hands = Hands()
    for round_no in (1, 2):
        hands.learn(9, _slip(round_no, 9, 26, "H4", nine_m), "H4", "MODEL")
        hands.learn(4, _slip(round_no, 4, 26, "H4", four_m), "H4", "MODEL")
    return hands


def _pile(nine_m: dict[str, float]) -> list[dict]:
    """Table 9's slip read 9 (4 at 0.03) with its M as `nine_m`, table 4's read 4 (9 at 0.03) with
    a clear M and another move, and the other tables' slips clear."""
    nine = _slip(3, 9, 26, "H4", nine_m, table_doubt=("4", 0.03))
    four = _slip(3, 4, 20, "H8", CLEAR_M, table_doubt=("9", 0.03))
    return [nine, four, *(record(3, t, 26, "H4", "MODEL") for t in range(1, 17) if t not in (4, 9))]


def _with(dec, hands: Hands) -> SlipDecoder:
    return SlipDecoder(dec.k, dec.p, confusion=None, mark_scores=None, hands=hands)


def test_a_box_that_looks_like_one_players_letter_and_not_the_others_weighs_for_that_player():
    hands = _hands()
    look, m = np.sqrt(box_distribution(crafted_box(SCRIPT_M), CLASSES)), CLASSES.index("M")
    in_nine = letter_density(hands.by_table[9], look, m)
    in_four = letter_density(hands.by_table[4], look, m)
    assert in_nine is not None and in_four is not None and in_nine / in_four > 50
    assert in_four == pytest.approx(UNLIKE, rel=0.05)  # it looks like none of table 4's Ms
    slip = _slip(3, 9, 26, "H4", SCRIPT_M)
    assert writer_log_odds(hands, slip, "H4", "MODEL", 9, 4) > math.log(50)
    assert writer_log_odds(hands, slip, "H4", "MODEL", 4, 9) < -math.log(50)
    # a clear M is table 4's player's; a hand not yet seen says nothing
    assert writer_log_odds(hands, _slip(3, 9, 26, "H4", CLEAR_M), "H4", "MODEL", 9, 4) < 0
    assert writer_log_odds(hands, slip, "H4", "MODEL", 9, 12) == 0.0


def test_RULES_2_two_slips_whose_letters_tell_their_players_apart_are_both_decided(dec):
    held_without = decode_round(dec, _pile(SCRIPT_M))
    assert held_without[0].held == "this slip and table 4's may have each other's table numbers"
    assert held_without[1].held == "this slip and table 9's may have each other's table numbers"
    nine, four, *others = decode_round(_with(dec, _hands()), _pile(SCRIPT_M))
    assert all(v.decided for v in others)
    assert nine.decided and nine.best.reading.table == 9 and nine.best.reading.position == "H4"
    assert four.decided and four.best.reading.table == 4 and four.best.reading.position == "H8"
    assert nine.told_apart == (4,) and four.told_apart == (9,)
    assert nine.audit_note() == "told by its letters from table 4, whose number its table box may carry"


def test_RULES_2_letters_that_look_like_the_other_players_keep_both_in_review(dec):
    """Table 9's slip with an M like table 4's player's: its letters weigh for the swap, and both
    slips go to review as before."""
    hands = _hands()
    assert writer_log_odds(hands, _slip(3, 9, 26, "H4", CLEAR_M), "H4", "MODEL", 9, 4) < -math.log(50)
    nine, four, *_ = decode_round(_with(dec, hands), _pile(CLEAR_M))
    assert nine.held == "this slip and table 4's may have each other's table numbers" and not nine.told_apart
    assert four.held == "this slip and table 9's may have each other's table numbers"


def test_RULES_2_players_whose_letters_look_alike_stay_in_review(dec):
    """Both players write the reader's M 0.7, N 0.29: their letters cannot tell them apart."""
    nine, four, *_ = decode_round(_with(dec, _hands(four_m=SCRIPT_M)), _pile(SCRIPT_M))
    assert not nine.decided and not four.decided and not nine.told_apart


def test_RULES_2_a_slip_in_doubt_between_two_tables_is_settled_by_its_letters(dec):
    """Each table box leaves the other table 0.2: the pile itself is unsure which slip is whose,
    and both go to review (unsure of their tables, and as a pair that may be swapped). The letters settle it: both decided, each
    at its own table, naming the other table in `told_apart`."""
    nine = _slip(3, 9, 26, "H4", SCRIPT_M, table_doubt=("4", 0.2))
    four = _slip(3, 4, 20, "H8", CLEAR_M, table_doubt=("9", 0.2))
    pile = [nine, four, *(record(3, t, 26, "H4", "MODEL") for t in range(1, 17) if t not in (4, 9))]
    unsure = decode_round(dec, pile)
    assert not unsure[0].decided and not unsure[1].decided and unsure[0].best.reading.table == 9
    assert 0.5 < unsure[0].posterior.tables[9] < 0.99
    first, second, *_ = decode_round(_with(dec, _hands()), pile)
    assert first.decided and first.best.reading.table == 9 and first.told_apart == (4,)
    assert second.decided and second.best.reading.table == 4 and second.told_apart == (9,)
    # in like hands the letters settle nothing
    alike = decode_round(_with(dec, _hands(four_m=SCRIPT_M)), pile)
    assert not alike[0].decided and not alike[1].decided and not alike[0].told_apart
