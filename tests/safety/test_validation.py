"""Issue 12, a game that can no longer be corrected: every command checks its whole input against
the game before it writes (a refusal names the field and changes nothing, exit 2); appeals and
sanctions can be withdrawn; final results are final until `results reopen --reason`."""
from __future__ import annotations

import pytest

from .conftest import cli, fingerprint, jsonl, one_line_error, reading, rows


def closed_round_one(db):
    cli(db, "round", "close")
    return db


@pytest.mark.parametrize("args, field", [
    (["--round", "0"], "--round 0"),
    (["--round", "99"], "--round 99"),
    (["--round", "-1"], "--round -1"),
    (["--round", "1", "--score", "-50"], "--score -50"),
])
def test_a_bad_appeal_is_refused_and_stores_nothing(game, args, field):
    closed_round_one(game)
    cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(game.parent / "out"))
    before = fingerprint(game)
    result = cli(game, "appeal", "3", "--kind", "incorrect", "--reason", "r", *args,
                 *([] if "--score" in args else ["--score", "10"]), code=2)
    assert field in one_line_error(result)
    assert fingerprint(game) == before
    # the game is still correctable: a valid appeal, a sanction and `round correct` all work
    cli(game, "appeal", "3", "--round", "1", "--kind", "incorrect", "--score", "10", "--reason", "recount")
    cli(game, "sanction", "4", "--disciplinary", "--reason", "telefon")
    cli(game, "round", "correct")


def test_an_appeal_without_its_round_is_refused(game):
    before = fingerprint(game)
    result = cli(game, "appeal", "3", "--kind", "penalty", "--reason", "r", code=2)
    assert "--round" in result.output and fingerprint(game) == before


def test_a_reading_appeal_is_checked_like_a_correction(game):
    before = fingerprint(game)
    result = cli(game, "appeal", "3", "--round", "1", "--kind", "reading", "--set", "poz=Z99", "--reason", "r", code=2)
    assert "position 'Z99'" in one_line_error(result) and fingerprint(game) == before


@pytest.mark.parametrize("table", ["0", "17", "99999999999999999999"])
def test_a_sanction_for_an_unseated_table_is_refused(game, table):
    before = fingerprint(game)
    result = cli(game, "sanction", table, "--disciplinary", "--reason", "r", code=2)
    line = one_line_error(result)
    assert (f"table {table}" in line or f"'TABLE': {table}" in line) and fingerprint(game) == before


def test_a_sanction_in_a_round_that_does_not_exist_is_refused(game):
    before = fingerprint(game)
    result = cli(game, "sanction", "2", "--disciplinary", "--reason", "r", "--round", "7", code=2)
    assert "--round 7" in one_line_error(result) and fingerprint(game) == before


@pytest.mark.parametrize("letters, extra, field", [
    ("AELMODR", ["--round", "0"], "--round 0"),
    ("AELMODR", ["--round", "-3"], "--round -3"),
    ("ABCDEFGHIJLMNOPRSTUVXZABCDEFGH", [], "30 letters"),
    ("ZZZZZZZZZZZZ", [], "12 letters"),
    ("ZZ", [], "2 × Z, the set has 1"),
    ("???", [], "3 × ?, the set has 2"),
    ("", [], "0 letters"),
    ("AB1", [], "group 'AB1'"),
])
def test_a_group_the_set_or_variant_does_not_allow_is_refused(game, letters, extra, field):
    closed_round_one(game)
    before = fingerprint(game)
    result = cli(game, "round", "set-rack", letters, *extra, code=2)
    assert field in one_line_error(result)
    assert fingerprint(game) == before
    cli(game, "round", "set-rack", "ARSUTE?")  # the game goes on
    cli(game, "round", "set-top")


def test_a_deadline_that_is_not_a_time_is_refused(game):
    closed_round_one(game)
    before = fingerprint(game)
    result = cli(game, "results", "provisional", "--deadline", "25:99", "--out", str(game.parent / "o"), code=2)
    assert "--deadline '25:99'" in one_line_error(result) and fingerprint(game) == before


