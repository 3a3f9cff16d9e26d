"""Issue 21: every value the game stands on — the top, the group, the word list, the rule pack —
is checked when set and pinned by hash; a change after play is refused or re-judges what it
touches, audited."""
from __future__ import annotations

import json

from .conftest import cli, fingerprint, one_line_error, rows


def round_two(db, rack: str = "CEIOPTC"):
    cli(db, "round", "close")
    cli(db, "round", "set-rack", rack)
    return db


def test_a_top_that_is_not_a_word_is_refused(game):
    """D 5.3.7: the continuation is a valid move; I4 CIOPTCE is legal on the board with the group
    (78 points) but CIOPTCE is no word of the list."""
    round_two(game)
    before = fingerprint(game)
    result = cli(game, "round", "set-top", "I4 CIOPTCE", code=2)
    line = one_line_error(result)
    assert "I4 CIOPTCE" in line and "CIOPTCE, MC" in line and "not in the word list" in line
    assert fingerprint(game) == before
    assert rows(game, "SELECT continuation FROM round WHERE number = 2") == [(None,)]


def test_a_new_group_drops_the_continuation_found_for_the_old_one(game):
    """`set-rack` after the top: the continuation checked against the old group is dropped (audited,
    with the old one in the log) and the round waits for `round set-top` again."""
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "ARSUTE?")
    cli(game, "round", "set-top")
    assert rows(game, "SELECT continuation, top_score FROM round WHERE number = 2") == [("7C SAlUTE", 7)]
    cli(game, "round", "set-rack", "AELMODR", "--round", "2", "--reason", "the group was misread")
    assert rows(game, "SELECT rack, continuation, top_score FROM round WHERE number = 2") == [("AELMODR", None, None)]
    (before, after), = rows(game, "SELECT before, after FROM audit_log WHERE action = 'round.rack' "
                                  "ORDER BY id DESC LIMIT 1")
    assert json.loads(before)["continuation"] == "7C SAlUTE" and json.loads(after)["continuation"] is None
    result = cli(game, "round", "close", code=2)
    assert "set-top" in one_line_error(result)
    cli(game, "round", "set-top")


def test_a_new_group_of_a_corrected_round_judges_it_again(game):
    """Round 1 is corrected with group AELMODR (H4 MODEL, 26 points). Entered again as another
    group without M, the decisions are judged anew in the same transaction, each change audited: the stored
    decisions are never those of the old group."""
    credited = rows(game, "SELECT table_no, credited FROM decision ORDER BY table_no")
    assert (1, 26) in credited
    changes = len(rows(game, "SELECT id FROM audit_log WHERE action = 'decision.set'"))
    cli(game, "round", "set-rack", "AELRODS", "--round", "1", "--reason", "the M was an S")
    after = dict(rows(game, "SELECT table_no, credited FROM decision ORDER BY table_no"))
    assert after[1] == 0  # H4 MODEL cannot be played without an M
    assert len(rows(game, "SELECT id FROM audit_log WHERE action = 'decision.set'")) > changes
    # the judge now finds the top of the new group by itself, and the continuation waits for set-top
    assert rows(game, "SELECT continuation FROM round WHERE number = 1") == [(None,)]
