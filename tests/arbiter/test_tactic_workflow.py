"""A tactic game (RULES.md §6, D 8.6) from the CLI on a fresh store to final results: the game
master draws two groups a round (`round draw`), finds the best pair (`round set-top`), the slips
(two moves and the total) are filed with `round scan`, corrected, closed; then an appeal and an
elimination, and the final results. The stored totals must equal `fluturas judge` run on its own
on the same game."""
from __future__ import annotations

import json

from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.store.games import board_before, continuation_moves, get_game, rounds
from arbiter.store.models import Decision, Round, Standing
from arbiter.store.store import open_store
from corrector.rulepack import load_pack
from tests.arbiter.test_cli import SAMPLES, judge_totals, run

WORDS = SAMPLES / "wordlists" / "ro-demo-hunspell.txt.gz"
ROUNDS = 2


def _top_moves(db, number: int) -> list[dict]:
    """The round's continuation as a player who found it writes it: each move and its score."""
    pack = load_pack("ro")
    with open_store(db).session() as s:
        game = get_game(s, None)
        rnd = next(r for r in rounds(s, game) if r.number == number)
        placed = continuation_moves(board_before(s, game, number, pack), rnd.continuation, pack, number)
        return [{"position": p.move.position.frs(), "word": p.move.word.upper(),
                 "jokers": [i for i, t in enumerate(p.move.tiles) if t.joker], "score": p.score} for p in placed]


def test_a_tactic_game_from_draw_to_final_results(tmp_path):
    db = tmp_path / "t.db"
    assert "tactic" in run(db, "game", "new", "--tournament", "Cupa", "--name", "Tactic", "--variant", "tactic",
                           "--words", str(WORDS), "--seed", "11")
    run(db, "players", "import", str(SAMPLES / "players.csv"))
    for number in range(1, ROUNDS + 1):
        out = run(db, "round", "draw")
        assert f"round {number}: group " in out and "/" in out and "grupa 2:" in out
        out = run(db, "round", "set-top")
        assert f"round {number}: continuation " in out and ";" in out.splitlines()[0]
        moves = _top_moves(db, number)
        total = sum(m["score"] for m in moves)
        slips = [{"table": 1, "round": number, "moves": moves, "total": total},
                 {"table": 2, "round": number, "moves": moves, "total": total + 1},  # wrong total: warning
                 {"table": 3, "round": number, "moves": moves[:1], "total": moves[0]["score"]}]
        path = tmp_path / f"r{number}.jsonl"
        path.write_text("".join(json.dumps(s) + "\n" for s in slips), encoding="utf-8")
        assert "3 filed" in run(db, "round", "scan", str(path))
        run(db, "round", "correct")
        assert f"Depunerea top în turul {number} este" in run(db, "round", "close")
        assert f"round {number}" in run(db, "status")
    with open_store(db).session() as s:
        tops = [r.top_score for r in s.scalars(select(Round).order_by(Round.number))]
        warned = s.scalars(select(Decision).where(Decision.table_no == 2, Decision.warning.is_not(None))).all()
    assert len(warned) == ROUNDS and all(t and t > 0 for t in tops)
    run(db, "results", "provisional", "--deadline", "2099-01-01T00:00", "--out", str(tmp_path / "out"))
    assert "totals updated" in run(db, "appeal", "2", "--round", "1", "--kind", "warning",
                                   "--reason", "the total was written right")
    assert "totals updated" in run(db, "sanction", "3", "--eliminate", "--round", "2", "--reason", "a copiat")
    out = run(db, "results", "final", "--force", "test", "--out", str(tmp_path / "out"))
    assert "elim." in out
    totals = judge_totals(db)
    with open_store(db).session() as s:
        standing = {r.table_no: r for r in s.scalars(select(Standing))}
        game = get_game(s, None)
        assert game.top_total == sum(tops)
        on_appeal = s.scalars(select(Decision).where(Decision.on_appeal.is_(True))).all()
        actions = [e.action for e in entries(s, game.id)]
    assert {t: r.total for t, r in standing.items()} == totals
    assert standing[1].total == sum(tops) and standing[1].percent_of_top == 100.0
    assert standing[3].eliminated and [d.table_no for d in on_appeal] == [2]
    assert {"appeal.upheld", "sanction.elimination", "round.continuation"} <= set(actions)


def test_tactic_groups_entered_by_hand_and_the_arbiters_pair(tmp_path):
    """`round set-rack A/B` and `round set-top "POS WORD; POS WORD"`: the arbiter's pair is checked
    (legal, one move per group, either order) and scored; one not a top is said so."""
    db = tmp_path / "t.db"
    run(db, "game", "new", "--tournament", "Cupa", "--name", "T", "--variant", "tactic", "--words", str(SAMPLES / "words.txt"))
    run(db, "round", "set-rack", "ARECSUT/AEMODLR")
    run(db, "round", "set-rack", "ARECSUT/AEMODLR/ABC", "--round", "1", code=2)  # two groups at most
    run(db, "round", "set-top", "H8 ZZZ; 8F SALUTE", code=2)
    out = run(db, "round", "set-top", "H4 MODEL")  # one move only: legal, not a top
    assert "round 1: continuation H4 MODEL = " in out
    with open_store(db).session() as s:
        assert any("nu este un top (top: 32)" in n for n in s.scalars(select(Round)).one().notices)
    out = run(db, "round", "set-top", "H4 MODEL; 8F SALUTE")
    assert "round 1: continuation H4 MODEL; 8F SALUTE = 32 points (2 tops of 32)" in out
    assert "equal top: 8D MODEL; H6 SALUTE" in out
    with open_store(db).session() as s:
        rnd = s.scalars(select(Round)).one()
        assert (rnd.rack, rnd.top_score, list(rnd.notices)) == ("ARECSUT/AEMODLR", 32, ["atenție la soluția reținută!"])
    board = run(db, "status").splitlines()[-15:]
    assert board[7] == "...MODEL......." and [row[7] for row in board[5:11]] == list("SALUTE")
