"""The review queue in a real browser: cleared by keyboard only, the totals it gives on the
results page, and two arbiters on the same item (one claims it, the other is told)."""
from __future__ import annotations

from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.store.models import ReviewItem, Slip
from arbiter.web.app import create_app

from .conftest import sign_in
from .helpers import candidate, flagged_round, open_items, write_candidates


def test_queue_cleared_by_keyboard_then_totals_on_results(browser, serve, store, tmp_path):
    game_id = flagged_round(store, tmp_path, 3, {1: "M0DEL", 2: "M0DEL", 3: "MODEL"})
    first = open_items(store, game_id)[0]
    write_candidates(store, first.item_id, [candidate(1, "MODEL", 26, 0.71, "valid", 26, articles=("RULES.md §3.1",)),
                                            candidate(1, "MOREL", 26, 0.29, "incorrect", 0)])
    url = serve(create_app(store, learn=tmp_path / "samples"))
    page = browser.new_page()
    sign_in(page, url, "ana")
    # Table 1 has the most points at stake (26 between its candidates) and comes first, with both.
    assert page.locator("#card h2").inner_text().startswith("Masa 1")
    assert "71%" in page.locator("table.cands").inner_text() and "MOREL" in page.locator("table.cands").inner_text()
    page.wait_for_selector("#claim-status.ok")
    page.keyboard.press("1")  # the first candidate
    page.wait_for_selector(".flash.ok")
    assert page.locator("#card h2").inner_text().startswith("Masa 2")
    page.wait_for_selector("#claim-status.ok")
    page.keyboard.press("e")
    # the example under the cursor names the fields as the slip prints them, and those names work
    example = page.locator("#fields").get_attribute("placeholder")
    assert example.split()[0] == "depunere=MODEL" and "word" not in example and "position" not in example
    page.keyboard.type("depunere=MODEL")
    page.keyboard.press("Enter")  # preview: the decision it gives, not yet saved
    decision = page.locator("#preview-decision").inner_text()
    assert "depunere corectă" in decision and "26" in decision
    with store.session() as s:
        assert s.scalar(select(Slip).where(Slip.table_no == 2)).content["word"] == "M0DEL"
    page.keyboard.press("Enter")  # save
    page.wait_for_selector(".flash.ok")
    assert page.locator("#card h2").inner_text().startswith("Masa 3")
    page.wait_for_selector("#claim-status.ok")
    page.keyboard.press("a")  # the reading stands
    page.wait_for_selector("#empty")
    with store.session() as s:
        assert s.scalar(select(Slip).where(Slip.table_no == 1)).content["word"] == "MODEL"
        assert s.scalar(select(Slip).where(Slip.table_no == 2)).content["word"] == "MODEL"
        assert {e.actor for e in entries(s, game_id, "review.resolve")} == {"ana"}
    page.keyboard.press("R")  # the round page
    page.wait_for_url(f"{url}/round")
    page.keyboard.press("c")  # correct the round
    page.wait_for_selector(".flash.ok")
    assert "Runda poate fi închisă" in page.locator("#close-state").inner_text()
    page.keyboard.press("P")  # results
    page.wait_for_url(f"{url}/results")
    totals = {int(r.get_attribute("data-table")): int(r.locator(".total").inner_text())
              for r in page.locator("#ranking tr[data-table]").all()}
    assert totals == {1: 26, 2: 26, 3: 26}  # M0DEL accepted as read would have scored 0


def test_two_arbiters_on_one_item_one_wins_the_other_is_told(browser, serve, store, tmp_path):
    game_id = flagged_round(store, tmp_path, 2, {1: "M0DEL"})
    (item,) = open_items(store, game_id)
    url = serve(create_app(store))
    ana, bogdan = browser.new_context(), browser.new_context()
    a, b = ana.new_page(), bogdan.new_page()
    sign_in(a, url, "ana")
    a.wait_for_selector("#claim-status.ok")
    sign_in(b, url, "bogdan")
    b.wait_for_selector("#claim-status.bad")
    assert "ana" in b.locator("#claim-status").inner_text()
    b.keyboard.press("a")  # bogdan tries to save anyway: refused, with who has it
    b.wait_for_selector(".flash.error")
    assert "ana" in b.locator(".flash.error").inner_text()
    with store.session() as s:
        assert s.get(ReviewItem, item.item_id).state == "open"
    a.keyboard.press("e")
    a.keyboard.type("word=MODEL")
    a.keyboard.press("Enter")
    a.wait_for_selector("#preview")
    a.keyboard.press("Enter")
    a.wait_for_selector("#empty")
    with store.session() as s:
        row = s.get(ReviewItem, item.item_id)
        assert (row.state, row.resolved_by) == ("resolved", "ana")
    ana.close()
    bogdan.close()


def test_skip_and_keys_move_through_the_queue_and_claimed_items_are_passed_over(browser, serve, store, tmp_path):
    flagged_round(store, tmp_path, 3, {1: "M0DEL", 2: "M0DEL", 3: "M0DEL"})
    url = serve(create_app(store))
    ana = browser.new_context().new_page()
    sign_in(ana, url, "ana")
    ana.wait_for_selector("#claim-status.ok")
    assert ana.locator("#card h2").inner_text().startswith("Masa 1")
    bogdan = browser.new_context().new_page()
    sign_in(bogdan, url, "bogdan")  # ana has table 1: bogdan is shown the next free item
    bogdan.wait_for_selector("#claim-status.ok")
    assert bogdan.locator("#card h2").inner_text().startswith("Masa 2")
    bogdan.keyboard.press("x")  # skip: the next one
    bogdan.wait_for_selector("#claim-status.ok")
    assert bogdan.locator("#card h2").inner_text().startswith("Masa 3")
    bogdan.keyboard.press("k")  # back up the list
    bogdan.wait_for_selector("#card h2:has-text('Masa 2')")
    bogdan.wait_for_selector("#claim-status.ok")  # the page's keys are live once its claim is made
    bogdan.keyboard.press("j")
    bogdan.wait_for_selector("#card h2:has-text('Masa 3')")
    bogdan.fill("#tables", "1-1")  # the tables this arbiter took (D 5.5.f)
    bogdan.keyboard.press("Enter")
    bogdan.wait_for_selector("#claim-status.bad")
    assert "ana" in bogdan.locator("#claim-status").inner_text() and bogdan.locator("#items li").count() == 1
