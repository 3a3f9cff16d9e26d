"""One whole round of a fresh game played in the browser only — game, seating, group, top, the
scanned pile uploaded, the queue cleared by keyboard, correct, close, provisional then final
results, the sheet downloaded — and the same round played through the CLI on a second store
with the same inputs: the two stores hold the same decisions and totals (issue 22). The new
pages are photographed on the way (FLUTURAS_SCREENSHOTS=docs/screenshots writes them there)."""
from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path

from click.testing import CliRunner
from openpyxl import load_workbook
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.store.games import get_game
from arbiter.store.models import Decision, Round, Standing
from arbiter.review.review import queue
from arbiter.demo.simulation import MistakeDeck, simulate_round
from arbiter.demo.slipimages import render_round
from arbiter.store.store import open_store
from arbiter.web.app import create_app
from arbiter.web.setup_pages import DEMO_WORDS
from samples import SAMPLES

RACK = "AELMODR"
SEED = 7  # the players' slips: a few mistakes (RULES.md §3: warnings, a penalty, an incorrect move)
MISTAKES = 0.3
PLAYERS = SAMPLES / "players.csv"


def render_pile(folder: Path) -> list[Path]:
    """The round's slips as the demo draws them (arbiter.demo.simulation + arbiter.demo.slipimages): every
    player's move on the empty board, written with a seeded share of mistakes, scanned four to a page."""
    from corrector.board import Board
    from corrector.rulepack import load_pack
    from corrector.words.lexicon import load_lexicon
    from corrector.words.movegen import generate_moves

    from arbiter.store.seating import read_seating

    pack = load_pack("ro")
    lexicon = load_lexicon(DEMO_WORDS, pack)
    moves = generate_moves(Board(), pack.tiles.parse_rack(RACK), pack, lexicon)
    tops = [m for m in moves if m.score == moves[0].score]
    tables = [s.table for s in read_seating(PLAYERS)]
    slips = simulate_round(1, tables, tops, moves, lexicon, random.Random(SEED), MistakeDeck(random.Random(SEED)),
                           MISTAKES)
    return [p.path for p in render_round(slips.slips, folder, 1, SEED)]


def decisions(store) -> dict[int, tuple]:
    with store.session() as s:
        game = get_game(s)
        rnd = s.scalar(select(Round).where(Round.game_id == game.id, Round.number == 1))
        rows = s.scalars(select(Decision).where(Decision.round_id == rnd.id))
        return {d.table_no: (d.status, d.score, d.credited, d.warning, d.penalty, d.solo) for d in rows}


def totals(store) -> dict[int, tuple]:
    with store.session() as s:
        game = get_game(s)
        rows = s.scalars(select(Standing).where(Standing.game_id == game.id))
        return {r.table_no: (r.total, r.rank) for r in rows}


def flashes(page) -> str:
    return " | ".join(page.locator(".flash").all_inner_texts())


def clear_queue(page) -> None:
    """The queue by keyboard only: the most likely reading (key 1) where the decoder gives its
    candidates, else the slip as read (key a)."""
    while page.locator("#empty").count() == 0:
        page.wait_for_selector("#claim-status.ok")
        with page.expect_navigation():  # the answer is saved, then the next item is shown
            page.keyboard.press("1" if page.locator("table.cands").count() else "a")
        assert "Nesalvat" not in flashes(page), flashes(page)


def cli_answers(db: Path) -> str:
    """What the arbiter answers `fluturas review`, item by item, for the same choices: the
    candidate the decoder finds most likely, as fields (c masa=11 ...), else accept (a)."""
    from arbiter.store.models import ReviewItem
    from arbiter.web.queue import correction_from

    store = open_store(db)
    answers = []
    with store.session() as s:
        for entry in queue(s, get_game(s).id):
            found = s.get(ReviewItem, entry.item_id).candidates or []
            best = max(found, key=lambda c: c.get("probability") or 0, default=None)
            fix = correction_from(entry.content, best["reading"]) if best else {}
            if best and entry.table is None and best["reading"].get("table") is not None:
                fix["table"] = best["reading"]["table"]  # the table was read, unsure: the slip is under none yet
            fields = " ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in fix.items())
            answers.append(f"c {fields}" if fix else "a")
    store.close()
    return "".join(f"{a}\n\n" for a in answers)


