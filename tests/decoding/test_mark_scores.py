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
from corrector.decoding.markscores import SUREST, MarkScores, fit, load_mark_scores, save_mark_scores
from tests.decoding.helpers import decoder, record

WORDS = {"MODEL", "MODELE", "MARE", "ME", "EL", "AR", "DOR", "ROD", "DAR", "RAD", "ERA", "MAL", "LAM", "MOD", "MODE"}


def kinds(circle: float = 0.0, dot: float = 0.0, tick: float = 0.0) -> dict[str, float]:
    """A box's scores as the reading record gives them, one per kind the detector looked for."""
    return {"circle": circle, "dot": dot, "tick": tick}


def calibration_like(seed: int = 5) -> list[tuple[dict[str, float], bool]]:
    """Box scores as the detector gives them on calibration hands: 100 marks drawn, most found at
    0.75–1, three missed (two dots half seen at 0.3); 4,000 plain letters, mostly 0, some loose ring
    fits at 0.1–0.3 and stroke ends at 0.1–0.4 as dots, a few at 0.85."""
    rng = random.Random(seed)
    marks = ([(kinds(circle=rng.uniform(0.75, 1.0)), True) for _ in range(97)] + [(kinds(), True)]
             + [(kinds(dot=0.3), True)] * 2)
    plain = ([(kinds(), False)] * 2800 + [(kinds(circle=rng.uniform(0.1, 0.3)), False) for _ in range(800)]
             + [(kinds(dot=rng.uniform(0.1, 0.45)), False) for _ in range(392)] + [(kinds(circle=0.85), False)] * 8)
    return marks + plain


def test_fit_reads_the_counts_and_never_lowers_a_higher_score():
    scores = fit(calibration_like())
    assert scores.monotone()
    assert scores.probability(kinds(circle=0.88)) == SUREST  # 97 marks against 8 plain letters: as sure as any bin says
    assert scores.probability(kinds()) < 0.05  # one mark missed among 2,800 plain letters at 0
    assert 0.02 < scores.probability(kinds(dot=0.3)) < 0.3  # 2 marks among 392 stroke ends
    assert scores.probability(kinds()) > 0  # a mark missed by the detector is never impossible
    for weak in (kinds(circle=0.2), kinds(dot=0.2)):  # a higher score never says less than a lower one
        assert scores.probability(kinds()) <= scores.probability(weak) <= scores.probability(kinds(circle=0.6))


def test_a_loose_ring_fit_is_told_apart_from_a_half_seen_dot():
    """Among the weak scores (0.05–0.5) the ring search's loose fits on plain letters are many and
    hide no mark, while a dot half seen may be a mark drawn: one ratio for both made every plain
    letter with a loose ring fit a likely "letter marked as a joker"."""
    split = fit(calibration_like())
    joined = fit(calibration_like(), split=None)
    loose_ring, half_dot = kinds(circle=0.2), kinds(dot=0.3)
    assert split.probability(loose_ring) < 0.6 * joined.probability(loose_ring)
    assert split.probability(half_dot) > joined.probability(half_dot)
    assert split.bin(kinds(circle=0.2, dot=0.06)) == split.bin(half_dot)  # a dot seen at all is no loose ring


def test_an_empty_bin_stays_modest():
    scores = fit([(kinds(circle=0.95), True)] * 3 + [(kinds(), False)] * 50)
    assert 0.3 < scores.probability(kinds(circle=0.6)) < 0.95  # no slip scored there: both pseudo-counts speak


def test_saved_and_loaded_alike(tmp_path):
    scores = fit(calibration_like())
    save_mark_scores(scores, tmp_path / "marks.json")
    again = load_mark_scores(tmp_path / "marks.json")
    assert again is not None and again.edges == scores.edges and again.split == scores.split
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
    assert isinstance(shipped, MarkScores) and shipped.monotone()
    low, high = kinds(), kinds(circle=0.95)
    for weak in (kinds(circle=0.2), kinds(dot=0.2), kinds(circle=0.6)):
        assert shipped.probability(low) <= shipped.probability(weak) <= shipped.probability(high)


def test_RULES_3_plain_letters_with_loose_ring_fits_are_decided_as_written(ro):
    """A group without a joker, every letter of MODEL with a loose ring fit (0.2) and nothing seen as
    a dot: with one ratio for every weak score the slip went to review as "a letter marked as a
    joker?"; told apart by kind it is decided valid, as written."""
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1)
    strict = replace(dec.p, threshold=0.99925, threshold_overrule=0.99925)  # between the two (0.99913, 0.99940)
    rec = record(1, 5, 26, "H4", "MODEL")
    for char in rec["fields"]["depunere"]["chars"]:
        char["marks"] = kinds(circle=0.2)
    joined = SlipDecoder(dec.k, strict, confusion=None, mark_scores=fit(calibration_like(), split=None)).decode(rec)
    assert not joined.decided
    assert "JOKER_MARKED_WITHOUT_JOKER" in {c.outcome.warning for c in joined.candidates}
    split = SlipDecoder(dec.k, strict, confusion=None, mark_scores=fit(calibration_like())).decode(rec)
    assert split.decided
    assert (split.best.outcome.status, split.best.outcome.warning, split.best.reading.jokers) == ("valid", None, ())


def test_RULES_3_one_false_mark_alone_never_decides_a_letter_marked_as_a_joker(ro):
    """A group without a joker and MODEL written plainly, its L's stroke end scored 0.95 as a dot (a
    ball-ended stroke, a false mark). Counted on calibration hands alone the top bin says a mark at
    0.9993, and the slip was decided "letter marked as a joker" (a warning the player did not
    earn: CUSPIDAT on the validation hands); no bin says more than `SUREST`, so it goes to review."""
    dec = decoder(ro, WORDS, "AEMODLR", round_no=1)
    below_one = replace(dec.p, threshold=0.85, threshold_overrule=0.99)
    rec = record(1, 5, 26, "H4", "MODEL")
    for i, char in enumerate(rec["fields"]["depunere"]["chars"]):
        char["marks"] = kinds(dot=0.95 if i == 4 else 0.0)
    counted = fit(calibration_like(), surest=1.0)
    assert counted.probability(kinds(dot=0.95)) > 0.999
    trusted = SlipDecoder(dec.k, below_one, confusion=None, mark_scores=counted).decode(rec)
    assert trusted.decided and trusted.best.outcome.warning == "JOKER_MARKED_WITHOUT_JOKER"
    capped = fit(calibration_like())
    assert capped.probability(kinds(dot=0.95)) == SUREST
    v = SlipDecoder(dec.k, below_one, confusion=None, mark_scores=capped).decode(rec)
    assert not (v.decided and v.best.outcome.warning == "JOKER_MARKED_WITHOUT_JOKER")
    assert {"JOKER_MARKED_WITHOUT_JOKER", None} <= {c.outcome.warning for c in v.candidates}
