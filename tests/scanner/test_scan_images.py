"""Real images through the real scanner: rotation, several slips, perspective, empty, other forms, bad files."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from cli import main
from scanner import ScanOptions, scan_paths
from scanner.printing import Prefill, render_sheets
from scanner.reading import Reading
from scanner.synth.slip import PageStyle, render_page, render_slip
from scanner.template import load_template, parse
from tests.scanner.helpers import VALUES, assert_accepted_fields_right, char_accuracy, write


def _scan(paths, options=None):
    return list(scan_paths([str(p) for p in paths], options))


def test_upside_down_slip_reads_like_an_upright_one(tmp_path, duplicat, rng, style):
    slip = render_slip(duplicat, VALUES, rng, style)
    page = render_page([slip], rng, PageStyle(quarter_turns=(2,)))
    [r] = _scan([write(tmp_path / "turned.png", page)])
    assert r.template_id == "duplicat-v1" and r.error is None
    # the slip's top-left corner is now at the bottom right of the page
    assert r.slip_box[0][1] > r.slip_box[2][1]
    assert char_accuracy(r, VALUES) >= 0.9
    assert_accepted_fields_right(r, VALUES)


def test_four_slips_on_one_page_are_all_found_in_reading_order(tmp_path, duplicat, rng, style):
    words = ["AB", "CASA", "ZEU", "TEXT"]
    slips = [render_slip(duplicat, {**VALUES, "depunere": w}, rng, style) for w in words]
    page = render_page(slips, rng, PageStyle(quarter_turns=(0, 2)))
    readings = _scan([write(tmp_path / "four.png", page)])
    assert [r.slip_index for r in readings] == [0, 1, 2, 3]
    assert all(r.template_id == "duplicat-v1" for r in readings)
    got = [r.fields["depunere"].text for r in readings]
    assert sum(g == w for g, w in zip(got, words)) >= 3, got


def test_phone_photo_with_perspective(tmp_path, duplicat, rng, style):
    slip = render_slip(duplicat, VALUES, rng, style)
    page = render_page([slip], rng, PageStyle(photo=True, jpeg_quality=80, max_tilt_deg=8))
    [r] = _scan([write(tmp_path / "photo.jpg", page)])
    assert r.template_id == "duplicat-v1"
    assert char_accuracy(r, VALUES) >= 0.9
    assert_accepted_fields_right(r, VALUES)


def test_empty_slip_has_empty_unaccepted_fields(tmp_path, duplicat, rng, style):
    page = render_page([render_slip(duplicat, {}, rng, style)], rng)
    [r] = _scan([write(tmp_path / "empty.png", page)])
    assert r.template_id == "duplicat-v1"
    for f in r.fields.values():
        assert f.text == "" and not f.accepted and f.jokers == [] and "empty" in f.warnings


def test_slip_of_another_template_is_read_with_its_own_fields(tmp_path, rng, style):
    tactic = load_template("tactic")
    values = {"tur": "3", "masa": "12", "poz_1": "8D", "puncte_1": "24", "depunere_1": "MAC",
              "poz_2": "K11", "puncte_2": "30", "depunere_2": "RAZA", "total": "54"}
    page = render_page([render_slip(tactic, values, rng, style)], rng)
    [r] = _scan([write(tmp_path / "tactic.png", page)])
    assert r.template_id == "tactic-v1"
    assert set(r.fields) == {f.name for f in tactic.fields}
    assert char_accuracy(r, values) >= 0.9


def test_unknown_form_is_reported_not_misread(tmp_path, rng, style):
    doc = json.loads(Path("templates/duplicat.json").read_text())
    doc["id"] = "foreign-v1"
    doc["markers"]["ids"] = [20, 21, 22, 23]
    foreign = parse(doc, tmp_path / "foreign.json")
    page = render_page([render_slip(foreign, VALUES, rng, style)], rng)
    [r] = _scan([write(tmp_path / "foreign.png", page)])
    assert r.template_id is None and r.fields == {}
    assert "no_slip_found" in r.warnings
    assert any(w.startswith("unknown_template_markers") for w in r.warnings)


def test_corrupt_file_gives_an_error_reading_and_the_batch_goes_on(tmp_path, duplicat, rng, style):
    bad = tmp_path / "a_corrupt.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(200)))
    bad_pdf = tmp_path / "c_corrupt.pdf"
    bad_pdf.write_bytes(b"%PDF-1.7\n garbage")
    good = write(tmp_path / "b_good.png", render_page([render_slip(duplicat, VALUES, rng, style)], rng))
    readings = _scan([bad, good, bad_pdf])
    assert readings[0].error and "a_corrupt.png" in readings[0].error
    assert readings[1].template_id == "duplicat-v1"
    assert readings[2].error and "c_corrupt.pdf" in readings[2].error
    out = tmp_path / "readings.jsonl"
    result = CliRunner().invoke(main, ["scan", str(bad), str(good), "--out", str(out)])
    assert result.exit_code == 1
    assert "a_corrupt.png" in result.output and "batch goes on" in result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 2 and lines[1]["template_id"] == "duplicat-v1"


def test_prefilled_pdf_round_trip_carries_the_qr_code(tmp_path, duplicat):
    pdf = tmp_path / "sheet.pdf"
    render_sheets(duplicat, pdf, prefills=[Prefill("G7", 5, 13, "Ana Pop"), Prefill("G7", 5, 14, "Ion Ionescu")])
    readings = _scan([pdf], ScanOptions(pdf_dpi=150))
    assert [r.qr for r in readings[:2]] == ["fluturas:v1;game=G7;round=5;table=13",
                                            "fluturas:v1;game=G7;round=5;table=14"]
    assert readings[0].page == 1
    assert readings[0].fields["masa"].text == "13"


def test_joker_marks_circle_dot_and_tick(tmp_path, duplicat, rng, style):
    values = {**VALUES, "depunere": "QUIZAT"}
    marks = {("depunere", 0): "circle", ("depunere", 2): "dot", ("depunere", 4): "tick"}
    slip = render_slip(duplicat, values, rng, style, {"depunere": [0, 2, 4]}, marks=marks)
    [r] = _scan([write(tmp_path / "jokers.png", render_page([slip], rng))])
    f = r.fields["depunere"]
    assert f.jokers == [0, 2, 4]
    assert [c.joker for c in f.chars] == ["circle", None, "dot", None, "tick", None]


def test_reading_json_is_the_documented_record(tmp_path, duplicat, rng, style):
    page = render_page([render_slip(duplicat, VALUES, rng, style)], rng)
    [r] = _scan([write(tmp_path / "one.png", page)])
    d = json.loads(r.to_json())
    assert d["format"] == "fluturas.reading/1"
    assert {"source", "page", "slip_index", "template_id", "slip_box", "fields", "qr", "warnings", "error"} <= set(d)
    f = d["fields"]["depunere"]
    assert {"text", "confidence", "accepted", "valid", "chars", "jokers", "warnings"} <= set(f)
    top = f["chars"][0]["top_k"]
    assert len(top) == 3 and abs(sum(p for _, p in top)) <= 1.0 + 1e-6
    assert np.isfinite(f["confidence"])
    assert d["classes"] == "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    for c in f["chars"]:
        assert len(c["probs"]) == len(d["classes"]) and abs(sum(c["probs"]) - 1.0) < 1e-3
        assert all(round(p, 5) == p for p in c["probs"])
        assert d["classes"][int(np.argmax(c["probs"]))] == c["top_k"][0][0]
        assert {"circle", "dot", "tick"} == set(c["marks"]) and all(0.0 <= v <= 1.0 for v in c["marks"].values())
    assert Reading.from_json(r.to_json()).to_dict() == d


def test_a_record_written_before_probs_and_marks_still_loads():
    old = {"format": "fluturas.reading/1", "source": "a.png", "page": 1, "slip_index": 0, "template_id": "duplicat-v1",
           "slip_box": None, "qr": None, "reader": "cnn", "threshold": 0.99, "warnings": [], "error": None,
           "fields": {"depunere": {"text": "AB", "confidence": 0.9, "accepted": False, "valid": True, "jokers": [1],
                                   "warnings": [], "chars": [{"top_k": [["A", 0.9], ["H", 0.05], ["R", 0.01]], "ink": 0.1,
                                                              "joker": None},
                                                             {"top_k": [["B", 0.8]], "ink": 0.1, "joker": "dot"}]}}}
    r = Reading.from_dict(old)
    assert r.classes == "" and r.fields["depunere"].jokers == [1]
    c = r.fields["depunere"].chars[1]
    assert (c.joker, c.probs, c.marks, c.top_k) == ("dot", [], {}, [("B", 0.8)])
