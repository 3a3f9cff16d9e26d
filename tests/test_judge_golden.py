"""Golden rulings (docs/architecture.md, house rules): each `tests/golden/judge/<name>.json` is a small judge input whose
`description` says what it shows; `<name>.expected.json` is the reviewed output of
`fluturas judge <name>.json --json`. Regenerate on purpose only:
`FLUTURAS_REGEN_GOLDEN=1 python -m pytest tests/test_judge_golden.py`, then review the diff."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from corrector.judging.case import load_case
from corrector.judging.judge import judge_case
from corrector.judging.report import result_json

GOLDEN = Path(__file__).parent / "golden" / "judge"
CASES = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_golden_ruling(case: Path):
    produced = _dump(result_json(judge_case(load_case(case))))
    expected = case.with_name(case.stem + ".expected.json")
    if os.environ.get("FLUTURAS_REGEN_GOLDEN") == "1":
        expected.write_text(produced, encoding="utf-8")
    assert expected.exists(), f"no reviewed output for {case.name}: regenerate on purpose and review it"
    assert produced == expected.read_text(encoding="utf-8")


def test_every_golden_case_says_what_it_shows():
    assert len(CASES) >= 10
    for case in CASES:
        assert json.loads(case.read_text(encoding="utf-8")).get("description"), case.name
