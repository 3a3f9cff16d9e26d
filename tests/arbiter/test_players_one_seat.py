"""One seat at a time (`fluturas players add/edit/remove`, arbiter.store.players): a seat typed wrong is
removable until a slip names its table, every change is audited, and each is undone by its
opposite."""
from __future__ import annotations

from click.testing import CliRunner
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.store.games import get_game, players
from arbiter.slips.ingest import file_reading
from arbiter.store.models import Player
from arbiter.slips.readings import parse_reading
from arbiter.store.store import open_store
from cli import main

from .helpers import ARBITER, make_game, reading


def run(db, *args, code=0):
    done = CliRunner().invoke(main, [*args, "--db", str(db), "--arbiter", "ana"])
    assert done.exit_code == code, done.output
    return done.output


def seats(db):
    store = open_store(db)
    with store.session() as s:
        out = {p.table_no: (p.name, p.club) for p in players(s, get_game(s))}
    store.close()
    return out


def test_add_edit_remove_audited_and_undone_by_their_opposite(tmp_path):
    db = tmp_path / "store.db"
    store = open_store(db)
    make_game(store, tmp_path, 2)
    store.close()
    run(db, "players", "add", "3", "--name", "Carmen  Radu", "--club", "CS Test")
    assert seats(db)[3] == ("Carmen Radu", "CS Test")
    run(db, "players", "edit", "3", "--name", "Carmen Rădulescu", "--reason", "typed wrong")
    assert seats(db)[3] == ("Carmen Rădulescu", "CS Test")
    run(db, "players", "remove", "3", "--reason", "not playing")
    assert 3 not in seats(db)
    run(db, "players", "add", "3", "--name", "Carmen Rădulescu", "--club", "CS Test")  # the undo of remove
    assert seats(db)[3] == ("Carmen Rădulescu", "CS Test")
    store = open_store(db)
    with store.session() as s:
        log = [(e.action, e.actor, (e.before or {}).get("name"), (e.after or {}).get("name"))
               for e in entries(s) if e.action.startswith("player.") and e.action != "player.seat"]
    store.close()
    assert log == [("player.add", "ana", None, "Carmen Radu"),
                   ("player.edit", "ana", "Carmen Radu", "Carmen Rădulescu"),
                   ("player.remove", "ana", "Carmen Rădulescu", None),
                   ("player.add", "ana", None, "Carmen Rădulescu")]


def test_a_seat_with_a_slip_stays_and_bad_input_stores_nothing(tmp_path):
    db = tmp_path / "store.db"
    store = open_store(db)
    game_id = make_game(store, tmp_path, 2)
    file_reading(store, game_id, 1, parse_reading(reading(2), "t2", 0.9), ARBITER, lambda o, n: "new")
    store.close()
    out = run(db, "players", "remove", "2", code=2)
    assert "table 2" in out and "slip" in out
    assert "already seated" in run(db, "players", "add", "1", "--name", "Alt Jucător", code=2)
    assert "--name" in run(db, "players", "add", "5", "--name", "  ", code=2)
    assert "table number" in run(db, "players", "add", "1000", "--name", "X", code=2)
    assert "not seated" in run(db, "players", "edit", "9", "--name", "X", code=2)
    run(db, "players", "remove", "1")  # table 1 has no slip: removable
    store = open_store(db)
    with store.session() as s:
        assert [p.table_no for p in s.scalars(select(Player).order_by(Player.table_no))] == [2]
        assert [e.action for e in entries(s) if e.action.startswith("player.") and e.action != "player.seat"] == ["player.remove"]
    store.close()