def play_in_browser(page, url: str, pages: list[Path], players: Path, shots: Path) -> Path:
    """Every step by the arbiter's hands, each new page photographed at 1366×768 into `shots`;
    returns the downloaded sheet."""
    def shoot(name: str) -> None:
        page.screenshot(path=str(shots / f"{name}.png"))

    page.goto(f"{url}/login")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'name'")
    page.keyboard.type("ana")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{url}/queue*")  # no game yet: the queue says so
    page.goto(f"{url}/game/new")
    page.fill("#tournament", "Cupa Browserului")
    page.fill("#game-name", "Partida 1")
    shoot("game-new")
    page.click("#game-form button[type=submit]")
    page.wait_for_url(f"{url}/players")
    page.set_input_files("#seating", str(players))
    page.click("#import")
    page.wait_for_selector("#seats tr[data-table='16']")
    assert "16 jucători așezați" in flashes(page)
    shoot("players")
    page.click("a[data-key='D']")  # the round's desk
    page.fill("#letters", RACK)
    page.keyboard.press("Enter")
    page.wait_for_selector("#moves tr.top", timeout=120_000)
    # the list of every legal move, best first, the tops in red; typing filters it
    first = page.locator("#moves tr[data-move]").first
    best = int(first.locator("td").nth(2).inner_text())
    assert "top" in first.get_attribute("class")
    page.keyboard.press("/")
    page.keyboard.type("MODEL")
    shown = [t for t in page.locator("#moves tr[data-move]:not([hidden])").all_inner_texts()]
    assert shown and all("MODEL" in t for t in shown)
    shoot("day-top")
    page.keyboard.press("Escape")
    page.keyboard.press("T")  # retain the top (the game master's D 5.3.7 choice)
    page.wait_for_selector("#continuation")
    assert page.locator("#continuation").inner_text() and f"= {best}" in page.locator("#step-top").inner_text()
    with page.expect_download() as slips:  # the pre-filled slips of the round
        page.click("#slips-pdf")
    assert slips.value.path().read_bytes()[:5] == b"%PDF-"
    page.set_input_files("#pile", [str(p) for p in pages])
    page.click("#upload")
    page.wait_for_selector("#upload-result[data-refreshed]", timeout=600_000)
    assert "fluturași depuși" in page.locator("#upload-result").inner_text()
    assert page.locator("#upload-result .flash.error").count() == 0, page.locator("#upload-result").inner_text()
    job = page.request.get(url + page.locator("#upload-result").get_attribute("data-job")).json()
    assert (job["phase"], job["files_read"], job["files"]) == ("done", len(pages), len(pages))
    assert job["read"] == job["slips"] == job["filed"] > 0  # every slip read, then every one filed
    filed = page.locator("#day-status li").first.inner_text()  # the counts as they now stand
    counted = re.match(r"(\d+) fluturași depuși, 16 mese așezate", filed)
    assert counted and int(counted[1]) == job["filed"], (filed, job)  # every slip filed, those under no table too
    shoot("day-upload")
    page.click("#to-queue")
    page.wait_for_url(re.compile(r".*/queue.*"))
    clear_queue(page)
    page.goto(f"{url}/day")
    with page.expect_navigation():
        page.keyboard.press("c")  # correct the round
    assert "Nesalvat" not in flashes(page), flashes(page)
    if page.locator("#to-queue b").inner_text() != "0":  # decisions the judge flagged for an arbiter
        page.click("#to-queue")
        clear_queue(page)
        page.goto(f"{url}/day")
        with page.expect_navigation():
            page.keyboard.press("c")
    page.goto(f"{url}/grid")  # the round as a grid: every table's slip, decision and points
    page.wait_for_selector("#round-grid tr.selected")
    shoot("grid")
    page.goto(f"{url}/day")
    with page.expect_navigation():
        page.keyboard.press("C")  # close: asked first
    shoot("close-confirm")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Runda este închisă" in page.locator("#close-state").inner_text(), flashes(page)
    page.fill("#deadline", "23:59")
    page.click("#provisional")
    page.wait_for_url(f"{url}/results")
    page.goto(f"{url}/day")
    page.fill("#force", "contestațiile au fost judecate")
    page.click("#final")
    page.wait_for_url(f"{url}/results")
    with page.expect_download() as sheet:
        page.goto(f"{url}/day")
        page.click("#export-xlsx")
    assert sheet.value.suggested_filename.endswith(".xlsx")
    return Path(sheet.value.path())


