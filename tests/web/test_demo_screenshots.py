"""The four pages on the demo game, in a real browser, photographed for docs/screenshots/
(FLUTURAS_SCREENSHOTS=docs/screenshots writes them there; otherwise into the test's folder).

The demo (1 round) clears its own queue, so the queue page is shown on the same round replayed
through the workflow in a second game of the demo's store: the same seed draws the same group,
and the demo's scanned slips are filed again from their readings (the scanner accepted none
whole, so each waits for an arbiter, with its image)."""
from __future__ import annotations

import json
import os
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.demo.demo import SAMPLES, DemoOptions, run_demo
from arbiter.round.draw import draw_round
from arbiter.store.games import GameSpec, get_game, new_game, seat_players
from arbiter.slips.decoding import decode_readings, filed_tables, round_decoder
from arbiter.slips.ingest import file_reading
from arbiter.store.models import Player, Slip
from arbiter.slips.readings import parse_reading
from arbiter.results.results import publish
from arbiter.store.seating import read_seating
from arbiter.store.store import open_store
from arbiter.round.tops import retain_continuation
from arbiter.web.app import create_app

from .conftest import sign_in


REVIEW_AT = 0.999  # the confidence asked for when the demo's round is replayed for review


def replay_round_for_review(store, demo_game: int) -> int:
    spec = json.loads((SAMPLES / "game.json").read_text(encoding="utf-8"))
    with store.session() as s:
        game = new_game(s, GameSpec(spec["tournament"], spec["name"] + " (revizuire)", spec["variant"],
                                    spec["category"], spec["rules"], SAMPLES / spec["words"], seed=spec["seed"]),
                        "arbitru-demo")
        seat_players(s, game, read_seating(SAMPLES / spec["players"]), "arbitru-demo", spec["players"])
        rnd, _ = draw_round(s, game, "arbitru-demo")
        retain_continuation(s, game, rnd, "top", "arbitru-demo")
        game_id = game.id
        readings = [dict(r) for r in s.scalars(select(Slip.reading).where(Slip.game_id == demo_game).order_by(Slip.id))]
    pile = [parse_reading(record, f"demo slip {k}", 0.95) for k, record in enumerate(readings)]
    decoder = round_decoder(store, game_id, 1)  # decoded against the round as `round scan` does
    undecided = 0
    # the arbiter asks for more confidence than the decoder's own threshold (`round scan --threshold`),
    # so that the queue holds slips to review whatever the decoder's calibration decides alone
    for reading, verdict in decode_readings(decoder, pile, filed_tables(store, game_id, 1), REVIEW_AT):
        file_reading(store, game_id, 1, reading, "arbitru-demo", lambda old, new: "old")
        undecided += verdict is not None and not verdict.decided
    return game_id, undecided


def open_demo(out: Path):
    """The demo game (round 1 corrected and closed, provisional results published) and the same
    round replayed for review: (store, demo game id, review game id, slips the decoder left undecided
    there, folder of the images)."""
    list(run_demo(out, options=DemoOptions.from_sample(rounds=1)))
    store = open_store(out / "demo.db")
    with store.session() as s:
        game = get_game(s)
        demo_game = game.id
        publish(s, game, "provisional", "arbitru-demo", deadline=datetime.now().astimezone() + timedelta(hours=1))
    return store, demo_game, *replay_round_for_review(store, demo_game), out


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    found = open_demo(tmp_path_factory.mktemp("demo"))
    yield found
    found[0].close()


