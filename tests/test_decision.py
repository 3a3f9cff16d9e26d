"""One decision per slip (RULES.md §3; D 6.1–6.3): each clause and each **Decision** policy setting.

First-move scores on the empty board with MODEL: H4 26 (M on the double letter, L on the
double word), H5–H7 18, H8 20; H1–H3 miss H8."""
from __future__ import annotations

from collections import Counter

import pytest

from corrector.board import Board
from corrector.judging.decision import RoundContext, decide_slip
from corrector.judging.group import build_group
from corrector.reasons import Reason
from corrector.rulepack import RulePack
from corrector.judging.rulings import Flag, PenaltyKind, Status, WarningKind
from corrector.judging.slip import Slip, WrittenMove
from tests.boards import board_with

WORDS = frozenset({"MODEL", "MODELE", "MAMAE", "MARE", "ME", "EL", "CASA", "AR"})


def ctx(pack: RulePack, rack: str = "AEMODLR", board: Board | None = None, youth: bool = False,
        variant: str = "classic", stock: str = "", words=WORDS) -> RoundContext:
    stock_counts = tuple(sorted(Counter(stock).items()))
    group = build_group(variant, pack, board or Board(), pack.tiles.parse_rack(rack), stock_counts)
    return RoundContext(pack, board or Board(), group, words, youth)


def slip(position, word, score, jokers=(), round_no=2, **kw) -> Slip:
    return Slip(1, round_no, (WrittenMove(position, word, tuple(jokers), score),), **kw)


def decide(pack, position, word, score, *, jokers=(), round_no=2, slip_kw=None, **ctx_kw):
    return decide_slip(slip(position, word, score, jokers, round_no, **(slip_kw or {})), ctx(pack, **ctx_kw))


# --- §3 step 1: the written position -----------------------------------------------------------

def test_RULES_3_1_written_position_scores(ro):
    d = decide(ro, "H4", "MODEL", 26)
    assert (d.status, d.score, d.credited, d.warning, d.penalty) == (Status.VALID, 26, 26, None, None)
    assert str(d.move) == "H4 MODEL"


def test_RULES_2_vertical_position_number_first(ro):
    d = decide(ro, "8D", "MODEL", 26)
    assert d.status is Status.VALID and str(d.move) == "8D MODEL"


# --- §3 step 2: inverted signs ------------------------------------------------------------------

def test_D_6_3_a_inverted_signs_senior_penalty(ro):
    d = decide(ro, "4H", "MODEL", 26)
    assert (d.status, d.penalty, d.score, d.credited) == (Status.PENALISED, PenaltyKind.INVERTED_SIGNS, 26, 6)
    assert d.warning is None and str(d.move) == "H4 MODEL"


def test_D_6_2_e_inverted_signs_youth_warning(ro):
    d = decide(ro, "4H", "MODEL", 26, youth=True)
    assert (d.status, d.penalty, d.credited, d.warning) == (Status.VALID, None, 26, WarningKind.INVERTED_SIGNS)


def test_policy_inverted_signs_senior_warning(ro):
    d = decide(ro.with_policies(inverted_signs_senior="warning"), "4H", "MODEL", 26)
    assert (d.penalty, d.warning) == (None, WarningKind.INVERTED_SIGNS)


def test_policy_inverted_signs_youth_penalty(ro):
    d = decide(ro.with_policies(inverted_signs_youth="penalty"), "4H", "MODEL", 26, youth=True)
    assert (d.penalty, d.warning, d.credited) == (PenaltyKind.INVERTED_SIGNS, None, 6)


# --- §3 step 3: exactly one sign wrong ----------------------------------------------------------

def test_D_6_3_b_one_wrong_sign_penalty(ro):
    board = board_with(ro, ("H4", "MODEL"))
    d = decide(ro, "4J", "MARE", 7, rack="ARECSUT", board=board)  # vertical from J4 cannot hold M; H4 can
    assert (d.status, d.penalty, str(d.move), d.score, d.credited) == (Status.PENALISED, PenaltyKind.ONE_SIGN_WRONG, "4H MARE", 7, 0)
    assert d.flags == ()


