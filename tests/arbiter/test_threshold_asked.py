"""`round scan --threshold P`: the confidence the arbiter asks for rules the decoder's decisions too
(`arbiter.slips.decoding.held_to`); the end-to-end scan is `tests/safety/test_scans.py`."""
from __future__ import annotations

from corrector.decoding.decoder import Candidate, Outcome, Reading, Verdict

from arbiter.slips.decoding import held_to
from arbiter.words.reasons import review_reason


def _verdict(p: float) -> Verdict:
    best = Candidate(Reading(7, 3, "H4", "MODEL", (), 26), p, Outcome("valid", 26, None, None), "ok")
    return Verdict(True, best, (best,))


def test_a_decision_less_sure_than_the_threshold_asked_goes_to_review_saying_why():
    held = held_to(_verdict(0.9991), 0.9995)
    assert not held.decided and held.best == _verdict(0.9991).best
    said = review_reason(f"decoder: {held.doubt}")
    assert said.startswith("sigur 100 %") and "sub pragul de încredere cerut la scanare" in said
    assert "below the confidence asked for" in review_reason(f"decoder: {held.doubt}", lang="en")


def test_a_decision_as_sure_as_asked_or_no_threshold_asked_stands():
    for p, asked in ((0.9995, 0.9995), (0.97, None)):
        verdict = _verdict(p)
        assert held_to(verdict, asked) is verdict
    undecided = Verdict(False, _verdict(0.5).best, (), doubt="0.500 sure of …")
    assert held_to(undecided, 0.9) is undecided
