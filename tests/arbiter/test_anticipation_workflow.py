"""Anticipation games (RULES.md §7) from the CLI on a fresh store to final results, classic and
blind (A 8.4: each player composes the groups), with an appeal (D 6.5: the slip as really written
replaces the reading) and an elimination (D 7.1.3): the stored standings equal `fluturas judge` on
the same game written out by hand, and the audit log holds the appeal and the sanction."""
from __future__ import annotations

import copy
import json

import pytest
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.store.models import Decision, Standing
from arbiter.store.store import open_store
from tests.arbiter.test_anticipation import _cli, _judge, _setup


def _expected(case: dict, variant: str, tmp_path) -> dict[int, dict]:
    """The judge on the same game: round 3 of table 1 without "Anulez turul 2", table 2 eliminated in round 1."""
    case = copy.deepcopy(case)
    case["variant"] = variant
    if variant == "blind":
        for p in case["players"]:
            p["groups"] = case["groups"]
        case["groups"] = None
    slip = next(s for s in case["slips"] if (s["table"], s["round"]) == (1, 3))
    slip["cancel_round"] = None
    case["disciplinary"] = [{"table": 2, "round": 1, "reason": "a copiat", "cheating": True}]
    case["appeals"] = [{"table": 1, "round": 1, "action": "cancel_warning"}]
    path = tmp_path / "expected.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    return {p["table"]: p for p in _judge(path)["players"]}


@pytest.mark.parametrize("variant", ["classic", "blind"])
def test_anticipation_to_final_results_with_an_appeal_and_an_elimination(tmp_path, variant):
    case, words, seats = _setup(tmp_path)
    db = tmp_path / "store.db"
    _cli(db, "game", "new", "--tournament", "Cupa", "--name", "A1", "--type", "anticipation", "--variant", variant,
         "--words", str(words), "--seed", "7")
    _cli(db, "players", "import", str(seats))
    if variant == "blind":
        for p in case["players"]:
            _cli(db, "round", "groups", "--table", str(p["table"]), "--set", ",".join(case["groups"]))
    else:
        _cli(db, "round", "groups", "--set", ",".join(case["groups"]))
    _cli(db, "round", "order", "--set", ",".join(map(str, case["order"])))
    slips = tmp_path / "slips.jsonl"
    slips.write_text("".join(json.dumps(s) + "\n" for s in case["slips"]), encoding="utf-8")
    assert "4 filed" in _cli(db, "round", "scan", str(slips))
    _cli(db, "round", "correct")
    _cli(db, "results", "provisional", "--deadline", "2099-01-01T00:00", "--out", str(tmp_path / "out"))
    before = _standings(db)
    out = _cli(db, "appeal", "1", "--round", "3", "--kind", "reading", "--set", "cancel_round=",
               "--reason", "the slip does not cancel round 2")
    assert "upheld" in out and "totals updated" in out
    assert "upheld" in _cli(db, "appeal", "1", "--round", "1", "--kind", "warning", "--reason", "the total is 9")
    assert "totals updated" in _cli(db, "sanction", "2", "--eliminate", "--round", "1", "--reason", "a copiat")
    out = _cli(db, "results", "final", "--force", "test", "--out", str(tmp_path / "out"))
    assert "elim." in out

    expected = _expected(case, variant, tmp_path)
    after = _standings(db)
    assert {t: (s.total, s.eliminated, s.rank) for t, s in after.items()} == {
        t: (p["total"], p["eliminated_in"] is not None, p["rank"]) for t, p in expected.items()}
    assert after[1].total != before[1].total  # the reading appeal changed the correction
    assert after[1].warnings == before[1].warnings - 1  # the warning appeal lifted round 1's
    assert after[2].eliminated and not before[2].eliminated
    # the results speak of anticipation: each total as a share of the best one (no shared top)
    assert (after[1].percent_of_top, after[2].percent_of_top) == (100.0, None)
    page = (tmp_path / "out" / "game1-results.html").read_text(encoding="utf-8")
    assert "Cel mai bun total (anticipație" in page and f"{after[1].total} puncte" in page and ">100.00<" in page
    with open_store(db).session() as s:
        appealed = s.scalars(select(Decision).where(Decision.on_appeal.is_(True))).all()
        assert sorted((d.table_no, d.warning) for d in appealed) == [(1, None), (1, None)]  # rounds 1 and 3
        actions = [e.action for e in entries(s, 1)]
    assert "appeal.upheld" in actions and "sanction.elimination" in actions


def test_anticipation_appeals_of_other_kinds_are_refused_before_anything_is_stored(tmp_path):
    case, words, seats = _setup(tmp_path)
    db = tmp_path / "store.db"
    _cli(db, "game", "new", "--tournament", "Cupa", "--name", "A1", "--type", "anticipation",
         "--words", str(words), "--seed", "7")
    _cli(db, "players", "import", str(seats))
    from click.testing import CliRunner

    from cli import main
    result = CliRunner().invoke(main, ["appeal", "1", "--round", "1", "--kind", "incorrect", "--score", "9",
                                       "--reason", "x", "--db", str(db)])
    assert result.exit_code == 2 and "takes appeals of kind reading, warning, penalty" in result.output
    result = CliRunner().invoke(main, ["appeal", "1", "--kind", "warning", "--reason", "x", "--db", str(db)])
    assert result.exit_code == 2 and "--round" in result.output  # every appeal names its round (D 6.5)
    with open_store(db).session() as s:
        assert "appeal.upheld" not in [e.action for e in entries(s, 1)]


def test_a_blind_game_needs_every_players_groups(tmp_path):
    case, words, seats = _setup(tmp_path)
    db = tmp_path / "store.db"
    _cli(db, "game", "new", "--tournament", "Cupa", "--name", "A1", "--type", "anticipation", "--variant", "blind",
         "--words", str(words), "--seed", "7")
    _cli(db, "players", "import", str(seats))
    _cli(db, "round", "groups", "--table", "1", "--set", ",".join(case["groups"]))
    _cli(db, "round", "order", "--set", ",".join(map(str, case["order"])))
    from click.testing import CliRunner

    from cli import main

    def groups_of_2(groups):
        return CliRunner().invoke(main, ["round", "groups", "--table", "2", "--set", ",".join(groups), "--db", str(db)])

    result = groups_of_2(case["groups"][:14])
    assert result.exit_code == 2 and "expected 15 groups" in result.output
    slips = tmp_path / "slips.jsonl"
    slips.write_text("".join(json.dumps(s) + "\n" for s in case["slips"]), encoding="utf-8")
    _cli(db, "round", "scan", str(slips))
    result = CliRunner().invoke(main, ["round", "correct", "--db", str(db)])
    assert result.exit_code == 2 and "no groups yet for tables 2" in result.output
    assert groups_of_2(case["groups"]).exit_code == 0  # handed in late: entered, then fixed
    result = groups_of_2(case["groups"])
    assert result.exit_code == 2 and "its groups can no longer change" in result.output  # table 2 has slips
    _cli(db, "round", "correct")


def _standings(db) -> dict[int, Standing]:
    with open_store(db).session() as s:
        rows = s.scalars(select(Standing)).all()
        s.expunge_all()
    return {r.table_no: r for r in rows}
