"""A score ruled wrong on a digit the reader did not read clearly reaches the arbiter's queue in a
real browser, its reason in Romanian: the decoder holds the warning (`ink.clear_score`), the
workflow files the slip with that doubt, and the page says which digit and how sure, never the
decoder's own words or figures (FLUTURAS_SCREENSHOTS=docs/screenshots photographs it there)."""
from __future__ import annotations

import os
from pathlib import Path

from arbiter.slips.decoding import decode_readings, filed_tables, round_decoder
from arbiter.slips.ingest import file_reading
from arbiter.slips.readings import parse_reading
from arbiter.web.app import create_app
from tests.arbiter.helpers import ARBITER, make_game
from tests.decoding.helpers import crafted_box, record

from .conftest import sign_in
from .test_arbiter_words import problems, typed_names


def unclear_score_slip(table: int, declared: int, first_digit: dict[str, float]) -> dict:
    """`H4 MODEL` with `declared` written, its first score digit read as `first_digit` says."""
    rec = record(1, table, declared, "H4", "MODEL")
    rec["fields"]["puncte"]["chars"][0] = crafted_box(first_digit)
    rec.update(source=f"scans/masa-{table}.png", sha256=f"{table:064x}", slip_index=0)
    return rec


def test_RULES_3_d_unclear_score_warning_waits_for_the_arbiter_in_romanian(browser, serve, store, tmp_path):
    game_id = make_game(store, tmp_path, 3)
    decoder = round_decoder(store, game_id, 1)
    clear = unclear_score_slip(2, 26, {"2": 0.999})
    unclear = unclear_score_slip(1, 16, {"1": 0.93, "7": 0.07})  # MODEL at H4 makes 26
    pile = [parse_reading(r, f"masa {r['fields']['masa']['text']}", 0.95) for r in (unclear, clear)]
    verdicts = []
    for reading, verdict in decode_readings(decoder, pile, filed_tables(store, game_id, 1), None):
        file_reading(store, game_id, 1, reading, ARBITER, lambda old, new: "new")
        verdicts.append(verdict)
    held, decided = verdicts
    assert decided.decided and decided.best.outcome.warning is None
    assert not held.decided and held.best.reading.score == 16 and held.best.outcome.warning == "SCORE_WRONG"
    assert held.doubt.startswith("score ruled wrong on digits read unclearly: declared 16, the move scores 26")

    url = serve(create_app(store, learn=tmp_path / "samples"))
    page = browser.new_page()
    sign_in(page, url, "ana")
    page.locator("#card").wait_for()
    assert page.locator("#card h2").inner_text().startswith("Masa 1")
    reason = page.locator("p.reason").first.inner_text()
    assert "punctaj declarat 16, mutarea face 26, dar punctajul nu se citește clar (cifra 1 sigură 93 %)" in reason
    assert "verificați căsuțele punctajului" in reason
    assert problems(page.locator("main").inner_text(), "ro", typed_names(store)) == []
    shots = Path(os.environ.get("FLUTURAS_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(shots / "queue-unclear-score.png"))
