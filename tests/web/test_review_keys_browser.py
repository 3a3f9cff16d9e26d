"""The review screen's keys and the login in a real browser: Esc leaves a preview for the item it
was made on (a page, not a 405), and on the hall's network the access token typed in the login
form lets the arbiter in."""
from __future__ import annotations

from arbiter.store.models import Slip
from arbiter.web.app import create_app

from .conftest import sign_in
from .helpers import flagged_round, open_items


def test_esc_leaves_the_preview_for_the_item(browser, serve, store, tmp_path):
    game_id = flagged_round(store, tmp_path, 2, {1: "M0DEL", 2: "M0DEL"})
    first = open_items(store, game_id)[0]
    url = serve(create_app(store))
    page = browser.new_page()
    sign_in(page, url, "ana")
    page.wait_for_selector("#claim-status.ok")
    shown = page.locator("#card").get_attribute("data-item")
    page.keyboard.press("e")
    page.keyboard.type("depunere=MODEL")
    page.keyboard.press("Enter")
    page.wait_for_selector("#preview")
    page.locator("#save").blur()  # the save button has the focus; Esc is the page's key
    with page.expect_navigation() as leaving:
        page.keyboard.press("Escape")
    assert leaving.value is not None and leaving.value.status == 200
    page.wait_for_selector("#card")
    assert page.locator("#preview").count() == 0
    assert page.locator("#card").get_attribute("data-item") == shown
    assert "/queue" in page.url and f"item={shown}" in page.url
    with store.session() as s:  # nothing saved by leaving
        assert s.get(Slip, first.slip_id).content["word"] == "M0DEL"


def test_the_access_token_typed_at_login(browser, serve, store, tmp_path):
    flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    url = serve(create_app(store, access_token="hall-t0ken"))
    page = browser.new_page()
    assert page.goto(f"{url}/queue").status == 401  # the login form, asking for the token
    page.goto(f"{url}/login")
    page.fill("#name", "ana")
    page.fill("#token", "hall-t0ken")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{url}/queue*")
    page.wait_for_selector("#claim-status.ok")  # signed in under the name: the item is claimed
    assert "ana" in page.locator("#claim-status").inner_text()
