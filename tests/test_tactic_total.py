"""The round total of a tactic slip (RULES.md §6 **Decision**, D 8.6: "greșeala de calcul sau
omisiunea" of each score, the round total included): checked whatever the rulings of the moves —
also when a move is incorrect or only one move is written. Right when it equals the sum of the
scores written on the slip or the points the round credits; missing or equal to neither, a
warning (one per slip, D 6.2; none when the round scores 5 or less)."""
from __future__ import annotations

import pytest

from tests.test_judge import WORDS, run, slip_of

MODEL = {"position": "8D", "word": "MODEL", "score": 26}   # legal, 26 points
ARE = {"position": "7F", "word": "ARE", "score": 12}       # legal after MODEL, 12 points
ARA = {"position": "7F", "word": "ARA", "score": 12}       # not in the word list (D 6.1.a)
MODAL = {"position": "8D", "word": "MODAL", "score": 26}   # not in the word list (D 6.1.a)


def tactic_slip(moves: list[dict], total: int | None) -> dict:
    data = {"rules": "ro", "category": "senior", "variant": "tactic", "words": WORDS,
            "players": [{"table": 1, "name": "A"}],
            "rounds": [{"round": 1, "rack": ["AEMODLR", "ARECSUT"], "continuation": ["8D MODEL", "7F ARE"],
                        "slips": [{"table": 1, "round": 1, "moves": moves, "total": total}]}]}
    return slip_of(run(data), 1, 1)


@pytest.mark.parametrize("total, warned", [
    (None, True),    # left blank: a warning (D 8.6)
    (38, False),     # the sum of the scores written on the slip
    (26, False),     # the points the round credits (the incorrect move scores 0)
    (40, True),      # neither
])
def test_D_8_6_total_is_checked_when_a_move_is_incorrect(total, warned):
    slip = tactic_slip([MODEL, ARA], total)
    assert (slip["status"], slip["credited"]) == ("VALID", 26)
    assert slip["warning"] == ("SCORE_WRONG" if warned else None)


@pytest.mark.parametrize("total, warned", [(None, True), (26, False), (30, True)])
def test_D_8_6_total_is_checked_when_only_one_move_is_written(total, warned):
    slip = tactic_slip([MODEL], total)
    assert slip["credited"] == 26
    assert slip["warning"] == ("SCORE_WRONG" if warned else None)


def test_D_8_6_total_of_a_penalised_move_counts_as_written_or_as_credited():
    """8D MODEL written D8 (inverted signs, D 6.3.a): 26 − 20 = 6 credited."""
    inverted = {**MODEL, "position": "D8"}
    assert tactic_slip([inverted, ARE], 38)["warning"] is None        # 26 + 12 as written
    assert tactic_slip([inverted, ARE], 18)["warning"] is None        # 6 + 12 credited
    assert tactic_slip([inverted, ARE], 20)["warning"] == "SCORE_WRONG"


def test_D_6_2_no_warning_when_every_move_is_incorrect_but_the_wrong_total_is_recorded():
    """Both moves incorrect: the round scores 0, so the wrong total is waived (D 6.2: no warning
    in a round scoring 5 or less), and the ruling says so."""
    slip = tactic_slip([MODAL, ARA], 99)
    assert (slip["status"], slip["credited"], slip["warning"]) == ("INCORRECT", 0, None)
    assert slip["waived"] == ["SCORE_WRONG"]
