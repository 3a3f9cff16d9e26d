"""Results, appeal and audit trail, and the hall timer, in a real browser."""
from __future__ import annotations

from arbiter.round.correction import close_round, correct_round
from arbiter.store.games import get_game, get_round
from arbiter.review.review import resolve
from arbiter.web.app import create_app

from .conftest import sign_in
from .helpers import flagged_round, open_items


def corrected_game(store, tmp_path, close: bool = False) -> int:
    game_id = flagged_round(store, tmp_path, 3, {1: "MODEL"})
    for item in open_items(store, game_id):
        resolve(store, item.item_id, item.version, "ana", None, "the reading matches the slip")
    correct_round(store, game_id, 1, "ana")
    if close:
        with store.session() as s:
            game = get_game(s, game_id)
            close_round(s, game, get_round(s, game, 1), "ana")
    return game_id


def test_appeal_checked_then_stored_and_in_the_audit_trail(browser, serve, store, tmp_path):
    corrected_game(store, tmp_path)
    url = serve(create_app(store))
    page = browser.new_page()
    sign_in(page, url, "ana")
    page.goto(f"{url}/results/2")
    assert "MODEL" in page.locator("table.player").inner_text()
    # A reading appeal without what the slip says is refused before anything is stored.
    page.fill("#appeal-round", "1")
    page.select_option("#appeal-kind", "reading")
    page.fill("#appeal-reason", "citit greșit")
    page.locator("#appeal-reason").press("Enter")
    page.wait_for_selector(".flash.error")
    assert "ce scrie de fapt pe fluturaș" in page.locator(".flash.error").inner_text()
    page.fill("#appeal-round", "1")
    page.select_option("#appeal-kind", "total")
    page.fill("#appeal-score", "30")
    page.fill("#appeal-reason", "punctaj greșit adunat")
    page.locator("#appeal-reason").press("Enter")
    page.wait_for_selector(".flash.ok")
    page.goto(f"{url}/results")
    assert page.locator('#ranking tr[data-table="2"] .total').inner_text() == "30"
    page.goto(f"{url}/audit")
    audit = page.locator("#audit").inner_text()
    assert "contestație admisă" in audit and "punctaj greșit adunat" in audit
    assert audit.count("contestație admisă") + audit.count("contestație respinsă") == 1  # the refused one left nothing


def test_hall_timer_calls_30_seconds_then_stop(browser, serve, store, tmp_path):
    corrected_game(store, tmp_path, close=True)
    url = serve(create_app(store, access_token="secret-token"))
    page = browser.new_page()
    page.clock.install()
    page.goto(f"{url}/hall")  # token-free: the projector has no arbiter
    assert page.locator("#hall-round").inner_text() == "Runda 1"
    assert page.locator("#group .gt").count() == 7
    assert "MODEL" in page.locator("#hall-top").inner_text()  # the round is closed: its top is shown
    assert page.locator("table.board td.new").count() == 5
    assert page.locator("#timer").inner_text() == "3:00"
    page.keyboard.press(" ")
    page.clock.run_for(149_000)
    assert page.locator("#call").inner_text() == ""
    page.clock.run_for(2_000)
    assert page.locator("#call").inner_text() == "30 de secunde!"
    assert page.locator("#timer").inner_text() in ("0:29", "0:30")
    page.clock.run_for(30_000)
    assert page.locator("#call").inner_text() == "Stop!"
    assert page.locator("#timer").inner_text() == "0:00"
    # The arbiters' pages stay closed without the token.
    assert page.goto(f"{url}/queue").status == 401


def test_hall_shows_the_top_once_the_round_closes(browser, serve, store, tmp_path):
    game_id = corrected_game(store, tmp_path)
    url = serve(create_app(store))
    page = browser.new_page()
    page.clock.install()
    page.goto(f"{url}/hall")
    assert page.locator("#hall-top").count() == 0 and page.locator("table.board td.new").count() == 0
    assert "ELENA" in page.locator(".names").inner_text()  # Annex 2: E is ELENA
    with store.session() as s:
        game = get_game(s, game_id)
        close_round(s, game, get_round(s, game, 1), "ana")
    page.clock.run_for(6_000)  # the hall asks every 5 s; a closed round reloads it
    page.wait_for_selector("#hall-top")
    assert "Depunerea top în turul 1 este H4 MODEL, 26 de puncte" in page.locator("#hall-top").inner_text()
    assert page.locator("table.board td.new").count() == 5