def test_D_6_3_b_several_squares_declared_score_chooses(ro):
    d = decide(ro, "H3", "MODEL", 26)  # H4 (26), H5–H7 (18), H8 (20) all keep row H
    assert (str(d.move), d.score, d.credited) == ("H4 MODEL", 26, 6)
    assert d.flags == (Flag.SIGN_AMBIGUOUS, Flag.DECLARED_SCORE_CHOSE)
    assert d.warning is None


def test_D_6_3_b_several_squares_lowest_when_declared_matches_none(ro):
    d = decide(ro, "H3", "MODEL", 99)
    assert (str(d.move), d.score) == ("H5 MODEL", 18)
    assert d.flags == (Flag.SIGN_AMBIGUOUS, Flag.LOWEST_SCORE_CHOSE)
    assert d.warning is WarningKind.SCORE_WRONG


def test_policy_one_wrong_sign_choice_lowest_ignores_declared(ro):
    d = decide(ro.with_policies(one_wrong_sign_choice="lowest"), "H3", "MODEL", 26)
    assert (str(d.move), d.score) == ("H5 MODEL", 18)
    assert Flag.LOWEST_SCORE_CHOSE in d.flags


def test_D_6_3_b_sign_off_the_board_is_a_wrong_sign(ro):
    d = decide(ro, "H16", "MODEL", 26)
    assert (d.status, d.penalty, str(d.move)) == (Status.PENALISED, PenaltyKind.ONE_SIGN_WRONG, "H4 MODEL")


# --- §3 step 4: incorrect (D 6.1) ---------------------------------------------------------------

def test_D_6_1_a_main_word_not_in_list(ro):
    d = decide(ro, "H4", "MODELA", 26)
    assert (d.status, d.violation.reason, d.violation.detail) == (Status.INCORRECT, Reason.WORD_NOT_IN_LIST, "MODELA")
    assert d.credited == 0 and d.geometric_score is not None


def test_D_6_1_a_adjacent_word_not_in_list(ro):
    board = board_with(ro, ("H4", "MODEL"))
    d = decide(ro, "I7", "AR", 5, rack="ARECSUT", board=board)  # forms EA down column 7
    assert d.status is Status.INCORRECT
    assert d.violation.reason is Reason.WORD_NOT_IN_LIST and d.violation.detail == "EA"


def test_D_6_1_b_letters_not_in_group(ro):
    d = decide(ro, "H5", "CASA", 10, rack="AEMODLR")
    assert d.violation.reason is Reason.LETTERS_NOT_IN_GROUP and d.violation.detail == "CSA"


def test_D_6_1_b_not_connected(ro):
    board = board_with(ro, ("H4", "MODEL"))
    d = decide(ro, "A1", "CASA", 10, rack="CASAEIT", board=board)
    assert d.violation.reason is Reason.NOT_CONNECTED


def test_D_6_1_b_first_move_misses_start_square(ro):
    d = decide(ro, "A1", "CASA", 10, rack="AEMODLR")  # no reading works: the written one is reported
    assert d.violation.reason is Reason.START_SQUARE_MISSED


def test_D_6_1_c_both_signs_wrong(ro):
    d = decide(ro, "A1", "MODEL", 26)
    assert d.violation.reason is Reason.MOVE_FITS_ELSEWHERE and d.status is Status.INCORRECT


@pytest.mark.parametrize("written", [None, "", "H", "8"])
def test_D_6_1_d_sign_missing(ro, written):
    d = decide(ro, written, "MODEL", 26)
    assert d.violation.reason is Reason.SIGN_MISSING


@pytest.mark.parametrize("written", ["Z99", "H-4", "??"])
def test_D_6_1_c_malformed_position_is_a_players_mistake(ro, written):
    d = decide(ro, written, "MODEL", 26)
    assert d.status is Status.INCORRECT and d.violation.reason is Reason.MALFORMED_POSITION


def test_D_6_1_unknown_letter_is_a_players_mistake(ro):
    d = decide(ro, "H4", "MOD3L", 26)
    assert d.violation.reason is Reason.UNKNOWN_LETTER


def test_D_6_1_word_missing(ro):
    assert decide(ro, "H4", None, 26).violation.reason is Reason.WORD_MISSING


