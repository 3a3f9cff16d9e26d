"""The round's steps in the browser, refused as the CLI refuses them: bad input is one line in the
arbiter's page naming the field or the file as the arbiter chose it, and nothing is stored;
closing a round asks first; the pile's problems name the page as sent, never a server folder."""
from __future__ import annotations

import io
import re
import time

from sqlalchemy import func, select

from arbiter.store.models import Game, Player, Round
from arbiter.web.app import create_app
from arbiter.web.i18n import LANGS, TEXTS

from tests.arbiter.helpers import make_game


def client(store, tmp_path):
    app = create_app(store, image_roots=(tmp_path,))
    c = app.test_client()
    page = c.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    c.post("/login", data={"name": "ana", "csrf": token})
    return c, token


def flashes(response) -> list[str]:
    return re.findall(r'class="flash[^"]*"[^>]*>([^<]*)<', response.get_data(as_text=True))


def count(store, model) -> int:
    with store.session() as s:
        return s.scalar(select(func.count()).select_from(model))


def test_bad_input_is_one_line_and_stores_nothing(store, tmp_path):
    c, token = client(store, tmp_path)
    answer = c.post("/game/new", data={"csrf": token, "tournament": "Cupa", "name": "P1",
                                       "words": str(tmp_path / "nu-exista.txt")})
    assert answer.status_code == 400 and any("nu-exista.txt" in f for f in flashes(answer))
    assert count(store, Game) == 0
    c.post("/game/new", data={"csrf": token, "tournament": "Cupa", "name": "P1"})  # the demo list
    assert count(store, Game) == 1
    bad = b"masa,nume\n1,Ana\n1,Bogdan\n"
    answer = c.post("/players/import", data={"csrf": token, "seating": (io.BytesIO(bad), "lista mea.csv")},
                    content_type="multipart/form-data", follow_redirects=True)
    (line,) = [f for f in flashes(answer) if "rândul 3" in f]
    assert "lista mea.csv" in line and "fluturas-seating" not in line  # the file as chosen, not where it was kept
    assert count(store, Player) == 0
    answer = c.post("/day/rack", data={"csrf": token, "letters": "AAAAAAAAAAAA"}, follow_redirects=True)
    assert any("AAAAAAAAAAAA" in f for f in flashes(answer)) and count(store, Round) == 0


def test_closing_asks_first_and_a_pile_names_its_pages(store, tmp_path):
    make_game(store, tmp_path, 2)  # round 1 with its top
    c, token = client(store, tmp_path)
    asked = c.post("/day/1/close", data={"csrf": token})
    assert 'id="confirm-close"' in asked.get_data(as_text=True)
    with store.session() as s:
        assert s.scalar(select(Round)).status != "closed"
    answer = c.post("/day/1/upload", data={"csrf": token, "pile": (io.BytesIO(b"not an image"), "pagina 1.png")},
                    content_type="multipart/form-data")
    job = answer.get_json()["job"]
    for _ in range(300):
        state = c.get(f"/day/upload/{job}").get_json()
        if state["phase"] in ("done", "failed"):
            break
        time.sleep(0.1)
    assert state["phase"] == "done" and len(state["problems"]) == 1
    assert "pagina_1.png" in state["problems"][0] and str(tmp_path) not in state["problems"][0]
    nothing = c.post("/day/1/upload", data={"csrf": token, "pile": (io.BytesIO(b""), "")},
                     content_type="multipart/form-data")
    assert nothing.status_code == 400 and nothing.get_json()["message"] == TEXTS["upload_nothing"][0]
    c.post("/day/1/close", data={"csrf": token, "confirm": "1"})
    with store.session() as s:
        assert s.scalar(select(Round)).status == "closed"