def test_a_threshold_that_is_no_probability_is_refused(game, tmp_path):
    pile = jsonl(tmp_path / "p.jsonl", reading(16, word_confidence=0.01))
    before = fingerprint(game)
    for value in ("nan", "-1", "1.5"):
        result = cli(game, "round", "scan", str(pile), "--threshold", value, code=2)
        assert f"--threshold {value}" in one_line_error(result)
    assert fingerprint(game) == before


def test_a_one_percent_reading_is_never_filed_without_review(game, tmp_path):
    cli(game, "round", "scan", str(jsonl(tmp_path / "p.jsonl", reading(16, word_confidence=0.01))))
    assert rows(game, "SELECT count(*) FROM review_item WHERE state = 'open'") == [(1,)]


# --- final results are final --------------------------------------------------------------------

def final(db):
    closed_round_one(db)
    cli(db, "results", "provisional", "--deadline", "23:59", "--out", str(db.parent / "out"))
    cli(db, "results", "final", "--force", "no appeal", "--out", str(db.parent / "out"))
    return db


@pytest.mark.parametrize("command", [
    ["sanction", "3", "--disciplinary", "--reason", "late"],
    ["appeal", "3", "--round", "1", "--kind", "penalty", "--reason", "late"],
    ["round", "set-rack", "AELMODR", "--round", "1"],
    ["round", "set-rack", "ARSUTE?"],
    ["round", "correct"],
    ["results", "provisional", "--deadline", "23:59"],
    ["players", "import", "samples/players.csv", "--replace"],
])
def test_after_final_nothing_changes_the_published_standings(game, command):
    from .conftest import SAMPLES

    final(game)
    command = [str(SAMPLES / "players.csv") if c == "samples/players.csv" else c for c in command]
    before = fingerprint(game)
    result = cli(game, *command, code=2)
    assert "final" in one_line_error(result)
    assert fingerprint(game) == before


def test_new_slips_after_final_are_refused(game, tmp_path):
    final(game)
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(jsonl(tmp_path / "p.jsonl", reading(16))), code=2)
    assert "final" in one_line_error(result) and fingerprint(game) == before


def test_results_reopen_is_explicit_and_audited(game):
    final(game)
    cli(game, "results", "reopen", code=2)  # --reason is required
    cli(game, "results", "reopen", "--reason", "table 3's recount was forgotten")
    (entry,) = rows(game, "SELECT reason FROM audit_log WHERE action = 'results.reopen'")
    assert entry == ("table 3's recount was forgotten",)
    cli(game, "sanction", "3", "--disciplinary", "--reason", "telefon")
    cli(game, "results", "final", "--out", str(game.parent / "out"))
    assert rows(game, "SELECT disciplinary FROM standing WHERE table_no = 3") == [(1,)]
    assert rows(game, "SELECT status FROM game") == [("final",)]


def test_results_final_counts_a_sanction_given_meanwhile(game):
    closed_round_one(game)
    cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(game.parent / "out"))
    conn_rows = rows(game, "SELECT total FROM standing WHERE table_no = 5")
    import sqlite3

    conn = sqlite3.connect(game)  # a sanction stored while the totals were not brought up to date
    conn.execute("INSERT INTO sanction (game_id, table_no, round_no, kind, reason, actor, created_at, status) "
                 "VALUES (1, 5, 1, 'disciplinary', 'telefon', 'ana', CURRENT_TIMESTAMP, 'active')")
    conn.commit()
    conn.close()
    cli(game, "results", "final", "--force", "done", "--out", str(game.parent / "out"))
    assert rows(game, "SELECT disciplinary, total FROM standing WHERE table_no = 5") == [(1, conn_rows[0][0] - 20)]


# --- undo ------------------------------------------------------------------------------------

def test_an_appeal_is_withdrawn_and_no_longer_counted(game):
    closed_round_one(game)
    cli(game, "results", "provisional", "--deadline", "23:59", "--out", str(game.parent / "out"))
    (before,) = rows(game, "SELECT total FROM standing WHERE table_no = 11")
    out = cli(game, "appeal", "11", "--round", "1", "--kind", "incorrect", "--score", "26", "--reason", "recount").output
    assert "appeal 1" in out and rows(game, "SELECT total FROM standing WHERE table_no = 11") == [(before[0] + 26,)]
    cli(game, "undo", "appeal", "1", code=2)  # --reason required
    cli(game, "undo", "appeal", "1", "--reason", "entered for the wrong table")
    assert rows(game, "SELECT status FROM appeal") == [("withdrawn",)]
    assert rows(game, "SELECT total FROM standing WHERE table_no = 11") == [before]
    assert rows(game, "SELECT count(*) FROM audit_log WHERE action = 'appeal.withdraw'") == [(1,)]
    result = cli(game, "undo", "appeal", "1", "--reason", "again", code=2)
    assert "already withdrawn" in one_line_error(result)


