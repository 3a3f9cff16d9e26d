"""Acceptance of issue 7 on the sample tournament: `fluturas demo` plays the simulated game from
scanned slip images through the real scanner and the real judge. The sheet read back with
openpyxl agrees with `fluturas judge` run on its own on the same game; the audit log holds every
change; and every rendered slip was either read right by the scanner or sent to review (never
silently wrong). Three rounds keep it short; the seed makes it the same run every time."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select

from arbiter.store.audit import entries
from arbiter.slips.decoding import round_decoder
from arbiter.demo.demo import DemoOptions, run_demo
from corrector.decoding import Reading
from arbiter.store.games import get_game, rounds
from arbiter.store.models import Decision, ReviewItem, Slip
from arbiter.store.store import open_store
from tests.arbiter.test_cli import judge_totals, sheet_totals

pytest.importorskip("onnxruntime")
pytest.importorskip("cv2")
ROUNDS = 3


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, list[str]]:
    out = tmp_path_factory.mktemp("demo")
    model = Path(__file__).resolve().parents[2] / "scanner" / "models" / "reader.onnx"
    if not model.is_file():
        pytest.skip(f"{model}: the scanner's reader model is not in this tree")
    lines = list(run_demo(out, options=DemoOptions.from_sample(rounds=ROUNDS)))
    return out, lines


def test_demo_reports_each_step_and_the_scanner_figures(demo):
    out, lines = demo
    text = "\n".join(lines)
    assert "16 players seated" in text and "demo list, not LOC" in text
    assert [f"round {n}: group" in text for n in range(1, ROUNDS + 1)] == [True] * ROUNDS
    assert "all rounds, scanner:" in text and "0 silently wrong" in text
    assert "waits for review" not in text  # the demo arbiter cleared the queue
    assert sorted(p.name for p in (out / "scans").iterdir())[0] == "round01-page1.png"
    assert {"demo.xlsx", "demo.csv", "demo-results.html", "truth.jsonl"} <= {p.name for p in out.iterdir()}


def test_sheet_totals_equal_the_judge_on_the_same_game(demo):
    out, _ = demo
    db = out / "demo.db"
    sheet = sheet_totals(out / "demo.xlsx")
    assert len(sheet) == 16
    assert sheet == judge_totals(db)  # also asserts no slip is held back in review


def test_the_audit_log_holds_every_change(demo):
    out, _ = demo
    with open_store(out / "demo.db").session() as s:
        game = get_game(s, None)
        log = entries(s, game.id)
        by_action = Counter(e.action for e in log)
        slips = s.scalars(select(Slip).where(Slip.game_id == game.id)).all()
        filed = {e.entity_id for e in log if e.action == "slip.file"}
        assert {str(x.id) for x in slips} == filed
        corrected = {e.entity_id for e in log if e.action == "slip.correct"}
        as_filed = {e.entity_id: e.after["content"] for e in log if e.action == "slip.file"}
        for slip in slips:  # a slip differs from what was filed (read, or decoded) only through an audited correction
            if slip.content != as_filed[str(slip.id)]:
                assert str(slip.id) in corrected
        last = {}
        for e in log:
            if e.action == "decision.set":
                last[e.entity_id] = e.after
        numbers = {r.id: r.number for r in rounds(s, game)}
        for d in s.scalars(select(Decision).where(Decision.round_id.in_(numbers))):
            assert last[f"{numbers[d.round_id]}/{d.table_no}"]["credited"] == d.credited
        items = s.scalars(select(ReviewItem).where(ReviewItem.game_id == game.id)).all()
        assert items and all(i.state == "resolved" for i in items)
        resolved = {e.entity_id for e in log if e.action == "review.resolve"}
        assert {str(i.id) for i in items} == resolved
        assert {e.actor for e in log if e.action == "review.resolve"} == {"arbitru-demo"}
    assert by_action["round.rack"] == by_action["round.close"] == ROUNDS
    assert by_action["round.continuation"] == ROUNDS and by_action["game.new"] == 1


def test_every_rendered_slip_was_read_right_or_sent_to_review(demo):
    """An unflagged slip was filed (as read, or as the decoder settled it, issue 15) with exactly
    one of the slips drawn on its page, or with a reading that gets the very same ruling."""
    out, _ = demo
    truths = [json.loads(line) for line in (out / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    store = open_store(out / "demo.db")
    with store.session() as s:
        game = get_game(s, None)
        game_id = game.id
        slips = s.scalars(select(Slip).where(Slip.game_id == game.id)).all()
        flagged = set(s.scalars(select(ReviewItem.slip_id).where(ReviewItem.kind == "reading")))
        as_filed = {e.entity_id: e.after["content"] for e in entries(s, game.id) if e.action == "slip.file"}
    found = {}
    for slip in slips:
        box = slip.reading["slip_box"]
        cx, cy = sum(p[0] for p in box) / 4, sum(p[1] for p in box) / 4
        found[(str(Path(slip.reading["source"]).name), cx, cy)] = (as_filed[str(slip.id)], slip.id in flagged)
    assert len(found) == len(truths)  # every drawn slip was located on its page
    keys = ("table", "round", "score", "position", "word", "jokers")
    for (name, _cx, _cy), (content, was_flagged) in found.items():
        if was_flagged:
            continue
        page_truths = [{k: t[k] for k in keys} for t in truths if Path(t["page"]).name == name]
        if {k: content[k] for k in keys} in page_truths:
            continue
        truth = next(t for t in page_truths if t["table"] == content["table"])
        decoder = round_decoder(store, game_id, truth["round"] or content["round"])
        rule = lambda c: decoder.rule(Reading(c["table"], c["round"], c["position"], c["word"],  # noqa: E731
                                              tuple(c["jokers"]), c["score"]))
        assert rule(content) == rule(truth), (name, content, truth)


def test_arbiter_corrections_are_kept_for_the_reader(demo, tmp_path):
    """Each field an arbiter corrects is kept with the cells the scanner cut for it: the demo's own
    corrections (as many as the decoder leaves it), and a score an arbiter types for a filed slip,
    its cells cut again from the slip's image, whatever the decoder decided."""
    import numpy as np

    from arbiter.slips.learning import save_field_corrections

    out, _ = demo
    with open_store(out / "demo.db").session() as s:
        slip = s.scalars(select(Slip).where(Slip.state == "filed", Slip.table_no.is_not(None))
                         .order_by(Slip.id)).first()
        reading, sha256, index, score = dict(slip.reading), slip.sha256, slip.slip_index, slip.content["score"]
    typed = save_field_corrections(tmp_path, reading, sha256, index, {}, {"score": score})
    assert len(typed) == 1
    with np.load(typed[0]) as d:
        assert str(d["truth"]) == str(score)
    for path in sorted((out / "reader-samples").glob("*.npz")) + typed:
        with np.load(path) as d:
            assert len(d["cells"]) == len(str(d["truth"]))
    assert save_field_corrections(tmp_path, reading, "0" * 64, index, {}, {"score": score}) == []  # another image


def test_demo_options_give_another_game(tmp_path):
    """`fluturas demo --seed 7 --players 5 --mistakes 0.5`: another draw, five seats, its own slips."""
    from click.testing import CliRunner

    from cli import main

    out = tmp_path / "other"
    model = Path(__file__).resolve().parents[2] / "scanner" / "models" / "reader.onnx"
    if not model.is_file():
        pytest.skip(f"{model}: the scanner's reader model is not in this tree")
    result = CliRunner().invoke(main, ["demo", "--out", str(out), "--rounds", "1", "--seed", "7", "--players", "5",
                                       "--mistakes", "0.5"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "5 players seated" in text and "draws from seed 7" in text
    assert len(sheet_totals(out / "demo.xlsx")) == 5
    assert sheet_totals(out / "demo.xlsx") == judge_totals(out / "demo.db")
