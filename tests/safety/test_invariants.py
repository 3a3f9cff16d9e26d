"""The store invariants the fuzz benchmark checks after every example (tests/safety/invariants.py):
the sample round-1 store breaks none, and each kind of wrong value written into it is named."""
from __future__ import annotations

import sqlite3

import pytest

from .invariants import violations


def test_the_sample_store_holds_no_wrong_value(game):
    assert violations(game) == set()


@pytest.mark.parametrize("sql, named", [
    ("UPDATE standing SET rank = -5 WHERE table_no = 1", "standing.rank"),
    ("UPDATE standing SET total = -99999 WHERE table_no = 2", "standing.total"),
    ("UPDATE decision SET status = 'BANANA' WHERE table_no = 3", "unknown ruling 'BANANA'"),
    ("UPDATE decision SET credited = 2000000000 WHERE table_no = 4", "decision.credited"),
    ("UPDATE player SET name = 'Ion' || char(0) || 'Pop' WHERE table_no = 5", "player.name row"),
    ("UPDATE player SET name = 'Ana' || char(27) WHERE table_no = 6", "control character U+001B"),
    ("UPDATE player SET table_no = 0 WHERE table_no = 7", "player.table_no"),
])
def test_each_wrong_value_is_named(game, sql, named):
    conn = sqlite3.connect(game)
    conn.execute(sql)
    conn.commit()
    conn.close()
    found = violations(game)
    assert len(found) == 1 and named in next(iter(found)), found
