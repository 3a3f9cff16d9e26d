"""`round_benchmark.py --calibrate --hold`: the thresholds hold on every calibration pile, and the
prior search counts what a value decides at the thresholds it would be stored with, held piles
included (a value that lets a misread through on a held pile loses what it gains on the searched
one). A --hold that is no calibration dump is refused before any fitting."""
from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "round_benchmark.py"

pytest.importorskip("onnxruntime")
pytest.importorskip("cv2")


def slip(p: float, right: bool = True, agrees: bool = True, decidable: bool = True) -> tuple:
    return (p, decidable, right, agrees)


def test_thresholds_clear_the_surest_wrong_slip_of_every_pile_with_the_margin(bench):
    searched = [slip(0.999), slip(0.97), slip(0.90, right=False), slip(0.60)]
    held = [slip(0.97, right=False), slip(0.99)]
    alone = bench.thresholds_over([searched], 0.5, 0.25)
    assert alone[0] == pytest.approx(0.900001 + 0.25 * (1 - 0.900001))
    both = bench.thresholds_over([searched, held], 0.5, 0.25)
    assert both[0] == pytest.approx(0.970001 + 0.25 * (1 - 0.970001))
    assert bench.decided_at(searched, alone) == 2 and bench.decided_at(searched, both) == 1


def test_overruling_asks_at_least_as_much_as_agreeing_and_its_own_wrong_slips_more(bench):
    piles = [[slip(0.99), slip(0.95, right=False, agrees=False), slip(0.80, right=False)]]
    threshold, overrule = bench.thresholds_over(piles, 0.5, 0.0)
    assert threshold == pytest.approx(0.800001) and overrule == pytest.approx(0.950001)
    assert bench.thresholds_over([[slip(0.99), slip(0.90, right=False)]], 0.5, 0.0) == pytest.approx((0.900001,) * 2)
    # a slip held whatever its certainty never sets a threshold, and is never counted as decided
    held = [slip(0.999, right=False, decidable=False), slip(0.98)]
    assert bench.thresholds_over([held], 0.5, 0.0) == (0.5, 0.5) and bench.decided_at(held, (0.5, 0.5)) == 1


def test_no_threshold_is_stored_below_the_floor_however_clean_the_piles(bench):
    """Piles whose surest wrong slip is at 0.59 would ask 0.69 with the margin; a floor of 0.85 (the
    default before `FLOOR`) asks more, and a pile that asks more than the floor keeps its own threshold."""
    piles = [[slip(0.99), slip(0.80), slip(0.59, right=False)]]
    assert bench.thresholds_over(piles, 0.5, 0.25)[0] == pytest.approx(0.590001 + 0.25 * (1 - 0.590001))
    assert bench.thresholds_over(piles, 0.85, 0.25) == (0.85, 0.85)
    assert bench.decided_at(piles[0], (0.85, 0.85)) == 1
    surer = [[slip(0.99), slip(0.93, right=False)]]
    assert bench.thresholds_over(surer, 0.85, 0.25)[0] == pytest.approx(0.930001 + 0.25 * (1 - 0.930001))


def test_the_search_keeps_the_value_that_decides_most_with_the_held_piles_too(bench, monkeypatch):
    """Two values of `free`: the looser decides more slips of the searched pile, but a held pile
    decides a slip wrong at 0.97 with it; with the held pile it decides fewer, and loses."""
    from corrector.decoding import load_priors

    def scores(args, priors):
        if priors.free >= 0.003:  # the looser value: more slips surer, and a held misread surer too
            return [[slip(0.99)] * 50 + [slip(0.975)] * 40 + [slip(0.80, right=False)], [slip(0.99, right=False)]]
        return [[slip(0.99)] * 50 + [slip(0.90)] * 40 + [slip(0.88, right=False)], [slip(0.70, right=False)]]

    monkeypatch.setattr(bench, "trial_scores", scores)
    monkeypatch.setattr(bench, "PRIOR_GRID", (("free", (0.001, 0.003)),))
    monkeypatch.setattr(bench, "save_fitted", lambda fitted: None)
    args = type("Args", (), {"floor": 0.5, "margin": 0.25, "choose_on": []})()
    assert bench.fit_priors(args, load_priors(), passes=1).free == 0.001
    monkeypatch.setattr(bench, "trial_scores", lambda args, priors: scores(args, priors)[:1])  # no held pile
    assert bench.fit_priors(args, load_priors(), passes=1).free == 0.003