def test_every_text_of_the_new_pages_in_both_languages():
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "arbiter" / "web"
    used = set()
    for name in ("day", "grid", "players", "game_new", "confirm_close", "steps"):
        used |= set(re.findall(r"t\('([a-z_0-9]+)'\)", (web / "templates" / f"{name}.html").read_text(encoding="utf-8")))
    for name in ("setup_pages", "round_pages", "upload", "grid"):
        used |= set(re.findall(r"text\(['\"]([a-z_0-9]+)['\"]", (web / f"{name}.py").read_text(encoding="utf-8")))
    from arbiter.store.games import ANTICIPATION_VARIANTS, CATEGORIES, KINDS, VARIANTS
    from arbiter.web.setup_pages import RULE_PACKS

    used = {k for k in used if not k.endswith("_")}  # the prefixed ones, by their values:
    used |= {f"variant_{v}" for v in VARIANTS + ANTICIPATION_VARIANTS} | {f"kind_{k}" for k in KINDS}
    used |= {f"category_{c}" for c in CATEGORIES} | {f"pack_{p}" for p in RULE_PACKS}
    used |= {f"round_state_{x}" for x in ("open", "corrected", "closed")}
    used |= {f"game_state_{x}" for x in ("running", "provisional", "final", "reopened")}
    used |= {f"outcome_{x}" for x in ("filed", "duplicate", "superseded", "refused")}
    used |= {f"phase_{x}" for x in ("reading", "filing", "done", "failed")}
    assert not [k for k in used if k not in TEXTS]
    assert all(len(TEXTS[k]) == len(LANGS) and all(TEXTS[k]) for k in used)


def test_the_group_drawn_in_the_browser_is_the_one_the_cli_draws(tmp_path):
    """`round draw` from the game's seed (D 5.3.1–5.3.2): the desk's button and the command agree."""
    from click.testing import CliRunner

    from arbiter.store.store import open_store
    from arbiter.web.setup_pages import DEMO_WORDS
    from cli import main

    racks = []
    for where in ("web", "cli"):
        db = tmp_path / f"{where}.db"
        args = ["--db", str(db), "--arbiter", "ana"]
        CliRunner().invoke(main, ["game", "new", "--tournament", "T", "--name", "P", "--seed", "11",
                                  "--words", str(DEMO_WORDS), *args])
        if where == "cli":
            assert CliRunner().invoke(main, ["round", "draw", *args]).exit_code == 0
            store = open_store(db)
        else:
            store = open_store(db)
            c, token = client(store, tmp_path)
            c.post("/day/draw", data={"csrf": token})
        with store.session() as s:
            (rnd,) = s.scalars(select(Round)).all()
            racks.append((rnd.number, rnd.rack, rnd.rack_source))
        store.close()
    assert racks[0] == racks[1] and racks[0][2] == "draw"


def test_the_grid_leaves_an_item_another_arbiter_has_open(store, tmp_path):
    from arbiter.review import claims
    from arbiter.slips.ingest import file_reading
    from arbiter.store.models import Slip
    from arbiter.slips.readings import parse_reading
    from arbiter.review.review import queue

    from tests.arbiter.helpers import ARBITER, reading

    game_id = make_game(store, tmp_path, 2)
    record = reading(1, word="M0DEL", confidence=0.4)
    record["fields"]["table"]["confidence"] = 0.99  # the table is sure, the word is not
    file_reading(store, game_id, 1, parse_reading(record, "t1", 0.9), ARBITER, lambda o, n: "new")
    with store.session() as s:
        (item,) = queue(s, game_id)
    claims.claim(store, item.item_id, "bogdan")
    c, token = client(store, tmp_path)
    answer = c.post("/grid/give", data={"csrf": token, "round": "1", "tables": "1", "move": "top"}, follow_redirects=True)
    assert any("bogdan" in f for f in flashes(answer))
    with store.session() as s:
        assert s.scalar(select(Slip).where(Slip.table_no == 1)).content["word"] == "M0DEL"
        assert queue(s, game_id)[0].item_id == item.item_id  # still open, still bogdan's


def test_the_grid_types_no_slip_for_a_table_whose_slip_waits_under_no_table(store, tmp_path):
    from arbiter.slips.ingest import file_reading
    from arbiter.store.models import Slip
    from arbiter.slips.readings import parse_reading

    from tests.arbiter.helpers import ARBITER, reading

    game_id = make_game(store, tmp_path, 2)
    file_reading(store, game_id, 1, parse_reading(reading(1, confidence=0.4), "t1", 0.9), ARBITER, lambda o, n: "new")
    c, token = client(store, tmp_path)
    answer = c.post("/grid/give", data={"csrf": token, "round": "1", "tables": "1", "move": "top"}, follow_redirects=True)
    assert any("coada de revizuire" in f for f in flashes(answer))
    with store.session() as s:
        assert [x.table_no for x in s.scalars(select(Slip))] == [None]  # no second slip typed for table 1