# --- jokers (§3 warning c and its Decisions) -----------------------------------------------------

def test_D_6_2_c_joker_not_marked_warning(ro):
    d = decide(ro, "H4", "MODEL", 10, rack="?ODELRA")  # the M must be the joker: (0+1+2+1+1)×2
    assert (d.warning, d.score, str(d.move)) == (WarningKind.JOKER_NOT_MARKED, 10, "H4 mODEL")


def test_D_6_2_c_marked_joker_scores_zero_no_warning(ro):
    d = decide(ro, "H4", "mODEL", 10, rack="?ODELRA")
    assert (d.warning, d.score) == (None, 10)


def test_D_6_2_c_unmarked_joker_declared_score_chooses(ro):
    # MAMAE at H4: joker on the M of H4 (double letter) gives 14, on the M of H6 gives 22.
    d = decide(ro, "H4", "MAMAE", 22, rack="MA?AERT")
    assert (str(d.move), d.score, d.warning) == ("H4 MAmAE", 22, WarningKind.JOKER_NOT_MARKED)
    assert d.flags == (Flag.JOKER_AMBIGUOUS, Flag.DECLARED_SCORE_CHOSE)


def test_D_6_2_c_unmarked_joker_lowest_when_declared_matches_none(ro):
    d = decide(ro, "H4", "MAMAE", None, rack="MA?AERT")
    assert (str(d.move), d.score) == ("H4 mAMAE", 14)
    assert d.flags == (Flag.JOKER_AMBIGUOUS, Flag.LOWEST_SCORE_CHOSE)


def test_policy_unmarked_joker_choice_lowest(ro):
    d = decide(ro.with_policies(unmarked_joker_choice="lowest"), "H4", "MAMAE", 22, rack="MA?AERT")
    assert d.score == 14 and Flag.LOWEST_SCORE_CHOSE in d.flags


def test_policy_joker_mark_without_joker_real_letter_with_warning(ro):
    d = decide(ro, "H4", "mODEL", 26)  # no joker in AEMODLR, but an M
    assert (d.status, d.score, d.warning) == (Status.VALID, 26, WarningKind.JOKER_MARKED_WITHOUT_JOKER)
    assert str(d.move) == "H4 MODEL"


def test_policy_joker_mark_without_joker_incorrect(ro):
    d = decide(ro.with_policies(joker_mark_without_joker="incorrect"), "H4", "mODEL", 26)
    assert d.status is Status.INCORRECT and d.violation.reason is Reason.JOKER_NOT_IN_GROUP


def test_joker_indices_mark_like_lowercase(ro):
    d = decide(ro, "H4", "MODEL", 10, jokers=[0], rack="?ODELRA")
    assert (d.warning, d.score) == (None, 10)


# --- warnings (D 6.2) and penalty plus warning (D 6.3) -------------------------------------------

def test_D_6_2_d_declared_score_wrong(ro):
    assert decide(ro, "H4", "MODEL", 25).warning is WarningKind.SCORE_WRONG


def test_D_6_2_d_declared_score_missing(ro):
    assert decide(ro, "H4", "MODEL", None).warning is WarningKind.SCORE_WRONG


def test_D_6_2_b_table_or_round_missing(ro):
    assert decide(ro, "H4", "MODEL", 26, slip_kw={"round_written": False}).warning is WarningKind.TABLE_OR_ROUND_MISSING
    assert decide(ro, "H4", "MODEL", 26, slip_kw={"table_written": False}).warning is WarningKind.TABLE_OR_ROUND_MISSING


def test_D_6_2_a_back_of_round_1_slip(ro):
    assert decide(ro, "H4", "MODEL", 26, round_no=1, slip_kw={"back_ok": False}).warning is WarningKind.BACK_DETAILS
    assert decide(ro, "H4", "MODEL", 26, round_no=2, slip_kw={"back_ok": False}).warning is None


def test_D_6_2_one_warning_per_slip(ro):
    d = decide(ro, "H4", "MODEL", None, rack="?ODELRA", slip_kw={"table_written": False})
    assert d.warning is WarningKind.TABLE_OR_ROUND_MISSING
    assert d.waived == (WarningKind.JOKER_NOT_MARKED, WarningKind.SCORE_WRONG)
    assert d.all_warnings() == (WarningKind.TABLE_OR_ROUND_MISSING,)


