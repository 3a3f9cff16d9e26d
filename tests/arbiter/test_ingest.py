"""Filing slips: idempotent by content hash, a second slip for a table asks which to keep, an
unsure reading goes to the review queue, nothing is merged or dropped silently."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from arbiter.errors import ReadingError
from arbiter.slips.ingest import file_reading, missing_tables
from arbiter.store.models import ReviewItem, Slip
from arbiter.slips.readings import parse_reading, read_readings_file

from .helpers import ARBITER, make_game, reading, write_jsonl


def never(_old, _new):
    raise AssertionError("no table conflict expected")


def file_all(store, game_id, records, choose=never):
    return [file_reading(store, game_id, 1, parse_reading(r, "test", 0.9), ARBITER, choose) for r in records]


def test_same_image_twice_is_one_slip(store, tmp_path):
    game_id = make_game(store, tmp_path)
    first = file_all(store, game_id, [reading(1), reading(2)])
    again = file_all(store, game_id, [reading(1), reading(2)])
    assert [f.outcome for f in first] == ["filed", "filed"]
    assert [f.outcome for f in again] == ["duplicate", "duplicate"]
    assert [f.slip_id for f in again] == [f.slip_id for f in first]
    with store.session() as s:
        assert len(s.scalars(select(Slip)).all()) == 2
    assert missing_tables(store, game_id, 1) == [3]


def test_second_slip_for_a_table_keeps_the_chosen_one(store, tmp_path):
    game_id = make_game(store, tmp_path)
    file_all(store, game_id, [reading(1, word="MODEL", sha="a" * 64)])
    asked = []

    def keep_new(old, new):
        asked.append((old.content["word"], new.values["word"]))
        return "new"

    (outcome,) = file_all(store, game_id, [reading(1, word="MODELA", sha="b" * 64)], keep_new)
    assert asked == [("MODEL", "MODELA")] and outcome.outcome == "filed"
    (kept_old,) = file_all(store, game_id, [reading(1, word="AMOR", sha="c" * 64)], lambda o, n: "old")
    assert kept_old.outcome == "superseded"
    with store.session() as s:
        slips = {x.content["word"]: x.state for x in s.scalars(select(Slip))}
    assert slips == {"MODEL": "superseded", "MODELA": "filed", "AMOR": "superseded"}


def test_unsure_or_unseated_slips_go_to_review(store, tmp_path):
    game_id = make_game(store, tmp_path)
    outcomes = file_all(store, game_id, [reading(2, confidence=0.5, sha="d" * 64), reading(9, sha="e" * 64),
                                         reading(None, sha="f" * 64), reading(3, rnd=4, sha="9" * 64)])
    assert [o.table for o in outcomes] == [None, None, None, 3]
    with store.session() as s:
        reasons = sorted(i.reason for i in s.scalars(select(ReviewItem)))
    assert reasons == ["table 9 is not seated", "table number unreadable",
                       "table number unreadable; unsure: word", "the slip says round 4, filed in round 1"]


def test_reading_files_name_the_line_and_field(tmp_path):
    good = write_jsonl(tmp_path / "r.jsonl", [reading(1), {"TUR": "1", "MASA": "2", "PUNCTE": "12",
                                                           "POZ": "8H", "DEPUNERE": "AMOR"}])
    first, second = read_readings_file(good, 0.9)
    assert first.content() == {"table": 1, "round": 1, "score": 26, "position": "H4", "word": "MODEL", "jokers": []}
    assert second.content()["position"] == "8H" and second.unsure == ()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"fields": {}}\n{not json\n', encoding="utf-8")
    with pytest.raises(ReadingError, match=r"bad.jsonl: line 2: not JSON"):
        read_readings_file(bad, 0.9)
    with pytest.raises(ReadingError, match=r"field word.confidence"):
        parse_reading({"fields": {"word": {"text": "A", "confidence": 7}}}, "x", 0.9)


def test_slip_images_through_the_real_scanner(tmp_path):
    """Synthetic slips (the scanner's renderer) read by the scanner with the Tesseract reader: what
    it cannot read surely goes to review; the same image scanned again is the same slip."""
    import cv2
    import numpy as np
    from scanner.synth.slip import render_slip
    from scanner.template import builtin_templates

    from arbiter.slips.ingest import collect_readings
    from arbiter.store.store import open_store

    template = next(t for t in builtin_templates() if t.id.startswith("duplicat"))
    image = tmp_path / "slip.png"
    values = {"tur": "01", "masa": "002", "poz": "H4", "puncte": "26", "depunere": "MODEL"}
    cv2.imwrite(str(image), render_slip(template, values, np.random.default_rng(7)))
    store = open_store(tmp_path / "s.db")
    game_id = make_game(store, tmp_path)
    (first,) = [file_reading(store, game_id, 1, r, ARBITER, never)
                for r in collect_readings([image], 0.95, reader="tesseract")]
    (again,) = [file_reading(store, game_id, 1, r, ARBITER, never)
                for r in collect_readings([image], 0.95, reader="tesseract")]
    assert again.outcome == "duplicate" and again.slip_id == first.slip_id
    with store.session() as s:
        slip = s.get(Slip, first.slip_id)
        assert slip.source == str(image) and slip.reading["format"] == "fluturas.reading/1"
        items = s.scalars(select(ReviewItem)).all()
    read_surely = first.table == 2 and not first.review
    assert read_surely or (len(items) == 1 and items[0].slip_id == first.slip_id)


def test_scanner_record_fields(tmp_path):
    record = {"format": "fluturas.reading/1", "source": "a.pdf", "page": 2, "slip_index": 3,
              "qr": "fluturas:v1;game=1;round=1;table=12",
              "fields": {"tur": {"text": "01", "confidence": 0.9, "accepted": True, "valid": True},
                         "masa": {"text": "013", "confidence": 0.99, "accepted": True, "valid": True},
                         "poz": {"text": "H4", "confidence": 0.5, "accepted": True, "valid": True},
                         "puncte": {"text": "", "confidence": 0.99, "accepted": True, "valid": True},
                         "depunere": {"text": "MODEL", "confidence": 0.99, "accepted": True, "valid": False,
                                      "jokers": [1]}}}
    r = parse_reading(record, "x", 0.95)
    assert r.slip_index == 1003 and r.table == 12 and r.jokers == (1,)
    assert r.unsure == ("word", "table_written")  # word boxes off the grammar; QR 12 vs written 13
    assert r.values.get("score") is None
    with pytest.raises(ReadingError, match="could not be read: truncated"):
        parse_reading({"source": "b.png", "error": "truncated"}, "x", 0.95)
