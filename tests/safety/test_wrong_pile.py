"""Issue 21, the wrong pile: round 3's slips scanned while round 2 is open. The scan stops and
says so (nothing filed) unless the arbiter chooses (`--round-mismatch file|move`); filed anyway,
every slip waits in review, the one with no round number too; the whole pile is taken back in
one step and brought back in one; each discard shows its review item; scanned into round 3
afterwards the pile is filed there, with true counts; `slip move` of a superseded slip files it."""
from __future__ import annotations

import re

from exitcodes import ExitCode

from .conftest import cli, fingerprint, jsonl, reading, rows


def round_three_pile(tmp_path):
    records = [reading(t, rnd=3, sha=f"{t:064x}", source=f"scans/r3-{t}.png") for t in range(1, 16)]
    no_round = reading(16, rnd=3, sha=f"{16:064x}", source="scans/r3-16.png")
    no_round["fields"]["round"] = {"text": "", "confidence": 0.99}
    return jsonl(tmp_path / "round3.jsonl", *records, no_round)


def open_round_two(game):
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "AEIRSTU")


def test_a_pile_of_another_round_is_refused_and_nothing_is_filed(game, tmp_path):
    open_round_two(game)
    before = fingerprint(game)
    result = cli(game, "round", "scan", str(round_three_pile(tmp_path)), "--keep", "new", code=ExitCode.BAD_INPUT)
    assert "15 of 16 slips say round 3, not round 2: the wrong pile?" in result.stderr
    assert "--round-mismatch" in result.stderr and "--round 3" in result.stderr
    assert fingerprint(game) == before


def test_the_wrong_pile_filed_anyway_is_all_in_review_and_taken_back_in_one_step(game, tmp_path):
    open_round_two(game)
    pile = round_three_pile(tmp_path)
    out = cli(game, "round", "scan", str(pile), "--keep", "new", "--round-mismatch", "file").output
    number = int(re.search(r"pile (\d+): `fluturas slip discard --pile", out).group(1))
    filed = rows(game, "SELECT s.id FROM slip s JOIN round r ON r.id = s.round_id WHERE r.number = 2")
    assert len(filed) == 16
    waiting = rows(game, "SELECT s.source, i.reason FROM review_item i JOIN slip s ON s.id = i.slip_id "
                         "WHERE i.state = 'open' AND s.pile = ?", number)
    assert len(waiting) == 16  # the slip with no round number too: nothing decided in the wrong round
    assert "the pile mostly says round 3" in dict(waiting)["scans/r3-16.png"]
    cli(game, "round", "correct", code=ExitCode.BAD_INPUT)
    discarded = cli(game, "slip", "discard", "--pile", str(number), "--as", "wrong-pile").output
    items = [int(i) for i in re.findall(r"review item (\d+);", discarded)]
    assert len(items) == 16 and "16 slips discarded" in discarded
    assert rows(game, "SELECT count(*) FROM slip WHERE pile = ? AND state = 'discarded'", number) == [(16,)]
    back = cli(game, "slip", "restore", "--pile", str(number), "--reason", "it was round 2 after all").output
    assert back.count("is back") == 16
    assert rows(game, "SELECT count(*) FROM slip WHERE pile = ? AND state = 'filed'", number) == [(16,)]
    cli(game, "slip", "discard", "--pile", str(number), "--as", "wrong-pile")
    # the arbiter moves on to round 3 and scans the pile where it belongs: filed, not "16 duplicate"
    cli(game, "round", "set-top")
    cli(game, "round", "close")
    cli(game, "round", "set-rack", "BCDEINU")
    out = cli(game, "round", "scan", str(pile), "--round", "3", "--keep", "new").output
    assert "round 3: 16 filed (16 readings)" in out and "duplicate" not in out
    assert rows(game, "SELECT count(*) FROM slip s JOIN round r ON r.id = s.round_id "
                      "WHERE r.number = 3 AND s.state = 'filed'") == [(16,)]


def test_the_wrong_pile_can_be_moved_to_the_round_it_names(game, tmp_path):
    open_round_two(game)
    result = cli(game, "round", "scan", str(round_three_pile(tmp_path)), "--round-mismatch", "move",
                 code=ExitCode.BAD_INPUT)
    assert "the pile's round 3: game 1 has no such round" in result.stderr


def test_moving_a_superseded_slip_files_it_in_its_round(game, tmp_path):
    open_round_two(game)
    first = reading(5, rnd=2, sha="d" * 64, source="scans/r2-5.png")
    late = reading(5, rnd=1, sha="f" * 64, source="scans/late-r1-table5.png", word="MODELA", score=28)
    cli(game, "round", "scan", str(jsonl(tmp_path / "r2.jsonl", first)), "--keep", "new")
    out = cli(game, "round", "scan", str(jsonl(tmp_path / "late.jsonl", late)), "--keep", "old").output
    assert "table 5 has two slips" in out
    ((slip_id, state),) = rows(game, "SELECT id, state FROM slip WHERE source = 'scans/late-r1-table5.png'")
    assert state == "superseded"
    refused = cli(game, "slip", "move", str(slip_id), "--round", "1", code=ExitCode.BAD_INPUT)
    assert "table 5 already has a filed slip" in refused.stderr  # round 1's own slip of table 5
    (old,) = rows(game, "SELECT s.id FROM slip s JOIN round r ON r.id = s.round_id WHERE r.number = 1 "
                        "AND s.table_no = 5 AND s.state = 'filed'")
    cli(game, "slip", "discard", str(old[0]), "--as", "duplicate", "--reason", "the late one is the right one")
    moved = cli(game, "slip", "move", str(slip_id), "--round", "1").output
    assert "moved from round 2 to round 1, filed" in moved and f"slip move {slip_id} --round 2" in moved
    assert rows(game, "SELECT s.state, r.number FROM slip s JOIN round r ON r.id = s.round_id WHERE s.id = ?",
                slip_id) == [("filed", 1)]