def test_D_6_2_no_warning_when_the_move_scores_5_or_less(ro):
    board = board_with(ro, ("H4", "MODEL"))
    d = decide(ro, "8G", "EL", None, rack="MARECSU", board=board)  # E on G8 above the L on H8: 2 points
    assert (d.status, d.score, d.warning, d.waived) == (Status.VALID, 2, None, (WarningKind.SCORE_WRONG,))


def test_D_6_3_penalty_plus_warning(ro):
    d = decide(ro, "4H", "MODEL", 20)
    assert (d.penalty, d.warning, d.credited) == (PenaltyKind.INVERTED_SIGNS, WarningKind.SCORE_WRONG, 6)


def test_D_6_3_penalty_capped_at_the_move(ro):
    board = board_with(ro, ("H4", "MODEL"))
    d = decide(ro, "4J", "MARE", 7, rack="ARECSUT", board=board)
    assert (d.score, d.credited) == (7, 0)


def test_explanation_in_both_languages_cites_the_article(ro):
    d = decide(ro, "4H", "MODEL", 20)
    assert "D 6.3.a" in d.explain("en") and "D 6.3.a" in d.explain("ro")
    assert "inverted" in d.explain("en") and "inversate" in d.explain("ro")
    assert "RULES.md §3.2 / D 6.3.a" in d.articles()


# --- variants (§6, D 8) -------------------------------------------------------------------------

def test_D_8_3_eliptic_at_most_seven_tiles(ro):
    words = WORDS | {"MODELARE"}
    d = decide(ro, "H4", "MODELARE", 0, rack="MODELARE", variant="eliptic", words=words)
    assert d.violation.reason is Reason.TOO_MANY_TILES
    assert decide(ro, "H4", "MODEL", 26, rack="MODELARE", variant="eliptic").status is Status.VALID


def test_D_8_2_completiv_letter_from_stock(ro):
    d = decide(ro, "H4", "MODEL", 26, rack="ODELRA", variant="completiv", stock="M?")
    assert (d.status, d.warning, d.score) == (Status.VALID, None, 26)


def test_D_8_2_completiv_letter_not_in_stock_unmarked_is_joker_with_warning(ro):
    d = decide(ro, "H4", "MODEL", 10, rack="ODELRA", variant="completiv", stock="AB?")
    assert (d.warning, d.score, str(d.move)) == (WarningKind.JOKER_NOT_MARKED, 10, "H4 mODEL")


def test_D_8_2_completiv_marked_letter_still_in_stock_is_zero(ro):
    d = decide(ro, "H4", "mODEL", 10, rack="ODELRA", variant="completiv", stock="M?")
    assert (d.warning, d.score) == (None, 10)


def test_D_8_2_completiv_marking_with_no_joker_left_is_a_warning(ro):
    d = decide(ro, "H4", "mODEL", 26, rack="ODELRA", variant="completiv", stock="MAB")
    assert (d.warning, d.score) == (WarningKind.JOKER_MARKED_WITHOUT_JOKER, 26)


def test_D_8_2_completiv_letter_not_in_stock_and_no_joker_is_incorrect(ro):
    d = decide(ro, "H4", "MODEL", 26, rack="ODELRA", variant="completiv", stock="AB")
    assert d.violation.reason is Reason.LETTERS_NOT_IN_GROUP


def test_D_8_5_super_joker_two_letters_from_stock(ro):
    assert decide(ro, "H4", "MODEL", 26, rack="ODEAR", variant="super_joker", stock="ML").status is Status.VALID
    assert decide(ro, "H4", "MODEL", 26, rack="ODEAR", variant="completiv", stock="ML").status is Status.INCORRECT


def test_D_8_7_metagrama_one_letter_swapped(ro):
    assert decide(ro, "H4", "MODEL", 26, rack="ODELRAX", variant="metagrama", stock="M").status is Status.VALID
    d = decide(ro, "H4", "MODELE", 0, rack="ODELRAX", variant="metagrama", stock="ME")
    assert d.status is Status.INCORRECT  # two letters would have to come from the stock
