"""A wrongly declared score is near the move's (a letter or a premium miscounted): a declared score
far from a move's weighs `score.far` times less for that move than a near one (`priors.json`).
Without it, `GRIJI` written with 71 declared (the move makes 74) was credited as the legal `CRISI`
(23) on a held-out pile where two of its boxes read C and S."""
from __future__ import annotations

import math
from dataclasses import replace

import pytest

from corrector.decoding import SlipDecoder
from tests.decoding.helpers import decoder

WORDS = {"ARDEIIND", "NU", "ARDE", "DAR", "RAD", "IED", "DIN", "ERA", "AER", "RADE", "DIE"}


@pytest.fixture(scope="module")
def dec(ro):
    return decoder(ro, WORDS, "ARDEIID", placed=(("11H", "NU"),), round_no=3)


def test_RULES_3_d_a_far_declared_score_weighs_far_less_than_a_near_one(dec):
    near, far = dec.p.score["near"], dec.p.score["far"]
    assert 0 < far < 1 and near >= 10  # the shipped priors use the rule
    assert dec._wrong_score(71, 74) - dec._wrong_score(71, 23) == pytest.approx(-math.log(far))
    assert dec._wrong_score(74 + near, 74) == dec._wrong_score(74 - 1, 74)
    assert dec._wrong_score(74 + near + 1, 74) < dec._wrong_score(74 + near, 74)


def test_without_the_rule_every_wrong_score_weighs_alike(dec):
    flat = SlipDecoder(dec.k, replace(dec.p, score={k: v for k, v in dec.p.score.items() if k not in ("near", "far")}),
                       confusion=None, mark_scores=None)
    assert flat._wrong_score(71, 74) == flat._wrong_score(71, 23)
