"""The anticipation input of `fluturas judge` (docs/anticipation.md): dispatch on
`"type": "anticipation"`, schema errors named by field, the sample game corrected."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from corrector.anticipation.judge import load_game
from corrector.errors import AnticipationInputError

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "anticipation" / "small.json"


def test_section_7_fluturas_judge_corrects_an_anticipation_file():
    run = CliRunner().invoke(main, ["judge", str(SAMPLE), "--json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    assert out["type"] == "anticipation" and out["verifications"][0]["words"] == [{"word": "LAC", "valid": True}]
    assert [(p["table"], p["total"], p["rank"]) for p in out["players"]] == [(1, 8, 1), (2, 8, 1)]
    text = CliRunner().invoke(main, ["judge", str(SAMPLE)])
    assert text.exit_code == 0 and text.output.startswith("Verificare")


def test_section_7_a_file_without_the_anticipation_type_is_not_taken_for_one():
    from corrector.anticipation.judge import is_anticipation

    assert not is_anticipation({"rules": "ro", "variant": "classic"})
    assert is_anticipation(json.loads(SAMPLE.read_text(encoding="utf-8")))


def test_section_7_schema_errors_are_all_named_by_field():
    case = json.loads(SAMPLE.read_text(encoding="utf-8"))
    case["variant"] = "oarba"
    case["slips"][0]["tabel"] = 1
    with pytest.raises(AnticipationInputError) as err:
        load_game(case, SAMPLE.parent, "small.json")
    assert "field slips.0" in str(err.value) and "field variant" in str(err.value)
