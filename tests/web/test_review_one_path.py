"""The review screen on the real store: the preview of a typed correction goes through the very
parse and checks that saving does (the CLI's `c field=value`), so it never shows a decision the
save then refuses, nor another table than the one saved; a candidate that names the table of a
slip filed under no table is accepted with that table; a PDF slip is cut at the resolution the
scanner read the page at."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.slips.ingest import file_reading
from arbiter.store.models import AuditEntry, ReviewItem, Slip
from arbiter.slips.readings import parse_reading
from arbiter.web.app import create_app

from tests.arbiter.helpers import ARBITER, make_game, reading

from .helpers import candidate, open_items, write_candidates


def csrf_of(client, path="/queue") -> str:
    return re.search(rb'name="csrf-token" content="([^"]+)"', client.get(path).data).group(1).decode()


def signed_in(app, name: str = "ana"):
    client = app.test_client()
    token = csrf_of(client)
    client.post("/login", data={"csrf": token, "name": name})
    return client, token


def file_tables(store, tmp: Path, seated: int, filed: dict[int, str], table_sure: bool = True) -> int:
    """A game of `seated` tables, round 1; the slips of `filed` (table → word) filed from readings
    with an unsure word (each goes to review)."""
    game_id = make_game(store, tmp, seated)
    for t, word in filed.items():
        record = reading(t, word=word, confidence=0.4, sha=f"{t:064x}")
        record["fields"]["table"]["confidence"] = 0.99 if table_sure else 0.3
        file_reading(store, game_id, 1, parse_reading(record, f"t{t}", 0.9), ARBITER, lambda o, n: "new")
    return game_id


def flashed(page: str) -> str:
    found = re.search(r'class="flash error"[^>]*>(.*?)</', page, re.S)
    return unescape(found.group(1)).strip() if found else ""


def slip_state(store, slip_id: int) -> tuple:
    with store.session() as s:
        slip = s.get(Slip, slip_id)
        return slip.table_no, slip.state, dict(slip.content)


def test_preview_shows_the_table_that_saving_stores(store, tmp_path):
    game_id = file_tables(store, tmp_path, 3, {1: "M0DEL"})  # table 2 seated, no slip yet
    (item,) = open_items(store, game_id)
    client, token = signed_in(create_app(store))
    shown = client.post(f"/queue/{item.item_id}/preview", data={"csrf": token, "version": item.version,
                                                                "fields": "masa=2 depunere=MODEL"})
    assert shown.status_code == 200, flashed(shown.get_data(as_text=True))
    preview = shown.get_data(as_text=True).split('id="preview"', 1)[1].split("</p>", 1)[0]
    assert "M2" in preview and "MODEL" in preview  # the slip's own field names are the same fields
    table_no, _state, content = slip_state(store, item.slip_id)
    assert table_no == 1 and content["word"] == "M0DEL"  # the preview stored nothing
    with store.session() as s:
        assert not s.scalars(select(AuditEntry).where(AuditEntry.action == "slip.correct")).all()
    saved = client.post(f"/queue/{item.item_id}/save", data={"csrf": token, "version": item.version,
                                                             "fields": "masa=2 depunere=MODEL"})
    assert saved.status_code == 302
    assert slip_state(store, item.slip_id)[:2] == (2, "filed")


@pytest.mark.parametrize("typed", ["cuvant=MODEL", "poz=Z9", "puncte=-5", "depunere=ECT0PIC", "table=99",
                                   "masa=abc", "jokers=7", 'word="MODEL'])
def test_preview_refuses_exactly_what_saving_refuses(store, tmp_path, typed):
    game_id = file_tables(store, tmp_path, 3, {1: "M0DEL"})
    (item,) = open_items(store, game_id)
    before = slip_state(store, item.slip_id)
    client, token = signed_in(create_app(store))
    form = {"csrf": token, "version": item.version, "fields": typed}
    preview = client.post(f"/queue/{item.item_id}/preview", data=form, follow_redirects=True).get_data(as_text=True)
    assert 'id="preview"' not in preview, f"{typed}: previewed as a decision"
    refused = flashed(preview)
    saved = client.post(f"/queue/{item.item_id}/save", data=form, follow_redirects=True).get_data(as_text=True)
    assert refused and flashed(saved) == refused, (refused, flashed(saved))
    assert "rounds[" not in refused and "key " not in refused and "Traceback" not in refused
    assert slip_state(store, item.slip_id) == before
    with store.session() as s:
        assert s.get(ReviewItem, item.item_id).state == "open"
        assert not s.scalars(select(AuditEntry).where(AuditEntry.action == "slip.correct")).all()  # nothing stored


def test_a_candidate_gives_its_table_to_a_slip_filed_under_none(store, tmp_path):
    game_id = file_tables(store, tmp_path, 3, {1: "MODEL"}, table_sure=False)  # all read right but the table
    (item,) = open_items(store, game_id)
    assert item.table is None and item.content["table"] == 1  # read 1, unsure: filed under no table
    write_candidates(store, item.item_id, [candidate(1, "MODEL", 26, 0.8, "valid", 26)])
    client, token = signed_in(create_app(store))
    answer = client.post(f"/queue/{item.item_id}/accept", data={"csrf": token, "version": item.version,
                                                               "candidate": 0}, follow_redirects=True)
    assert flashed(answer.get_data(as_text=True)) == ""
    assert slip_state(store, item.slip_id)[:2] == (1, "filed")
    with store.session() as s:
        assert s.get(ReviewItem, item.item_id).state == "resolved"


def test_a_pdf_slip_is_cut_where_the_scanner_read_it(store, tmp_path):
    """Four slips on a page saved as a PDF, read by the real scanner at its 200 dpi: the crop the
    review screen shows of each is that slip, pixel for pixel as the page drawn at 200 dpi."""
    import cv2
    import numpy as np
    from PIL import Image

    from scanner.pipeline import ScanOptions, scan_paths
    from scanner.synth.slip import PageStyle, render_page, render_slip
    from scanner.template import builtin_templates

    from arbiter.web.slipcrop import PX_PER_MM

    template = next(t for t in builtin_templates() if t.id == "duplicat-v1")
    rng = np.random.default_rng(7)
    slips = [render_slip(template, {"tur": "1", "masa": str(t), "poz": "H4", "puncte": "26", "depunere": "MODEL"}, rng)
             for t in (1, 2, 3, 4)]
    page = render_page(slips, rng, PageStyle(dpi=200, max_tilt_deg=1.0, quarter_turns=(0,), noise=0.0))
    scans = tmp_path / "scans"
    scans.mkdir()
    pdf = scans / "pile.pdf"
    Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)).save(pdf, resolution=200.0)
    readings = [r for r in scan_paths([pdf], ScanOptions()) if r.slip_box]
    assert len(readings) == 4
    game_id = make_game(store, tmp_path, 4)
    for k, r in enumerate(readings):
        record = r.to_dict() | {"source": "scans/pile.pdf", "sha256": f"{k + 1:064x}"}
        file_reading(store, game_id, 1, parse_reading(record, f"slip {k}", 0.0), ARBITER, lambda o, n: "new")
    client = create_app(store, image_roots=(tmp_path,)).test_client()
    width, height = round(template.width_mm * PX_PER_MM), round(template.height_mm * PX_PER_MM)
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    with store.session() as s:
        filed = s.scalars(select(Slip).order_by(Slip.id)).all()
    assert len(filed) == 4
    for slip in filed:
        shown = client.get(f"/slip/{slip.id}.png")
        assert shown.status_code == 200
        crop = cv2.imdecode(np.frombuffer(shown.data, np.uint8), cv2.IMREAD_COLOR)
        matrix = cv2.getPerspectiveTransform(np.float32(slip.reading["slip_box"]), target)
        truth = cv2.warpPerspective(page, matrix, (width, height), flags=cv2.INTER_AREA, borderValue=(255, 255, 255))
        gray = [cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float32) for x in (crop, truth)]
        assert crop.shape == truth.shape
        assert float(np.mean(np.abs(gray[0] - gray[1]))) < 12, f"slip {slip.id}: the crop is not the slip read"