def test_values_are_chosen_on_the_choose_on_piles_and_held_by_every_pile(bench, monkeypatch):
    """The looser value decides more of the searched (demo-mix) pile, the stricter more of the
    realistic pile given with --choose-on: with it the stricter wins. A misread the looser value
    lets through on the choose-on pile holds its threshold as a held pile's would."""
    from corrector.decoding import load_priors

    def scores(args, priors):
        if priors.free >= 0.003:
            return [[slip(0.99)] * 90, [slip(0.99)] * 10 + [slip(0.95)] * 30 + [slip(0.96, right=False)]]
        return [[slip(0.99)] * 50 + [slip(0.95)] * 30, [slip(0.99)] * 40]

    monkeypatch.setattr(bench, "trial_scores", scores)
    monkeypatch.setattr(bench, "PRIOR_GRID", (("free", (0.001, 0.003)),))
    monkeypatch.setattr(bench, "save_fitted", lambda fitted: None)
    args = type("Args", (), {"floor": 0.5, "margin": 0.0, "choose_on": [Path("realistic.pkl")]})()
    assert bench.fit_priors(args, load_priors(), passes=1).free == 0.001  # 40 of the realistic pile against 10
    piles = scores(args, load_priors().adjusted({"free": 0.003}))
    assert bench.chosen_on(args, piles, bench.thresholds_over(piles, 0.5, 0.0)) == 10  # 0.95 held back by 0.96
    args.choose_on = []
    assert bench.fit_priors(args, load_priors(), passes=1).free == 0.003  # the searched pile alone: 90 against 80


def test_a_hold_that_is_not_a_calibration_dump_is_refused_before_any_work(tmp_path):
    notes = tmp_path / "notes.pkl"
    notes.write_text("not readings")
    done = subprocess.run([sys.executable, str(BENCH), "--calibrate", "--fonts", "calibration", "--slips", "4",
                           "--hold", str(notes)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith(f"--hold {notes}: not the readings of a --dump run")
    missing = subprocess.run([sys.executable, str(BENCH), "--calibrate", "--fonts", "calibration",
                              "--hold", str(tmp_path / "gone.pkl")], capture_output=True, text=True, cwd=ROOT,
                             timeout=300)
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines()[-1].endswith(f"--hold {tmp_path / 'gone.pkl'}: no such file")
    validation = tmp_path / "validation.pkl"
    with open(validation, "wb") as out:  # readings kept by a --dump run, but of the validation hands
        pickle.dump({"piles": [], "unmatched": 0, "run": {"fonts": "validation", "digits": "mnist"}}, out)
    other = subprocess.run([sys.executable, str(BENCH), "--calibrate", "--fonts", "calibration", "--hold", str(validation)],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert other.returncode == 2
    assert other.stderr.strip().splitlines()[-1].endswith(
        f"--hold {validation}: not a --dump of calibration hands with real calibration digits")


def test_a_validation_hold_takes_only_validation_hands(tmp_path):
    """`--hold-validation` sets a floor from the validation hands: a dump of the held-out hands (never
    calibrated on) or of the calibration hands (those are `--hold`) is refused before any work."""
    for fonts in ("held_out", "calibration"):
        pile = tmp_path / f"{fonts}.pkl"
        with open(pile, "wb") as out:
            pickle.dump({"piles": [], "unmatched": 0, "run": {"fonts": fonts, "digits": "mnist"}}, out)
        done = subprocess.run([sys.executable, str(BENCH), "--calibrate", "--fonts", "calibration",
                               "--hold-validation", str(pile)], capture_output=True, text=True, cwd=ROOT, timeout=300)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].endswith(
            f"--hold-validation {pile}: not a --dump of validation hands with real calibration digits")
    alone = subprocess.run([sys.executable, str(BENCH), "--hold-validation", str(tmp_path / "held_out.pkl")],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert alone.returncode == 2 and "--hold-validation is another pile the calibration holds" in alone.stderr
