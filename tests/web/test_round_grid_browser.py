"""The round grid in a real browser, by keys only: the top given to two tables at once (one
without a slip gets a typed one), a listed move found with the filter and given with Enter, a
disciplinary warning (D 6.4), and the undo of a change; each through the library (review
corrections, sanctions), audited, and the round judged again after each."""
from __future__ import annotations

from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.round.correction import correct_round
from arbiter.slips.ingest import file_reading
from arbiter.store.models import Decision, Sanction, Slip, Standing
from arbiter.slips.readings import parse_reading
from arbiter.web.app import create_app

from tests.arbiter.helpers import ARBITER, make_game, reading

from .conftest import sign_in


def credited(store) -> dict[int, int]:
    with store.session() as s:
        return {d.table_no: d.credited for d in s.scalars(select(Decision))}


def test_grid_gives_top_and_listed_move_warns_and_undoes_by_keys(browser, serve, any_store, tmp_path):
    store = any_store  # SQLite, and PostgreSQL under .ci/postgres.sh
    game_id = make_game(store, tmp_path, 3)  # round 1: AELMODR, top H4 MODEL (26); words MODEL, MODELA, AMOR
    for table in (1, 3):  # table 2 handed in no slip
        file_reading(store, game_id, 1, parse_reading(reading(table, word="AMOR", score=12, position="H5"), f"t{table}", 0.9),
                     ARBITER, lambda o, n: "new")
    correct_round(store, game_id, 1, ARBITER)
    amor = credited(store)[1]  # what table 1's own slip earns
    url = serve(create_app(store))
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    sign_in(page, url, "ana")
    page.goto(f"{url}/grid?round=1")
    page.wait_for_selector("#round-grid tr.selected[data-table='1']")
    page.keyboard.press("j")  # table 2
    page.keyboard.press(" ")  # marked
    page.keyboard.press("j")
    page.keyboard.press(" ")  # table 3 marked too
    with page.expect_navigation():
        page.keyboard.press("t")  # both get the top
    assert credited(store)[2] == 26 and credited(store)[3] == 26
    with store.session() as s:
        typed = s.scalar(select(Slip).where(Slip.table_no == 2, Slip.state == "filed"))
        assert typed.content["word"] == "MODEL" and typed.content["position"] == "H4"
    # table 1: a listed move, found by typing, given with Enter
    page.keyboard.press("k")
    page.keyboard.press("k")
    page.keyboard.press("/")
    page.keyboard.type("MODELA")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    with store.session() as s:
        slip1 = s.scalar(select(Slip).where(Slip.table_no == 1, Slip.state == "filed"))
        assert slip1.content["word"] == "MODELA"
        modela = s.scalar(select(Decision).where(Decision.table_no == 1)).credited
    assert modela > 0 and page.locator("#round-grid tr[data-table='1'] .credited").inner_text() == str(modela)
    # a disciplinary warning for table 3 (−20 on its total, D 6.4)
    page.locator("#round-grid tr[data-table='3']").click()
    page.keyboard.press("w")
    page.keyboard.type("vorbea în timpul rundei")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    with store.session() as s:
        (warned,) = s.scalars(select(Sanction)).all()
        assert (warned.table_no, warned.kind, warned.round_no) == (3, "disciplinary", 1)
        assert s.scalar(select(Standing).where(Standing.table_no == 3)).total == 26 - 20
    # undo table 1's change: the slip says AMOR again, judged again
    page.locator("#round-grid tr[data-table='1']").click()
    with page.expect_navigation():
        page.keyboard.press("u")
    with store.session() as s:
        assert s.scalar(select(Slip).where(Slip.table_no == 1, Slip.state == "filed")).content["word"] == "AMOR"
        actions = [e.action for e in entries(s, game_id) if e.actor == "ana"]
    assert credited(store)[1] == amor
    assert actions.count("slip.correct") == 3 and "slip.file" in actions and "sanction.disciplinary" in actions
    # and the warning withdrawn from its row
    with page.expect_navigation():
        page.locator("#round-grid tr[data-table='3'] button.undo-sanction").click()
    with store.session() as s:
        assert s.scalar(select(Sanction)).status != "active"
        assert s.scalar(select(Standing).where(Standing.table_no == 3)).total == 26


def test_grid_cancels_a_slips_penalty_and_warning_by_keys_and_undoes_it(browser, serve, store, tmp_path):
    """D 6.3.a: the signs inverted (4H for H4) cost a senior a technical penalty; `p` on the row
    cancels it, `a` cancels a warning — each an appeal (D 6.5) filed as `fluturas appeal` files it,
    audited and judged at once — and the row's withdraw takes it back."""
    from arbiter.store.models import Appeal

    game_id = make_game(store, tmp_path, 2)
    file_reading(store, game_id, 1, parse_reading(reading(1, word="MODEL", score=26, position="4H"), "t1", 0.9),
                 ARBITER, lambda o, n: "new")
    file_reading(store, game_id, 1, parse_reading(reading(2, word="MODEL", score=25, position="H4"), "t2", 0.9),
                 ARBITER, lambda o, n: "new")  # a wrong score: a warning (D 6.2)
    correct_round(store, game_id, 1, ARBITER)
    with store.session() as s:
        penalised = s.scalar(select(Decision).where(Decision.table_no == 1))
        warned = s.scalar(select(Decision).where(Decision.table_no == 2))
        assert penalised.penalty and penalised.credited < 26 and warned.warning
    before = credited(store)[1]
    url = serve(create_app(store))
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    sign_in(page, url, "ana")
    page.goto(f"{url}/grid?round=1")
    page.wait_for_selector("#round-grid tr.selected[data-table='1']")
    page.keyboard.press("p")
    page.keyboard.type("semnele erau corecte pe fluturaș")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert credited(store)[1] == 26
    page.keyboard.press("j")
    page.keyboard.press("a")
    page.keyboard.type("punctajul se citea 26")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    with store.session() as s:
        appeals = [(a.table_no, a.round_no, a.kind, a.actor, a.status) for a in s.scalars(select(Appeal).order_by(Appeal.id))]
        assert appeals == [(1, 1, "penalty", "ana", "upheld"), (2, 1, "warning", "ana", "upheld")]
        assert not s.scalar(select(Decision).where(Decision.table_no == 2)).warning
        actions = [e.action for e in entries(s, game_id) if e.actor == "ana"]
    assert actions.count("appeal.upheld") == 2 and actions.count("decision.set") >= 2, actions
    assert "anulat" in page.locator("#round-grid tr[data-table='1'] .acts").inner_text()
    # withdrawn from its row: the penalty is the judge's again
    with page.expect_navigation():
        page.locator("#round-grid tr[data-table='1'] button.undo-appeal").click()
    assert credited(store)[1] == before
    with store.session() as s:
        assert [a.status for a in s.scalars(select(Appeal).order_by(Appeal.id))] == ["withdrawn", "upheld"]
        assert [e.action for e in entries(s, game_id) if e.actor == "ana"].count("appeal.withdraw") == 1