def test_the_grid_gives_nothing_when_one_table_is_not_seated(store, tmp_path):
    from arbiter.store.models import Slip

    make_game(store, tmp_path, 2)
    c, token = client(store, tmp_path)
    answer = c.post("/grid/give", data={"csrf": token, "round": "1", "tables": "1,7", "move": "top"}, follow_redirects=True)
    assert any("masa 7 nu stă niciun jucător" in f for f in flashes(answer))
    assert count(store, Slip) == 0  # not even table 1's


def test_the_round_counts_every_slip_filed_as_fluturas_status_does(store, tmp_path):
    """A slip filed without a table is a slip filed: the round page and the desk count it, say how
    many have no table, and agree with `fluturas status` (status.round_status)."""
    from arbiter.store.games import get_game, get_round
    from arbiter.slips.ingest import file_reading
    from arbiter.slips.readings import parse_reading
    from arbiter.round.status import round_status

    from tests.arbiter.helpers import ARBITER, reading

    game_id = make_game(store, tmp_path, 3)
    file_reading(store, game_id, 1, parse_reading(reading(2, sha=f"{2:064x}"), "t2", 0.9), ARBITER, lambda o, n: "new")
    file_reading(store, game_id, 1, parse_reading(reading(1, confidence=0.4, sha=f"{1:064x}"), "t1", 0.9), ARBITER,
                 lambda o, n: "new")  # its table unsure: filed under none
    with store.session() as s:
        game = get_game(s, game_id)
        cli = round_status(s, game, get_round(s, game, 1))
    assert (cli.filed, cli.without_table) == (2, 1)
    c, _token = client(store, tmp_path)
    for path in ("/round?round=1", "/day?round=1"):
        page = c.get(path).get_data(as_text=True)
        filed = re.search(r'id="slips-filed"><b>(\d+)</b> fluturași depuși, (\d+) mese așezate', page)
        assert filed and (int(filed[1]), int(filed[2])) == (cli.filed, 3), path
        assert re.search(r"<b>1</b> fără masă|\(1 fără masă\)", page), path


def test_a_pile_stopped_by_a_failure_of_the_program_says_so_without_pythons_words(store, tmp_path, monkeypatch):
    """A failure that is no refusal (a fault injected into the scan) ends the job with a sentence in
    the page's language; Python's name for the failure stays in the server's log."""
    import arbiter.slips.roundscan
    from arbiter.web.desk import Desk
    from arbiter.web.upload import Job, run_job

    def broken(*_args, **_kwargs):
        raise RuntimeError("disk controller on fire")

    monkeypatch.setattr(arbiter.slips.roundscan, "scan_round", broken)
    game_id = make_game(store, tmp_path, 2)
    job = Job(1, 1)
    run_job(job, Desk(store, game_id, None, (tmp_path,)), game_id, [tmp_path / "p1.png"], "ana", "old", False)
    assert job.phase == "failed"
    for lang in LANGS:
        said = job.as_json(lang)["error"]
        assert said == TEXTS["upload_internal"][LANGS.index(lang)]
        assert "RuntimeError" not in said and "fire" not in said


def test_a_pile_s_unreadable_page_is_reported_in_the_page_s_language(store, tmp_path):
    """A file of the pile that is no image: the upload's list of what was not filed names it, in
    Romanian or English, never with the library's English line."""
    from arbiter.web.desk import Desk
    from arbiter.web.upload import Job, run_job

    game_id = make_game(store, tmp_path, 2)
    broken = tmp_path / "pagina3.png"
    broken.write_bytes(b"this is no picture")
    job = Job(1, 1)
    run_job(job, Desk(store, game_id, None, (tmp_path,)), game_id, [broken], "ana", "old", False)
    said = {lang: job.as_json(lang)["problems"] for lang in LANGS}
    assert said["ro"] == ["„pagina3.png” nu este o imagine care se poate citi."]
    assert said["en"] == ["“pagina3.png” is not an image that can be read."]
