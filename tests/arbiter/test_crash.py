"""Crash safety: `round scan` and `round correct` killed with SIGKILL mid-work, then re-run —
no slip lost or filed twice, no decision counted twice, the audit log matches the data."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from arbiter.store.audit import entries
from arbiter.store.games import GameSpec, new_game, seat_players
from arbiter.round.rack import set_rack
from arbiter.store.models import Decision, Slip, Standing
from arbiter.store.seating import Seat

from .helpers import ARBITER, judge_output, reading, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
TABLES = 200


def big_game(store, tmp_path) -> int:
    words = tmp_path / "words.txt"
    words.write_text("MODEL\n", encoding="utf-8")
    with store.session() as s:
        game = new_game(s, GameSpec("Cupa", "Mare", wordlist=words), ARBITER)
        seat_players(s, game, [Seat(t, f"J{t}", None, None, t + 1) for t in range(1, TABLES + 1)], ARBITER, "x")
        set_rack(s, game, "AELMODR", ARBITER)
        return game.id


def cli(url: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *args, "--db", url, "--arbiter", "crash"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def count(store, model) -> int:
    with store.session() as s:
        return s.scalar(select(func.count()).select_from(model))


def test_kill_during_scan_then_rerun(store, store_url, tmp_path):
    game_id = big_game(store, tmp_path)
    pile = write_jsonl(tmp_path / "pile.jsonl", [reading(t) for t in range(1, TABLES + 1)])
    proc = cli(store_url, "round", "scan", str(pile), "--keep", "old")
    deadline = time.monotonic() + 60
    while count(store, Slip) < 30 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, "the scan ended before it could be interrupted"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = count(store, Slip)
    assert 30 <= partial < TABLES
    done = cli(store_url, "round", "scan", str(pile), "--keep", "old")
    out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err.decode()
    assert f"{partial} duplicate" in out.decode() and f"{TABLES - partial} filed" in out.decode()
    with store.session() as s:
        tables = list(s.scalars(select(Slip.table_no).where(Slip.state == "filed")))
        assert sorted(tables) == list(range(1, TABLES + 1))
        assert len(entries(s, game_id, "slip.file")) == TABLES


def test_kill_during_correct_then_rerun(store, store_url, tmp_path):
    game_id = big_game(store, tmp_path)
    output = tmp_path / "judge.json"
    output.write_text(json.dumps(judge_output({t: [t % 30] for t in range(1, TABLES + 1)})), encoding="utf-8")
    interrupted = 0
    for delay in (0.2, 0.45, 0.7, 0.9, 1.1, 1.3):  # from before the transaction to its end, on a fast or a busy machine
        proc = cli(store_url, "round", "correct", "--judge-output", str(output))
        time.sleep(delay)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            interrupted += 1
        proc.wait()
        decided = count(store, Decision)
        with store.session() as s:
            assert decided in (0, TABLES)  # one transaction: all or nothing
            assert len(entries(s, game_id, "decision.set")) == decided
        if decided:
            break
    assert interrupted >= 1
    done = cli(store_url, "round", "correct", "--judge-output", str(output))
    out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err.decode()
    assert count(store, Decision) == TABLES and count(store, Standing) == TABLES
    with store.session() as s:
        assert len(entries(s, game_id, "decision.set")) == TABLES
        assert len(entries(s, game_id, "standing.set")) == TABLES