def play_in_cli(db: Path, pages: list[Path], players: Path) -> None:
    from cli import main

    runner = CliRunner()

    def run(*args: str, given: str | None = None) -> str:
        done = runner.invoke(main, [*args, "--db", str(db), "--arbiter", "ana"], input=given, catch_exceptions=False)
        assert done.exit_code == 0, done.output
        return done.output

    run("game", "new", "--tournament", "Cupa CLI", "--name", "Partida 1", "--words", str(DEMO_WORDS))
    run("players", "import", str(players))
    run("round", "set-rack", RACK)
    run("round", "set-top")
    run("round", "scan", *map(str, pages), "--keep", "old")
    run("review", given=cli_answers(db))
    run("round", "correct")
    if cli_answers(db):  # decisions the judge flagged: the judge's decision stands
        run("review", given=cli_answers(db))
        run("round", "correct")
    run("round", "close")
    run("results", "provisional", "--deadline", "23:59", "--out", str(db.parent / "out"))
    run("results", "final", "--force", "contestațiile au fost judecate", "--out", str(db.parent / "out"))


def test_one_round_in_the_browser_equals_the_cli(browser, serve, tmp_path):
    pages = render_pile(tmp_path / "pile")
    for folder in ("web", "cli"):
        (tmp_path / folder).mkdir()
    web = open_store(tmp_path / "web" / "store.db")
    url = serve(create_app(web, image_roots=(tmp_path / "web",)))
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    shots = Path(os.environ.get("FLUTURAS_SCREENSHOTS") or tmp_path)
    sheet = play_in_browser(page, url, pages, PLAYERS, shots)

    play_in_cli(tmp_path / "cli" / "store.db", pages, PLAYERS)
    cli = open_store(tmp_path / "cli" / "store.db")
    web_decisions, cli_decisions = decisions(web), decisions(cli)
    assert len(web_decisions) == 16 and web_decisions == cli_decisions
    assert totals(web) == totals(cli)
    assert {d[0] for d in web_decisions.values()} - {"VALID"}, "the pile holds a mistake the judge rules on"
    with web.session() as s:
        game = get_game(s)
        assert game.status == "final"
        assert {e.actor for e in entries(s, game.id)} == {"ana"}  # every change by the named arbiter
    # the sheet as downloaded: final, every table's round-1 points and place as the store holds them
    rows = list(load_workbook(io.BytesIO(sheet.read_bytes())).worksheets[0].iter_rows(values_only=True))
    assert "rezultate finale" in rows[1][0]
    header = rows[2]
    by_table = {r[0]: dict(zip(header, r)) for r in rows[3:] if isinstance(r[0], int)}
    ranks = totals(web)
    assert {t: (r["T1"], r["Loc"]) for t, r in by_table.items()} == \
        {t: (d[2], ranks[t][1]) for t, d in web_decisions.items()}
    web.close()
    cli.close()