def fits(page, selector: str) -> bool:
    """Every element matched lies inside the viewport: seen without scrolling either way."""
    view = page.viewport_size
    boxes = [el.bounding_box() for el in page.locator(selector).all()]
    return bool(boxes) and all(b is not None and b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= view["width"] + 1
                               and b["y"] + b["height"] <= view["height"] + 1 for b in boxes)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_queue_fits_a_laptop_candidates_by_probability_names_beside_tables(browser, serve, demo_store, tmp_path):
    """At 1366×768 the crop, the reading and every candidate are on screen; the candidates come most
    likely first (the number pressed is the rank); the list and the card name the seated player."""
    store, demo_game, review_game, undecided, out = demo_store
    shots = Path(os.environ.get("FLUTURAS_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    queue_url = serve(create_app(store, review_game, image_roots=(out,)))
    sign_in(page, queue_url, "arbitru-demo")
    page.wait_for_selector("#claim-status.ok")
    page.wait_for_function("document.querySelector('img.slip') && document.querySelector('img.slip').naturalWidth > 0")
    # the replayed round's slips the decoder could not decide, each an item of the list
    assert undecided >= 2 and page.locator("#items li").count() == undecided
    assert page.locator("table.cands tr").count() >= 3, "the first card has several candidates"
    page.screenshot(path=str(shots / "queue.png"))
    assert fits(page, "img.slip") and fits(page, "p.reading") and fits(page, "table.cands tr") and fits(page, "#accept-form")
    assert no_sideways_scroll(page)
    shown = [float(c.inner_text().strip().rstrip("%")) for c in page.locator("table.cands td.p").all()]
    assert shown == sorted(shown, reverse=True) and shown[0] > 0
    first = page.locator("#items li").first.inner_text()  # "Masa 5 ... Georgescu Mihai": the seated player's name
    table = int(re.search(r"\b(\d+)\b", first)[1])
    with store.session() as s:
        seated = s.scalar(select(Player.name).where(Player.game_id == review_game, Player.table_no == table))
    assert seated and seated in first and seated in page.locator("#card h2").inner_text()


def test_screenshots_of_every_page(browser, serve, demo_store, tmp_path):
    store, demo_game, review_game, undecided, out = demo_store
    shots = Path(os.environ.get("FLUTURAS_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    url = serve(create_app(store, demo_game, image_roots=(out,)))
    page.goto(f"{url}/login")
    page.screenshot(path=str(shots / "login.png"))
    sign_in(page, url, "arbitru-demo")
    page.goto(f"{url}/round?round=1")
    assert "16 mese așezate" in page.locator("#round-status").inner_text()
    assert "Depunerea top în turul 1" in page.locator("#announcement").inner_text()
    page.screenshot(path=str(shots / "round.png"))
    assert no_sideways_scroll(page) and fits(page, "#round-status") and fits(page, "#close-form")
    assert fits(page, "#announcement p") and fits(page, "#tables tr"), "the round on a laptop: all at one glance"
    page.goto(f"{url}/results")
    assert page.locator("#ranking tr[data-table]").count() == 16
    assert "Termen pentru contestații" in page.locator("#deadline").inner_text()
    page.screenshot(path=str(shots / "results.png"), full_page=True)
    page.goto(f"{url}/results/1")
    page.locator("img.thumb").first.scroll_into_view_if_needed()
    page.wait_for_function("Array.from(document.querySelectorAll('img.thumb')).every(i => i.complete && i.naturalWidth > 0)")
    page.screenshot(path=str(shots / "player.png"), full_page=True)
    page.goto(f"{url}/audit")
    page.screenshot(path=str(shots / "audit.png"))

    phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    phone.goto(f"{url}/results")
    assert no_sideways_scroll(phone), "the results page scrolls sideways on a 390 px phone"
    assert fits(phone, "#ranking tr[data-table] .total")
    phone.screenshot(path=str(shots / "results-phone.png"), full_page=True)

    for (width, height), name in (((1920, 1080), "hall.png"), ((1280, 720), "hall-1280.png")):
        hall = browser.new_page(viewport={"width": width, "height": height})
        hall.clock.install()
        hall.goto(f"{url}/hall")
        hall.keyboard.press(" ")
        hall.clock.run_for(152_000)
        hall.screenshot(path=str(shots / name))
        assert hall.locator("#call").inner_text() == "30 de secunde!"
        assert hall.locator("table.board td.new").count() >= 2  # the closed round's top, drawn on the board
        assert "Depunerea top în turul 1" in hall.locator("#hall-top").inner_text()
        for part in ("table.board", "#hall-top p", "#timer", "#call", "#group"):
            assert fits(hall, part), f"the hall at {width}×{height}: {part} is not all on screen"
    for name in ("round", "results", "results-phone", "player", "audit", "hall", "hall-1280", "login"):
        assert (shots / f"{name}.png").stat().st_size > 10_000
