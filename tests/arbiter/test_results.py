"""From a judge output to the store, the announcements, results, appeals and every export,
read back from the real files."""
from __future__ import annotations

import csv
from datetime import datetime, timezone

import pytest
from openpyxl import load_workbook
from sqlalchemy import select

from corrector.judging.case import parse_case

from arbiter.round.announce import announce, points_ro
from arbiter.store.audit import entries
from arbiter.errors import WorkflowError
from arbiter.results.exports import FILLS, gather, write_csv, write_html, write_xlsx
from arbiter.store.games import get_game, get_round
from arbiter.round.rack import set_rack
from arbiter.round.tops import set_continuation
from arbiter.slips.ingest import file_reading
from arbiter.round.judging import build_case, store_judgement
from arbiter.store.models import Decision, ReviewItem, Round
from arbiter.slips.readings import parse_reading, read_readings_file
from arbiter.results.results import add_appeal, add_sanction, parse_deadline, publish, ranking

from .helpers import ARBITER, judge_output, make_game, reading, write_jsonl
from .sheets import sheet_totals

POINTS = {1: [26, 0], 2: [26, 20], 3: [10, 30]}
NOW = datetime(2026, 11, 22, 17, 0, tzinfo=timezone.utc)


def two_rounds(store, tmp_path, tables: int = 3):
    game_id = make_game(store, tmp_path, tables=tables)
    with store.session() as s:
        game = get_game(s, game_id)
        get_round(s, game, 1).status = "closed"
        rnd = set_rack(s, game, "AM?ESTU", ARBITER)
        set_continuation(s, game, rnd, "5F AMOr", ARBITER)
    return game_id


def judged(store, tmp_path, **kw):
    game_id = two_rounds(store, tmp_path)
    with store.session() as s:
        counts = store_judgement(s, get_game(s, game_id), judge_output(POINTS, **kw), ARBITER, "judge.json")
    return game_id, counts


def test_case_has_the_judge_input_shape(store, tmp_path):
    game_id = two_rounds(store, tmp_path)
    with store.session() as s:
        case, held = build_case(s, get_game(s, game_id))
    parse_case(case)  # the judge's own schema and checks accept it
    assert held == 0 and set(case) >= {"rules", "category", "variant", "words", "players", "rounds"}
    assert case["rounds"][0] == {"round": 1, "rack": "AELMODR", "continuation": "H4 MODEL", "slips": []}
    assert case["rounds"][1]["continuation"] == "5F AMOr"
    assert case["players"][0] == {"table": 1, "name": "Jucător 1"}


def test_storing_a_judgement_is_idempotent_and_audited(store, tmp_path):
    game_id, counts = judged(store, tmp_path, warnings={(1, 2): "D 6.2.d"}, flags={(2, 3): ["ambiguous_position"]})
    assert counts == {"changed": 6, "unchanged": 0, "flagged": 1}
    with store.session() as s:
        output = judge_output(POINTS, warnings={(1, 2): "D 6.2.d"}, flags={(2, 3): ["ambiguous_position"]})
        again = store_judgement(s, get_game(s, game_id), output, ARBITER, "judge.json")
        assert again == {"changed": 0, "unchanged": 6, "flagged": 0}
        assert len(entries(s, game_id, "decision.set")) == 6
        assert len(entries(s, game_id, "standing.set")) == 3
        (item,) = s.scalars(select(ReviewItem)).all()
        assert (item.kind, item.table_no, item.reason) == ("decision", 3, "judge flagged: ambiguous_position")
        assert [(r.rank, r.table, r.total) for r in ranking(s, get_game(s, game_id))] == [(1, 2, 46), (2, 3, 40), (3, 1, 26)]


def test_round_close_announces_zero_tables_then_the_top(store, tmp_path):
    game_id, _ = judged(store, tmp_path)
    with store.session() as s:
        game = get_game(s, game_id)
        a = announce(s, game, get_round(s, game, 2))
    assert a.zero_round == 2 and a.zero_tables == (1,)
    assert a.lines[0] == "Depuneri 0 în turul 2: masa 1."
    assert a.lines[1].startswith("Depunerea top în turul 2 este 5F AMOR, 6 puncte")
    assert "jokerul înlocuiește litera R RADU" in a.lines[1]
    assert (points_ro(12), points_ro(26), points_ro(100), points_ro(101)) == (
        "12 puncte", "26 de puncte", "100 de puncte", "101 puncte")