def test_a_sanction_is_undone_and_no_longer_counted(game):
    (before,) = rows(game, "SELECT total FROM standing WHERE table_no = 2")
    assert "sanction 1" in cli(game, "sanction", "2", "--disciplinary", "--reason", "telefon").output
    assert rows(game, "SELECT total FROM standing WHERE table_no = 2") == [(before[0] - 20,)]
    cli(game, "undo", "sanction", "1", "--reason", "it was the neighbour's phone")
    assert rows(game, "SELECT total, disciplinary FROM standing WHERE table_no = 2") == [(before[0], 0)]
    assert "withdrawn" in cli(game, "undo", "list").output


def test_a_slip_is_discarded_kept_and_reopened(game, tmp_path):
    cli(game, "round", "scan", str(jsonl(tmp_path / "p.jsonl", reading(None, table_confidence=0.1, source="photo.png"))))
    ((slip_id,),) = rows(game, "SELECT id FROM slip WHERE source = 'photo.png'")
    cli(game, "round", "correct", code=2)  # a filed slip with no table is named, never judged
    cli(game, "slip", "discard", str(slip_id), "--as", "not-a-slip", "--reason", "a photo of the hall")
    assert rows(game, "SELECT state FROM slip WHERE id = ?", slip_id) == [("discarded",)]
    assert rows(game, "SELECT count(*) FROM review_item WHERE state = 'open'") == [(0,)]
    cli(game, "round", "correct")
    ((item,),) = rows(game, "SELECT id FROM review_item WHERE slip_id = ?", slip_id)
    cli(game, "undo", "review", str(item), "--reason", "it was a slip after all")
    assert rows(game, "SELECT state FROM slip WHERE id = ?", slip_id) == [("filed",)]
    assert rows(game, "SELECT state FROM review_item WHERE id = ?", item) == [("open",)]
    actions = {a for (a,) in rows(game, "SELECT action FROM audit_log")}
    assert {"slip.discard", "review.reopen", "slip.restore"} <= actions


def test_a_slip_is_moved_to_the_round_it_belongs_to(game, tmp_path):
    closed_round_one(game)
    cli(game, "round", "set-rack", "ARSUTE?")
    cli(game, "round", "scan", str(jsonl(tmp_path / "p.jsonl", reading(16, rnd=1))))
    ((slip_id,),) = rows(game, "SELECT id FROM slip WHERE source = 'scans/r1-t16.png'")
    result = cli(game, "slip", "move", str(slip_id), "--round", "5", code=2)
    assert "--round 5" in one_line_error(result)
    cli(game, "slip", "move", str(slip_id), "--round", "1")
    assert rows(game, "SELECT r.number FROM slip s JOIN round r ON r.id = s.round_id WHERE s.id = ?", slip_id) == [(1,)]


# --- the word list ---------------------------------------------------------------------------

def test_a_word_list_edited_after_game_new_is_refused_naming_both_hashes(game):
    from arbiter.store.games import file_sha256

    words = game.parent / "words.txt"
    (stored,) = rows(game, "SELECT wordlist_sha256 FROM game")
    words.write_text(words.read_text(encoding="utf-8") + "ZZZZ\n", encoding="utf-8")
    before = fingerprint(game)
    for command in (["round", "correct"], ["round", "set-top", "--round", "1"]):
        line = one_line_error(cli(game, *command, code=2))
        assert stored[0] in line and file_sha256(words) in line
    assert fingerprint(game) == before


def test_round_close_warns_naming_what_waits(game, tmp_path):
    cli(game, "round", "scan", str(jsonl(tmp_path / "p.jsonl", reading(16, word="M0DEL", word_confidence=0.3))))
    result = cli(game, "round", "close")
    assert "warning: round 1 closed while review item" in result.stderr and "is open" in result.stderr
