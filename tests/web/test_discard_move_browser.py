"""Discarding a flagged item as "not a slip" or "duplicate" and moving a slip to another round,
from the queue by keyboard, through `arbiter.review.review.discard_slip` / `move_slip`. Those library
functions come with the undo work; until this tree has them the queue does not offer the keys and
this test says so."""
from __future__ import annotations

import pytest
import arbiter.review.review as review
from arbiter.round.correction import close_round, correct_round
from arbiter.store.games import get_game, get_round
from arbiter.round.rack import set_rack
from arbiter.round.tops import set_continuation
from arbiter.slips.ingest import file_reading
from arbiter.store.models import ReviewItem, Round, Slip
from arbiter.slips.readings import parse_reading
from arbiter.web.app import create_app
from tests.arbiter.helpers import ARBITER, make_game, reading

from .conftest import sign_in
from .helpers import open_items

pytestmark = pytest.mark.skipif(not (hasattr(review, "discard_slip") and hasattr(review, "move_slip")),
                                reason="arbiter.review.review.discard_slip / move_slip are not in this tree yet")


def late_slip_round(store, tmp_path) -> int:
    """Round 1 corrected and closed with table 3's slip missing; in round 2 two flagged slips:
    table 1's (unsure) and table 3's late slip of round 1 (it says round 1)."""
    game_id = make_game(store, tmp_path, 3)
    for t in (1, 2):
        file_reading(store, game_id, 1, parse_reading(reading(t, sha=f"{t:064x}"), f"r1 t{t}", 0.9), ARBITER,
                     lambda o, n: "new")
    correct_round(store, game_id, 1, ARBITER)
    with store.session() as s:
        game = get_game(s, game_id)
        close_round(s, game, get_round(s, game, 1), ARBITER)
        rnd = set_rack(s, game, "AELMODR", ARBITER, 2)
        set_continuation(s, game, rnd, "8D MODELA", ARBITER)
    unsure = reading(1, word="M0DELA", position="8D", rnd=2, sha=f"{21:064x}", confidence=0.4)
    unsure["fields"]["table"]["confidence"] = 0.99
    late = reading(3, rnd=1, sha=f"{13:064x}")
    for k, record in enumerate((unsure, late)):
        file_reading(store, game_id, 2, parse_reading(record, f"r2 {k}", 0.9), ARBITER, lambda o, n: "new")
    return game_id


def test_discard_and_move_by_keyboard(browser, serve, store, tmp_path):
    game_id = late_slip_round(store, tmp_path)
    items = {e.table: e for e in open_items(store, game_id)}
    assert set(items) == {1, 3}
    url = serve(create_app(store))
    page = browser.new_page()
    sign_in(page, url, "ana")
    page.goto(f"{url}/queue?round=2&item={items[1].item_id}")
    page.wait_for_selector("#claim-status.ok")
    page.keyboard.press("d")  # table 1's item is not a slip
    page.wait_for_selector(".flash.ok")
    page.goto(f"{url}/queue?round=2&item={items[3].item_id}")
    page.wait_for_selector("#claim-status.ok")
    page.keyboard.press("m")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    page.wait_for_selector(".flash.ok")
    with store.session() as s:
        assert s.get(Slip, items[1].slip_id).state == "discarded"
        assert s.get(ReviewItem, items[1].item_id).state != "open"
        moved = s.get(Slip, items[3].slip_id)
        assert s.get(Round, moved.round_id).number == 1
        assert s.get(ReviewItem, items[3].item_id).round_id == moved.round_id