def test_xlsx_csv_html_read_back(store, tmp_path):
    game_id, _ = judged(store, tmp_path, warnings={(1, 2): "D 6.2.d"}, flags={(2, 3): ["ambiguous_position"]})
    with store.session() as s:
        game = get_game(s, game_id)
        write_xlsx(s, game, tmp_path / "a.xlsx")
        write_csv(gather(s, game), tmp_path / "a.csv")
    book = load_workbook(tmp_path / "a.xlsx")
    assert book.sheetnames == ["Arbitraj", "Pe mese", "Jurnal", "Revizuire"]  # issue 16: a sheet by table
    ws = book["Arbitraj"]
    header = [c.value for c in ws[3]]
    assert header[:5] == ["Masa", "Nume", "Club", "T1", "T2"] and header[-3:] == ["Total", "% top", "Loc"]
    assert [c.value for c in ws[4]][3:5] == [26, 6]  # TOP row: H4 MODEL 26, 5F AMOr 6
    rows = {r[0].value: r for r in ws.iter_rows(min_row=5, max_row=7)}
    assert sheet_totals(tmp_path / "a.xlsx") == {1: 26, 2: 46, 3: 40}  # formulas, recalculated by LibreOffice
    assert [rows[t][header.index("Loc")].value for t in (1, 2, 3)] == [3, 1, 2]
    zero = rows[1][header.index("T2")]
    assert zero.fill.fgColor.rgb.endswith(FILLS["zero"][0]) and "depunere incorectă" in zero.comment.text
    warned = rows[2][header.index("T1")]
    assert warned.fill.fgColor.rgb.endswith(FILLS["warning"][0]) and "D 6.2.d" in warned.comment.text
    assert ws.freeze_panes == "D5" and ws.print_title_rows == "$3:$3" and ws.page_setup.orientation == "landscape"
    log = book["Jurnal"]
    assert [c.value for c in log[3]][:6] == [2, "AM?ESTU", "AMOr", "5F", 6, 32]
    with open(tmp_path / "a.csv", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    assert table[0] == header and {r[0]: r[header.index("Total")] for r in table[1:]} == {"1": "26", "2": "46", "3": "40"}


def test_publishing_waits_for_the_queue_and_appeals_respect_the_deadline(store, tmp_path):
    game_id, _ = judged(store, tmp_path, flags={(2, 3): ["ambiguous_position"]})
    with store.session() as s:
        game = get_game(s, game_id)
        with pytest.raises(WorkflowError, match="review item 1 of round 2 is open"):
            publish(s, game, "provisional", ARBITER, deadline=parse_deadline("18:30", NOW))
        s.scalar(select(ReviewItem)).state = "resolved"
    with store.session() as s:
        game = get_game(s, game_id)
        publish(s, game, "provisional", ARBITER, deadline=parse_deadline("18:30", NOW))
        write_html(s, game, tmp_path / "r.html")
        add_appeal(s, game, 1, 2, "repeated", "same incorrect move as round 1", ARBITER, NOW, {"cap": 5})
        add_sanction(s, game, 3, "disciplinary", "phone rang", ARBITER, 2)
        case, _ = build_case(s, game)
        assert case["appeals"] == [{"table": 1, "round": 2, "action": "repeat_average", "cap": 5,
                                    "reason": "same incorrect move as round 1", "by": ARBITER, "at": "2026-11-22 17:00"}]
        assert case["disciplinary"] == [{"table": 3, "round": 2, "reason": "phone rang", "cheating": False}]
        parse_case(case)
        late = datetime(2026, 11, 22, 19, 0, tzinfo=timezone.utc)
        with pytest.raises(WorkflowError, match=r"deadline \(18:30\) has passed"):
            add_appeal(s, game, 2, 1, "warning", "late", ARBITER, late)
        with pytest.raises(WorkflowError, match="has not passed"):
            publish(s, game, "final", ARBITER, now=NOW)
        publish(s, game, "final", ARBITER, now=late)
        actions = [e.action for e in entries(s, game_id)]
    assert {"results.provisional", "appeal.upheld", "sanction.disciplinary", "results.final"} <= set(actions)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Contestațiile se depun până la ora <strong>18:30</strong>" in page
    assert page.index("Jucător 2") < page.index("Jucător 3") < page.index("Jucător 1")


def test_reading_appeal_goes_to_the_judge_and_marks_the_decision(store, tmp_path):
    game_id = two_rounds(store, tmp_path)
    file_reading(store, game_id, 2, parse_reading(reading(1, rnd=2, word="AMOR", position="5E"), "t", 0.9),
                 ARBITER, lambda o, n: "new")
    with store.session() as s:
        game = get_game(s, game_id)
        add_appeal(s, game, 1, 2, "reading", "the position is 5F, misread", ARBITER, NOW, {"position": "5F"})
        case, _ = build_case(s, game)
        assert case["rounds"][1]["slips"][0]["position"] == "5E"  # the slip stays as read
        assert case["appeals"][0]["action"] == "reread" and case["appeals"][0]["slip"]["position"] == "5F"
        store_judgement(s, game, judge_output(POINTS), ARBITER, "judge.json")
        rnd2 = s.scalar(select(Round).where(Round.number == 2))
        decision = s.scalar(select(Decision).where(Decision.round_id == rnd2.id, Decision.table_no == 1))
        assert decision.on_appeal
        assert [e.action for e in entries(s, game_id, "appeal.upheld")] == ["appeal.upheld"]


def test_slip_album_lists_missing_images(store, tmp_path):
    """Issue 16: one page per player per round (D 5.3.8); a scan not on disk is listed."""
    import pypdfium2
    from PIL import Image

    from arbiter.results.slipbook import write_slip_album

    game_id = make_game(store, tmp_path, tables=8)
    (tmp_path / "scans").mkdir()
    for t in range(1, 8):
        Image.new("RGB", (400, 160), (255, 255, 255 - 20 * t)).save(tmp_path / "scans" / f"t{t}.png")
    records = [reading(t, sha=f"{t:064x}") for t in range(1, 9)]
    pile = write_jsonl(tmp_path / "pile.jsonl", records)
    for r in read_readings_file(pile, 0.9):
        file_reading(store, game_id, 1, r, ARBITER, lambda o, n: "new")
    with store.session() as s:
        album = write_slip_album(s, get_game(s, game_id), tmp_path / "r1.pdf", 1)
    assert album.missing == ["scans/t8.png"]
    pdf = pypdfium2.PdfDocument(str(tmp_path / "r1.pdf"))
    assert len(pdf) == album.pages == 8  # 8 players × 1 round
    text = pdf[0].get_textpage().get_text_range()
    assert "Masa 1 — Jucător 1 — CS Test" in text and "fără contur scanat" in text
    assert "imaginea fluturașului lipsește: scans/t8.png" in pdf[7].get_textpage().get_text_range()
    pdf.close()
