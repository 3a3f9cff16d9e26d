"""Issue 12, wrong results silently: the review prompt accepts only on an explicit `a`, a slip
with no table cannot be accepted, corrections are checked against the game (RULES.md §2: the
table and the round on every slip) and named as on the slip."""
from __future__ import annotations

import pytest

from .conftest import cli, fingerprint, jsonl, reading, rows


def open_items(db):
    return rows(db, "SELECT id, table_no, reason FROM review_item WHERE state = 'open' ORDER BY id")


def test_accept_refused_for_a_slip_with_no_table(game, tmp_path):
    pile = jsonl(tmp_path / "late.jsonl", reading(16, table_confidence=0.2))
    cli(game, "round", "scan", str(pile))
    ((item, table, reason),) = open_items(game)
    assert table is None and "table number unreadable" in reason
    out = cli(game, "review", input="a\nq\n").output
    assert "table ?" in out and "reading: R1 T16 " in out and "this slip has no table" in out
    assert open_items(game) == [(item, None, reason)]  # still waiting, nothing accepted
    assert rows(game, "SELECT count(*) FROM audit_log WHERE action = 'review.resolve' AND entity_id = ?",
                str(item)) == [(0,)]
    cli(game, "review", input="c masa=16\nthe table is 16\n")
    assert rows(game, "SELECT table_no, state FROM slip WHERE source = 'scans/r1-t16.png'") == [(16, "filed")]


def test_accept_refused_by_the_library_too(game, tmp_path):
    from arbiter.errors import WorkflowError
    from arbiter.review.review import resolve
    from arbiter.store.store import open_store

    cli(game, "round", "scan", str(jsonl(tmp_path / "late.jsonl", reading(16, table_confidence=0.2))))
    ((item, _table, _reason),) = open_items(game)
    store = open_store(game, create=False)
    with pytest.raises(WorkflowError, match="filed under no table"):
        resolve(store, item, 1, "ana", None, "looks fine")
    store.close()


@pytest.mark.parametrize("answer", ["skip", "quit", "Q", "no", "stray line", "yes", "accept it", "cc", "c"])
def test_an_answer_not_understood_never_accepts(game, tmp_path, answer):
    cli(game, "round", "scan", str(jsonl(tmp_path / "u.jsonl", reading(16, word="M0DEL", word_confidence=0.3))))
    before = fingerprint(game)
    # the prompt asks again after a stray answer; `q` then leaves, an empty line skips
    cli(game, "review", input=f"{answer}\n\nq\n")
    assert fingerprint(game) == before
    assert len(open_items(game)) == 1


def test_a_second_enter_after_why_does_not_accept_a_stray_answer(game, tmp_path):
    cli(game, "round", "scan", str(jsonl(tmp_path / "u.jsonl", reading(16, word="M0DEL", word_confidence=0.3))))
    before = fingerprint(game)
    out = cli(game, "review", input="ok\n\n\n").output
    assert "not understood" in out and fingerprint(game) == before


def test_a_superseded_slip_corrected_to_its_table_is_filed_there(game, tmp_path):
    # table 15's second slip was kept (--keep new); the first one, read for table 15, is really table 16's
    first = reading(15, word="M0DEL", word_confidence=0.3, source="scans/a.png")
    second = reading(15, word="MODEL", source="scans/b.png", score=20)
    cli(game, "round", "scan", str(jsonl(tmp_path / "a.jsonl", first)), "--keep", "new")
    cli(game, "round", "scan", str(jsonl(tmp_path / "b.jsonl", second)), "--keep", "new")
    assert rows(game, "SELECT state FROM slip WHERE source = 'scans/a.png'") == [("superseded",)]
    # the slip first filed for table 15, set aside by a.png, waits in review too (issue 21): it stays aside
    cli(game, "review", input="a\nthe slip kept is table 15's\nc masa=16 depunere=MODEL\nit is table 16's slip\n")
    assert rows(game, "SELECT table_no, state FROM slip WHERE source = 'scans/a.png'") == [(16, "filed")]
    cli(game, "round", "correct")
    ((status,),) = rows(game, "SELECT d.status FROM decision d JOIN round r ON r.id = d.round_id "
                           "WHERE r.number = 1 AND d.table_no = 16")
    assert status == "VALID"  # table 16 is no longer judged missing


def test_a_round_that_does_not_exist_is_refused_and_the_item_stays(game, tmp_path):
    cli(game, "round", "scan", str(jsonl(tmp_path / "u.jsonl", reading(16, word="M0DEL", word_confidence=0.3))))
    before = fingerprint(game)
    out = cli(game, "review", input="c round=3\nit says 3\nq\n").output
    assert "not applied" in out and "round 3: game 1 has no such round" in out
    assert fingerprint(game) == before and len(open_items(game)) == 1
    cli(game, "round", "correct", code=2)  # the open item is named, not judged as missing
    out = cli(game, "round", "correct", code=2).output
    assert "review item" in out and "is open" in out


def test_a_round_correction_moves_the_slip_to_that_round(game, tmp_path):
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "ARSUTE?")
    cli(game, "round", "scan", str(jsonl(tmp_path / "late.jsonl", reading(16, rnd=1, word="MODEL"))))
    ((item, _t, reason),) = open_items(game)
    assert "the slip says round 1, filed in round 2" in reason  # a late slip is shown with its round
    cli(game, "review", input="c tur=1\nlate slip of round 1\n")
    assert rows(game, "SELECT r.number, s.table_no FROM slip s JOIN round r ON r.id = s.round_id "
                      "WHERE s.source = 'scans/r1-t16.png'") == [(1, 16)]


@pytest.mark.parametrize("typed, field", [("c puncte=abc", "puncte"), ("c masa=²", "masa"), ("c poz=Z99", "position"),
                                          ("c culoare=rosu", "culoare"), ("c puncte=-5", "puncte"),
                                          ("c depunere=M0DEL", "word"), ('c "unclosed', "")])
def test_a_bad_value_gets_a_message_not_a_traceback(game, tmp_path, typed, field):
    cli(game, "round", "scan", str(jsonl(tmp_path / "u.jsonl", reading(16, word="M0DEL", word_confidence=0.3))))
    before = fingerprint(game)
    result = cli(game, "review", input=f"{typed}\nwhy\nq\n")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert ("not understood" in result.output or "not applied" in result.output) and field in result.output
    assert fingerprint(game) == before
