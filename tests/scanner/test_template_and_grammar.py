"""Templates as validated data, printing, and the field grammars."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli import main
from scanner.errors import TemplateError
from scanner.grammar import Grammar, decode
from scanner.printing import layout
from scanner.template import builtin_templates, check_markers_unique, load_template

CLASSES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def test_builtin_templates_load_with_unique_marker_ids():
    ts = builtin_templates()
    assert {t.id for t in ts} == {"duplicat-v1", "tactic-v1", "anticipatie-v1"}
    check_markers_unique(ts)
    ant = load_template("anticipatie")
    assert {"depunere_1", "depunere_2", "anulez_tur", "verificare", "total"} <= {f.name for f in ant.fields}
    assert len(load_template("duplicat").field("depunere").ticks) == 15


def test_schema_errors_are_all_reported_sorted_by_path(tmp_path):
    doc = json.loads(Path("templates/duplicat.json").read_text())
    doc["colour"] = "red"
    doc["fields"][0]["count"] = 0
    doc["markers"]["ids"] = [1, 1, 2, 3]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(TemplateError) as err:
        load_template(bad)
    text = str(err.value)
    assert str(bad) in text
    lines = text.splitlines()[1:]
    assert len(lines) == 3
    assert lines == sorted(lines, key=lambda s: s.split(":")[0])
    assert "colour" in text and "fields/0/count" in text and "markers/ids" in text


def test_defaults_are_merged_before_validation(tmp_path):
    doc = json.loads(Path("templates/duplicat.json").read_text())
    del doc["box_rgb"]
    p = tmp_path / "t.json"
    p.write_text(json.dumps(doc))
    t = load_template(p)
    assert t.box_rgb == (246, 150, 150) and t.fields[0].ticks == ()


def test_unknown_template_name_is_a_clear_error():
    with pytest.raises(TemplateError, match="no-such-form"):
        load_template("no-such-form")


def test_sheet_layout_fits_eight_duplicate_slips_per_a4():
    assert len(layout(load_template("duplicat"))) == 8
    assert len(layout(load_template("anticipatie"))) == 4


def test_template_print_cli_writes_a_pdf(tmp_path):
    """Blank slips here; pre-filled sets come from the arbiter's store (tests/arbiter/test_exports.py)."""
    out = tmp_path / "s.pdf"
    r = CliRunner().invoke(main, ["template", "print", "duplicat", "--out", str(out), "--count", "9"])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:5] == b"%PDF-" and "2 page(s) of duplicat-v1" in r.output


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    p = np.full((len(rows), len(CLASSES)), 1e-4)
    for i, row in enumerate(rows):
        for ch, v in row.items():
            p[i, CLASSES.index(ch)] = v
    return p / p.sum(axis=1, keepdims=True)


def test_position_accepts_either_order_and_rejects_impossible_squares():
    g = Grammar("position")
    assert decode(g, _probs([{"H": 0.9}, {"4": 0.9}]), CLASSES).text == "H4"
    assert decode(g, _probs([{"8": 0.9}, {"D": 0.9}]), CLASSES).text == "8D"
    # "0" is no column: the grammar prefers the next best reading, O as a row letter is not a column
    got = decode(g, _probs([{"1": 0.9}, {"0": 0.6, "O": 0.4}, {"H": 0.9}]), CLASSES)
    assert got.text == "10H"
    # P is beyond row O: the row must be one of A-O
    got = decode(g, _probs([{"P": 0.7, "F": 0.3}, {"3": 0.9}]), CLASSES)
    assert got.text == "F3"


def test_digit_and_letter_fields_use_their_alphabet_only():
    assert decode(Grammar("digits", 1, 3), _probs([{"O": 0.6, "0": 0.4}]), CLASSES).text == "0"
    assert decode(Grammar("letters", 1, 15), _probs([{"0": 0.6, "O": 0.4}]), CLASSES).text == "O"
    too_long = decode(Grammar("digits", 1, 2), _probs([{"1": 1}, {"2": 1}, {"3": 1}]), CLASSES)
    assert not too_long.valid
