"""The joker-mark detector's scores read as calibrated chances (corrector/decoding/markscores.py).

Its confidence is a score: a circle found scores 0.8–0.95, a plain letter's stroke end up to 0.4 as
a dot. Taken as a probability, a found circle could never outweigh a forgotten mark (RULES.md §3,
"joker not marked"), and every slip with a joker went to review. Calibrated on slips where the
marks drawn are known, a found circle is decided, a forgotten one is not taken for a missed one."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from corrector.decoding import SlipDecoder
from corrector.decoding.markscores import MarkScores, fit, load_mark_scores, save_mark_scores
from tests.decoding.helpers import decoder, record

WORDS = {"MODEL", "MODELE", "MARE", "ME", "EL", "AR", "DOR", "ROD", "DAR", "RAD", "ERA", "MAL", "LAM", "MOD", "MODE"}


def calibration_like(seed: int = 5) -> list[tuple[float, bool]]:
    """Box scores as the detector gives them on calibration hands: 100 marks drawn, most found at
    0.75–1, two missed; 4,000 plain letters, mostly 0, some stroke ends at 0.1–0.4, a few at 0.85."""
    rng = random.Random(seed)
    marks = [(rng.uniform(0.75, 1.0), True) for _ in range(98)] + [(0.0, True), (0.3, True)]
    plain = ([(0.0, False)] * 2800 + [(rng.uniform(0.1, 0.45), False) for _ in range(1192)]
             + [(0.85, False)] * 8)
    return marks + plain


def test_fit_reads_the_counts_and_never_lowers_a_higher_score():
    scores = fit(calibration_like())
    chances = scores.chance
    assert list(chances) == sorted(chances)
    assert scores.probability(0.88) > 0.99  # 92 marks against 8 plain letters up there
    assert scores.probability(0.0) < 0.05  # one mark missed among 2,800 plain letters at 0
    assert 0.02 < scores.probability(0.3) < 0.15  # 1 mark among 1,192 stroke ends
    assert scores.probability(0.0) > 0  # a mark missed by the detector is never impossible


def test_an_empty_bin_stays_modest():
    scores = fit([(0.95, True)] * 3 + [(0.0, False)] * 50)
    assert 0.3 < scores.probability(0.6) < 0.95  # no slip scored there: both pseudo-counts speak


def test_saved_and_loaded_alike(tmp_path):
    scores = fit(calibration_like())
    save_mark_scores(scores, tmp_path / "marks.json")
    again = load_mark_scores(tmp_path / "marks.json")
    assert again is not None and again.edges == scores.edges
    assert again.chance == pytest.approx(scores.chance, abs=1e-6)
    assert load_mark_scores(tmp_path / "none.json") is None


def _scored(rec: dict, scores: dict[int, float]) -> dict:
    for i, char in enumerate(rec["fields"]["depunere"]["chars"]):
        char["marks"] = {"circle": scores.get(i, 0.0), "dot": 0.0, "tick": 0.0}
    return rec


def test_RULES_3_a_circle_found_is_decided_not_doubted(ro):
    """A found circle at 0.85 and a stroke end at 0.3 as a dot on the next letter: with the raw
    confidence doubted the slip went to review as "joker not marked?"; calibrated it is valid."""
    dec = decoder(ro, WORDS, "AEMOD?R", round_no=1)
    strict = replace(dec.p, mark={**dec.p.mark, "doubt": 0.1}, threshold=0.999, threshold_overrule=0.999)
    rec = _scored(record(1, 5, 24, "H4", "MODEL", jokers=(4,)), {4: 0.85, 3: 0.3})
    raw = SlipDecoder(dec.k, strict, confusion=None, mark_scores=None).decode(rec)
    assert not raw.decided
    assert "JOKER_NOT_MARKED" in {c.outcome.warning for c in raw.candidates}
    calibrated = SlipDecoder(dec.k, strict, confusion=None, mark_scores=fit(calibration_like())).decode(rec)
    assert calibrated.decided
    assert (calibrated.best.outcome.status, calibrated.best.outcome.warning) == ("valid", None)
    assert calibrated.best.reading.jokers == (4,)


def test_RULES_3_a_forgotten_mark_is_never_taken_for_a_missed_one(ro):
    """The L of MODEL can only be the joker; the player drew no mark (score 0): the slip is ruled
    "joker not marked" or goes to review, never decided valid as if the detector had missed it."""
    dec = decoder(ro, WORDS, "AEMOD?R", round_no=1)
    rec = _scored(record(1, 5, 24, "H4", "MODEL"), {})
    v = SlipDecoder(dec.k, dec.p, confusion=None, mark_scores=fit(calibration_like())).decode(rec)
    assert not (v.decided and v.best.outcome.warning is None)
    assert "JOKER_NOT_MARKED" in {c.outcome.warning for c in v.candidates}


def test_shipped_scores_when_present_are_monotone():
    shipped = load_mark_scores()
    if shipped is None:
        pytest.skip("no marks.json: the decoder falls back on mark.doubt")
    assert isinstance(shipped, MarkScores) and list(shipped.chance) == sorted(shipped.chance)
