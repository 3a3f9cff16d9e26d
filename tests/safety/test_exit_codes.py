"""Issue 21, an exit code never lies: a command that exits 2 ("nothing stored") stored nothing,
on SQLite and on PostgreSQL; and `results final` killed right after its publication is committed
can be run again, writing the final files (real processes, SIGKILL)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from arbiter.round.correction import correct_round
from arbiter.store.games import get_game
from arbiter.store.models import Appeal, AuditEntry, Game
from tests.arbiter.helpers import ARBITER, make_game, reading, write_jsonl

ROOT = Path(__file__).resolve().parents[2]


def run(url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args, "--db", url, "--arbiter", "ana"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def counted(store) -> tuple[int, int]:
    with store.session() as s:
        return (s.scalar(select(func.count()).select_from(Appeal)),
                s.scalar(select(func.count()).select_from(AuditEntry)))


def corrected_game(store, tmp_path, tables: int = 3) -> int:
    game_id = make_game(store, tmp_path, tables)
    pile = write_jsonl(tmp_path / "pile.jsonl", [reading(t) for t in range(1, tables + 1)])
    assert run(store.url, "round", "scan", str(pile), "--keep", "old").returncode == 0
    correct_round(store, game_id, None, ARBITER)
    return game_id


@pytest.mark.parametrize("args, says", [
    (["--kind", "total", "--score", "2147483647"], "--score 2147483647"),  # overflowed the totals on PostgreSQL
    (["--kind", "total", "--score", "2000000000"], "--score 2000000000"),
    (["--kind", "reading", "--set", "round=2"], "--set round 2"),  # named another round: stored, then refused
])
def test_a_refused_appeal_stores_nothing(store, tmp_path, args, says):
    corrected_game(store, tmp_path)
    with store.session() as s:  # a second round, so that `round=2` names a round that exists
        from arbiter.round.rack import set_rack
        from arbiter.round.tops import set_continuation

        g = get_game(s)
        g.rounds[0].status = "closed"
        set_continuation(s, g, set_rack(s, g, "AELMODR", ARBITER), "H4 MODELA", ARBITER)
    before = counted(store)
    done = run(store.url, "appeal", "2", "--round", "1", "--reason", "r", *args)
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert counted(store) == before


def test_results_final_into_a_file_stores_nothing(store, tmp_path):
    corrected_game(store, tmp_path)
    out = tmp_path / "out"
    assert run(store.url, "results", "provisional", "--deadline", "23:59", "--out", str(out)).returncode == 0
    target = tmp_path / "a-file"
    target.write_text("x")
    before = counted(store)
    done = run(store.url, "results", "final", "--force", "r", "--out", str(target))
    assert done.returncode == 2 and "--out must be a folder" in done.stderr
    assert counted(store) == before
    with store.session() as s:
        assert get_game(s).status == "provisional"


def status(store, game_id: int) -> str:
    with store.session() as s:
        return s.scalar(select(Game.status).where(Game.id == game_id))


def test_results_final_killed_after_its_commit_is_recovered_by_running_it_again(store, tmp_path):
    """SIGKILL the moment the store says final, before the files are written: the files on disk are
    the provisional ones. `results final` again writes the final files (exit 0) and stores nothing new."""
    game_id = corrected_game(store, tmp_path, tables=120)
    out = tmp_path / "out"
    assert run(store.url, "results", "provisional", "--deadline", "23:59", "--out", str(out)).returncode == 0
    page = out / f"game{game_id}-results.html"
    provisional = page.read_bytes()
    caught = False
    for _attempt in range(5):
        proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "results", "final", "--force", "no appeal",
                                 "--out", str(out), "--db", store.url, "--arbiter", "ana"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while status(store, game_id) != "final" and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        if status(store, game_id) == "final" and page.read_bytes() == provisional:
            caught = True
            break
        if status(store, game_id) == "final":  # it wrote the files before the kill: reopen and try again
            assert run(store.url, "results", "reopen", "--reason", "again").returncode == 0
            assert run(store.url, "results", "provisional", "--deadline", "23:59", "--out", str(out)).returncode == 0
            provisional = page.read_bytes()
    assert caught, "the publication and the files were never caught apart"
    assert "provizorii" in provisional.decode("utf-8")
    before = counted(store)
    done = run(store.url, "results", "final", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "already final" in done.stdout
    assert "provizorii" not in page.read_text(encoding="utf-8") and "finale" in page.read_text(encoding="utf-8")
    assert counted(store) == before


def test_a_foreign_database_is_refused_and_left_as_it_was(store_url):
    """SQLite or PostgreSQL: a database holding another program's tables is not upgraded into a
    store (Alembic would add its twelve tables beside them); every command refuses it."""
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)"))
    for command in (["game", "list"], ["status"], ["game", "new", "--tournament", "T", "--name", "N"]):
        done = run(store_url, *command)
        assert done.returncode == 2 and "not a fluturas store" in done.stderr, done.stderr
    assert inspect(engine).get_table_names() == ["contacts"]
    engine.dispose()
