"""Real slip images through the real scanner, then the decoder (RULES.md §3): a one-letter invalid
word, a one-digit wrong declared score and one wrong sign, each written clearly one box away from
the round's legal move, go to review or to their true ruling, never to the nearby legal move —
even under priors that lean on legal moves a million to one (a badly fitted calibration): the ink
has the last word (`priors.json` ink).

The round: NU stands down from H11; the group ARDEIID lays ARDEIIND at H5 through its N (74)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from corrector.decoding import Reading, RoundKnowledge, SlipDecoder
from corrector.judging.decision import RoundContext
from corrector.judging.group import build_group
from corrector.words.lexicon import Lexicon
from tests.boards import board_with
from tests.decoding.helpers import scanned

LOW_THRESHOLD = 0.95
from tests.decoding.test_ink_veto import NO_VETO, WORDS

LEGAL = Reading(7, 3, "H5", "ARDEIIND", (), 74)
SLIPS = {  # what was written, and the box that tells it from the legal move
    "one-letter invalid word (D 6.1.a)": (replace(LEGAL, word="ARDEIIID"), ("depunere", 6, "I")),
    "one-digit wrong score (D 6.2.d)": (replace(LEGAL, score=75), ("puncte", 1, "5")),
    "one wrong sign (D 6.3.b)": (replace(LEGAL, position="H6"), ("poz", 1, "6")),
}


@pytest.fixture(scope="module")
def knowledge(ro):
    board = board_with(ro, ("11H", "NU"))
    group = build_group("classic", ro, board, ro.tiles.parse_rack("ARDEIID"))
    return RoundKnowledge.build(RoundContext(ro, board, group, Lexicon.from_words(WORDS, ro)), 3, range(1, 41))


@pytest.fixture(scope="module")
def readings():
    return {name: scanned({"tur": "3", "masa": "7", "poz": w.position, "puncte": str(w.score), "depunere": w.word})
            for name, (w, _) in SLIPS.items()}


def _leaning(priors):
    """Priors that all but forbid a free reading, a wrong declared score and a wrong sign, with a
    threshold of 0.95 (a badly fitted calibration)."""
    return replace(priors, free=1e-7, score={**priors.score, "wrong": 1e-6},
                   written={**priors.written, "one_sign": 1e-6, "inverted": 1e-6},
                   threshold=LOW_THRESHOLD, threshold_overrule=LOW_THRESHOLD)


@pytest.mark.parametrize("name", list(SLIPS))
def test_RULES_3_clear_one_box_mistake_never_goes_to_the_nearby_legal_move(knowledge, readings, name):
    written, (field, box, char) = SLIPS[name]
    record = readings[name]
    assert record["fields"][field]["text"][box] == char  # written clearly: the scanner reads it so
    shipped = SlipDecoder(knowledge)
    truth, legal = shipped.rule(written), shipped.rule(LEGAL)
    assert truth != legal
    for decoder in (shipped, SlipDecoder(knowledge, _leaning(shipped.p))):
        v = decoder.decode(record)
        assert not (v.decided and v.best.outcome == legal), (name, v.doubt)
        assert not v.decided or (v.best.reading.table, v.best.outcome) == (7, truth), (name, v.best)


def test_without_the_ink_veto_the_leaning_priors_file_the_legal_move(knowledge, readings):
    """What the veto stops: the same slips, priors leaning on legal moves, no veto."""
    blind = SlipDecoder(knowledge, replace(_leaning(SlipDecoder(knowledge).p), ink=NO_VETO))
    legal = blind.rule(LEGAL)
    wrong = [name for name in SLIPS if (v := blind.decode(readings[name])).decided and v.best.outcome == legal]
    assert wrong, "the leaning priors decide none of the slips for the legal move: the test would prove nothing"
