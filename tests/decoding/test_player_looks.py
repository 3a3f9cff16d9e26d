"""A player's letters look the same to the reader on every slip (corrector/decoding/hands.py,
`Hand.look_votes`): a box that looks like the player's settled Rs is one of them, even where the
reader's best class is K, while a clear K of the same player, which looks like none of them, stays
a K. One settled look lends nothing, and another player's looks lend nothing.

The round of test_ink_veto: NU stands down from H11; ARDEIIND at H5 through its N scores 74."""
from __future__ import annotations

import pytest

from corrector.decoding import Hands
from corrector.decoding.evidence import CLASSES, HOLDS, box_distribution, fold_lookalikes
from corrector.decoding.hands import MIN_SEEN, Hand
from tests.decoding.helpers import crafted_box, decoder, record
from tests.decoding.test_ink_veto import WORDS, _ardeiiid
from tests.decoding.test_player_hands import _hands as hands_from
from tests.decoding.test_player_hands import _in_hand

# The player's R as the reader sees it: R by a hair over K on the settled slips...
SETTLED_R = {"R": 0.50, "K": 0.49}
# ...and K by a hair on the new one: the reader alone rules the R out (K is its best class)
NEW_R = {"K": 0.50, "R": 0.49}


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


def _with_box(rec: dict, field: str, i: int, probs: dict[str, float]) -> dict:
    rec["fields"][field]["chars"][i] = crafted_box(probs)
    return rec


# settled slips of table 7 in earlier rounds, each R written as SETTLED_R looks
SETTLED = [(_with_box(record(2, 7, 10, "H8", "DAR"), "depunere", 2, SETTLED_R), "H8", "DAR"),
           (_with_box(record(1, 7, 12, "8H", "RAD"), "depunere", 0, SETTLED_R), "8H", "RAD"),
           (_with_box(record(1, 7, 9, "H7", "ERA"), "depunere", 1, SETTLED_R), "H7", "ERA")]


def _hands(settled=SETTLED, table: int = 7) -> Hands:
    return hands_from(settled, table)


def _slip(second: dict[str, float], table: int = 7) -> dict:
    return _with_box(record(3, table, 74, "H5", "AKDEIIND"), "depunere", 1, second)


def _held_as_read(v) -> bool:
    """In review: read as written (AKDEIIND, no word), or the legal move held as the ink rules its R out."""
    return not v.decided and (v.best.reading.word == "AKDEIIND" or v.ruled_out == (("word", 1),))


def test_the_settled_Rs_lend_no_read_as_pair(dec):
    """The reader's best class of each settled R was R: counting read-as pairs lends nothing."""
    assert _hands().lent(7) == {}


def test_a_box_that_looks_like_the_players_settled_Rs_is_one(dec):
    assert _held_as_read(dec.decode(_slip(NEW_R)))  # the reader alone: K, the R ruled out
    v = _in_hand(dec, _hands()).decode(_slip(NEW_R))
    assert v.decided and v.best.reading.word == "ARDEIIND" and v.best.outcome.credited == 74
    assert v.ruled_out == ()
    assert v.hand_note().startswith("read in the player's hand: R read K")  # the audit names the box


def test_a_clear_K_of_the_same_player_looks_like_none_of_its_Rs(dec):
    hand = _hands().by_table[7]
    votes = hand.look_votes(box_distribution(crafted_box({"K": 0.999}), CLASSES), CLASSES)
    assert votes is not None and votes[CLASSES.index("R")] == 0.0
    assert _held_as_read(_in_hand(dec, _hands()).decode(_slip({"K": 0.999})))


def test_a_look_settled_fewer_than_MIN_SEEN_times_lends_nothing(dec):
    assert _held_as_read(_in_hand(dec, _hands(SETTLED[:MIN_SEEN - 1])).decode(_slip(NEW_R)))


def test_another_players_looks_lend_nothing(dec):
    assert _held_as_read(_in_hand(dec, _hands()).decode(_slip(NEW_R, table=8)))


def test_RULES_3_a_one_letter_invalid_word_borrows_no_letter_from_the_players_looks(dec):
    """The player's settled Ns are clear Ns: the seventh box of ARDEIIID (a 7-like I) looks like none
    of them, and the slip stays in review, never credited as the legal ARDEIIND."""
    settled = [(record(1, 7, 10, "H8", "DIN"), "H8", "DIN"), (record(2, 7, 12, "8H", "NU"), "8H", "NU")] + SETTLED
    v = _in_hand(dec, _hands(settled)).decode(_ardeiiid())
    assert not v.decided and v.ruled_out == (("word", 6),)


# A player's D that the reader reads 0 by a hair: in a word, a box the decoder reads O by a hair
SETTLED_D = {"0": 0.50, "D": 0.49}


def _hand_of_Ds() -> Hand:
    hand = Hand()
    for _ in range(MIN_SEEN):
        hand.keep_look(box_distribution(crafted_box(SETTLED_D), CLASSES), "D", CLASSES)
    return hand


def test_a_word_box_is_compared_with_the_players_letters_as_the_decoder_reads_both():
    """The record keeps each settled look as the reader saw it (0 0.50, D 0.49), and the decoder
    reads a box of a word with the 0 folded into its look-alike O: the player's D read 0 looks
    like the player's Ds only when both are read the same way."""
    raw = box_distribution(crafted_box(SETTLED_D), CLASSES)
    in_word = fold_lookalikes(raw, CLASSES, HOLDS["word"])
    votes = _hand_of_Ds().look_votes(in_word, CLASSES, HOLDS["word"])
    assert votes is not None and votes[CLASSES.index("D")] > 0.5
    assert votes[CLASSES.index("O")] == 0.0


def test_a_box_that_may_hold_any_class_is_compared_as_the_reader_saw_it():
    raw = box_distribution(crafted_box(SETTLED_D), CLASSES)
    votes = _hand_of_Ds().look_votes(raw, CLASSES)
    assert votes is not None and votes[CLASSES.index("D")] > 0.5
