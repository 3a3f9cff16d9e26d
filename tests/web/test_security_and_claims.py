"""The app's guards on the real store: CSRF on every write, a named arbiter for every write, the
access token beyond loopback (the hall stays open, read-only), images only of the game's slips;
and claims: one holder at a time, a stale claim expires, a claim never lets a stale save through."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from arbiter.review.claims import ClaimConflict, claim, release
from arbiter.errors import ReviewConflict
from arbiter.store.models import ReviewItem, utcnow
from arbiter.review.review import resolve
from arbiter.web.app import create_app
from arbiter.web.security import is_loopback

from .helpers import flagged_round, open_items


def csrf_of(client, path="/queue") -> str:
    return re.search(rb'name="csrf-token" content="([^"]+)"', client.get(path).data).group(1).decode()


def test_writes_need_csrf_and_a_named_arbiter(any_store, tmp_path):
    store = any_store
    game_id = flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    (item,) = open_items(store, game_id)
    client = create_app(store).test_client()
    token = csrf_of(client)
    assert client.post(f"/queue/{item.item_id}/accept", data={"version": 1}).status_code == 400  # no CSRF
    assert client.post(f"/queue/{item.item_id}/accept", data={"version": 1, "csrf": "forged"}).status_code == 400
    nameless = client.post(f"/queue/{item.item_id}/accept", data={"version": 1, "csrf": token})
    assert nameless.status_code == 403 and "arbitru numit" in nameless.get_data(as_text=True)
    client.post("/login", data={"csrf": token, "name": "ana"})
    assert client.post(f"/queue/{item.item_id}/accept", data={"version": 1, "csrf": token}).status_code == 302
    with store.session() as s:
        assert s.get(ReviewItem, item.item_id).resolved_by == "ana"


def test_access_token_beyond_loopback_hall_stays_open(store, tmp_path):
    flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    client = create_app(store, access_token="t0ken").test_client()
    assert client.get("/queue").status_code == 401
    assert client.get("/results").status_code == 401
    assert client.get("/hall").status_code == 200 and client.get("/hall/state").status_code == 200
    assert client.get("/queue?token=wrong").status_code == 401
    assert client.get("/queue?token=t0ken").status_code == 302  # sets the session, drops the token from the URL
    assert client.get("/queue").status_code == 200
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and not is_loopback("0.0.0.0")


def test_only_the_games_slip_images_are_served(store, tmp_path):
    import cv2
    import numpy as np

    game_id = flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    (item,) = open_items(store, game_id)
    scans = tmp_path / "scans"
    scans.mkdir()
    cv2.imwrite(str(scans / "t1.png"), np.full((140, 200, 3), 255, np.uint8))
    client = create_app(store, image_roots=(tmp_path,)).test_client()
    shown = client.get(f"/slip/{item.slip_id}.png")
    assert shown.status_code == 200 and shown.data[:4] == b"\x89PNG"
    assert client.get("/slip/999.png").status_code == 404
    assert client.get("/slip/2.png").status_code == 404  # table 2's image is not on disk
    for probe in ("/slip/..%2F..%2Fetc%2Fpasswd", "/static/../store.db", "/slip/1.png/../../store.db"):
        assert client.get(probe).status_code == 404


def test_claims_one_holder_expiry_and_no_stale_save(any_store, tmp_path):
    store = any_store
    game_id = flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    (item,) = open_items(store, game_id)
    now = utcnow()
    assert claim(store, item.item_id, "ana", now).by == "ana"
    assert claim(store, item.item_id, "ana", now + timedelta(seconds=30)).by == "ana"  # renewing
    with pytest.raises(ClaimConflict, match="being reviewed by ana"):
        claim(store, item.item_id, "bogdan", now + timedelta(minutes=1))
    assert not release(store, item.item_id, "bogdan")  # only the holder releases
    stale = claim(store, item.item_id, "bogdan", now + timedelta(minutes=10))  # ana walked away
    assert stale.by == "bogdan" and stale.version == item.version  # a claim never moves the version
    resolve(store, item.item_id, item.version, "bogdan", {"word": "MODEL"}, "0 is O")
    with pytest.raises(ReviewConflict, match="already resolved by bogdan"):
        resolve(store, item.item_id, item.version, "ana", {"word": "MODELA"}, "late")
    with pytest.raises(ClaimConflict, match="already resolved"):
        claim(store, item.item_id, "ana")
    with store.session() as s:
        assert s.scalar(select(ReviewItem)).resolved_by == "bogdan"


def test_english_switch(store, tmp_path):
    flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    client = create_app(store).test_client()
    assert "Coada de revizuire" in client.get("/queue").get_data(as_text=True)
    assert "Review queue" in client.get("/queue?lang=en").get_data(as_text=True)
    assert "Review queue" in client.get("/queue").get_data(as_text=True)  # kept


def test_exports_download_the_sheet_csv_and_page(store, tmp_path):
    from io import BytesIO

    from openpyxl import load_workbook

    from arbiter.round.correction import correct_round

    game_id = flagged_round(store, tmp_path, 2, {})
    correct_round(store, game_id, 1, "ana")
    client = create_app(store).test_client()
    sheet = client.get("/export/xlsx")
    assert sheet.status_code == 200 and "attachment" in sheet.headers["Content-Disposition"]
    assert "Arbitraj" in load_workbook(BytesIO(sheet.data)).sheetnames
    csv = client.get("/export/csv").get_data(as_text=True)
    assert "Jucător 1" in csv and "Jucător 2" in csv
    assert client.get("/export/html").status_code == 200
    assert client.get("/export/pdf").status_code == 404
