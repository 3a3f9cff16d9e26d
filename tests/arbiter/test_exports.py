"""Every sheet the arbiter hands out, read back from the real files: the arbitration workbook
recalculated by LibreOffice (its totals are formulas that must give the judge's totals, RULES.md
§4), text that must never become a formula (issue 12), files replaced only once complete, the
results page parsed as HTML, the clubs' slip album (D 5.3.8) scanned again page by page, and the
pre-filled slip set printed from the stored seating."""
from __future__ import annotations

import csv
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import Workbook, load_workbook

from arbiter.results.exports import FILLS, gather, write_csv, write_html, write_xlsx
from arbiter.store.games import get_game
from arbiter.slips.ingest import file_reading
from arbiter.round.judging import store_judgement
from arbiter.slips.readings import parse_reading
from arbiter.results.results import add_sanction, parse_deadline, publish
from cli import main

from .helpers import ARBITER, judge_output, make_game
from .sheets import sheet_totals, sheet_values
from .test_results import two_rounds

POINTS = {1: [26, 0], 2: [26, 20], 3: [10, 30]}
SEED = 7  # the renders are seeded: the same scans every run
INJECTED = {"name": "=HYPERLINK(\"http://x\",\"clic\")", "club": "+40 CS", "reason": "-1+2 @SUM(A1)"}


def _sanctioned_output() -> dict:
    """Table 2: four warnings (the 4th costs 5, D 6.2), a disciplinary warning (−20, D 6.4) and a
    solo (+10, D 5.3.8): 26 + 20 − 5 − 20 + 10 = 31, as the judge would total it."""
    output = judge_output(POINTS, warnings={(1, 2): "D 6.2.d"})
    row = next(t for t in output["tables"] if t["table"] == 2)
    row.update(warnings=4, disciplinary=1, solos=1, total=31, rank=2, percent_of_top=67.39)
    output["tables"][0].update(rank=3)  # table 1: 26
    next(t for t in output["tables"] if t["table"] == 3).update(rank=1)  # table 3: 40
    output["top_total"] = 46
    return output


@pytest.fixture
def sheet_game(store, tmp_path):
    game_id = two_rounds(store, tmp_path)
    with store.session() as s:
        store_judgement(s, get_game(s, game_id), _sanctioned_output(), ARBITER, "judge.json")
    return game_id


def test_totals_are_formulas_that_give_the_judges_totals(store, tmp_path, sheet_game):
    with store.session() as s:
        path = write_xlsx(s, get_game(s, sheet_game), tmp_path / "a.xlsx")
        write_csv(gather(s, get_game(s, sheet_game)), tmp_path / "a.csv")
    with open(tmp_path / "a.csv", encoding="utf-8") as handle:
        assert [r[-2] for r in csv.reader(handle)][1:] == ["86.96", "67.39", "56.52"]  # always two decimals
    ws = load_workbook(path)["Arbitraj"]
    header = [c.value for c in ws[3]]
    total = header.index("Total") + 1
    cell = ws.cell(row=5, column=total)
    assert cell.data_type == "f" and cell.value.startswith("=SUM(D5:E5)")
    assert "*5" in cell.value and "*20" in cell.value and "*10" in cell.value  # the ro pack's numbers
    assert sheet_totals(path) == {1: 26, 2: 31, 3: 40}
    values = sheet_values(path)
    pct = header.index("% top")
    assert {r[0]: r[pct] for r in values[4:7]} == {3: 86.96, 2: 67.39, 1: 56.52}
    assert ws.cell(row=5, column=pct + 1).number_format == "0.00"
    assert sheet_totals(path, "Pe mese") == {1: 26, 2: 31, 3: 40}


def test_an_edited_round_cell_moves_the_total(store, tmp_path, sheet_game):
    with store.session() as s:
        path = write_xlsx(s, get_game(s, sheet_game), tmp_path / "a.xlsx")
    book = load_workbook(path)
    ws = book["Arbitraj"]
    row = next(r[0].row for r in ws.iter_rows(min_row=5) if r[0].value == 1)
    ws.cell(row=row, column=5, value=6)  # the arbiter credits table 1 with 6 in round 2
    book.save(tmp_path / "edited.xlsx")
    assert sheet_totals(tmp_path / "edited.xlsx")[1] == 32


def test_the_sheet_prints_whole(store, tmp_path, sheet_game):
    with store.session() as s:
        game = get_game(s, sheet_game)
        publish(s, game, "provisional", ARBITER, deadline=parse_deadline("18.30", _now()))
        add_sanction(s, game, 3, "disciplinary", INJECTED["reason"], ARBITER, 2)
        path = write_xlsx(s, game, tmp_path / "a.xlsx")
    book = load_workbook(path)
    assert book.sheetnames == ["Arbitraj", "Pe mese", "Jurnal", "Revizuire"]
    ws = book["Arbitraj"]
    assert "rezultate provizorii, contestații până la 18:30" in ws["A2"].value and "running" not in ws["A2"].value
    assert ws.print_options.gridLines and ws.page_setup.fitToWidth == 1 and ws.print_title_rows == "$3:$3"
    legend = [c for c in ws["C"] if c.value == FILLS["appeal"][1]][0]
    assert legend.alignment.wrap_text and any(legend.coordinate in r for r in ws.merged_cells.ranges)
    by_table = book["Pe mese"]
    assert [r[0].value for r in by_table.iter_rows(min_row=5, max_row=7)] == [1, 2, 3]
    assert [r[0].value for r in ws.iter_rows(min_row=5, max_row=7)] == [3, 2, 1]
    review = book["Revizuire"]
    assert [c.value for c in review[1]] == ["Când", "Arbitru", "Acțiune", "Tur", "Masa", "Câmp", "Înainte", "După",
                                            "Motiv"]
    rows = [[c.value for c in r] for r in review.iter_rows(min_row=2)]
    published = [r for r in rows if r[2] == "results.provisional"]
    assert {r[5] for r in published} == {"status", "appeal_deadline"}
    assert next(r for r in published if r[5] == "status")[6:8] == ["running", "provisional"]
    sanction = [r for r in rows if r[2] == "sanction.disciplinary"]
    assert sanction[0][3:5] == [2, 3] and sanction[0][8] == INJECTED["reason"]
    assert not any(isinstance(v, str) and v.startswith("{") for r in rows for v in r[6:8])


def _now():
    from datetime import datetime, timezone

    return datetime(2026, 11, 22, 17, 0, tzinfo=timezone.utc)


def test_formula_like_text_stays_text_in_the_sheet_and_the_csv(store, tmp_path):
    from arbiter.store.models import Player

    game_id = two_rounds(store, tmp_path)
    with store.session() as s:
        game = get_game(s, game_id)
        store_judgement(s, game, judge_output(POINTS), ARBITER, "judge.json")
        player = s.query(Player).filter_by(game_id=game.id, table_no=1).one()
        player.name, player.club = INJECTED["name"], INJECTED["club"]
        add_sanction(s, game, 2, "disciplinary", INJECTED["reason"], ARBITER, 1)
        write_xlsx(s, game, tmp_path / "a.xlsx")
        write_csv(gather(s, game), tmp_path / "a.csv")
    ws = load_workbook(tmp_path / "a.xlsx")["Arbitraj"]
    row = next(r for r in ws.iter_rows(min_row=5) if r[0].value == 1)
    assert (row[1].data_type, row[1].value) == ("s", INJECTED["name"])
    assert (row[2].data_type, row[2].value) == ("s", INJECTED["club"])
    review = load_workbook(tmp_path / "a.xlsx")["Revizuire"]
    reasons = [r[8].value for r in review.iter_rows(min_row=2)]
    assert INJECTED["reason"] in reasons
    assert all(c.data_type != "f" for r in review.iter_rows() for c in r)
    shown = sheet_values(tmp_path / "a.xlsx")  # LibreOffice too keeps them as the text typed
    assert next(r for r in shown[4:] if r[0] == 1)[1:3] == (INJECTED["name"], INJECTED["club"])
    with open(tmp_path / "a.csv", encoding="utf-8") as handle:
        table = {r[0]: r for r in csv.reader(handle)}
    assert table["1"][1:3] == ["'" + INJECTED["name"], "'" + INJECTED["club"]]


def test_a_failed_export_leaves_the_previous_file_whole(store, tmp_path, sheet_game, monkeypatch):
    import arbiter.results.exports as exports

    with store.session() as s:
        game = get_game(s, sheet_game)
        write_xlsx(s, game, tmp_path / "a.xlsx")
        write_csv(gather(s, game), tmp_path / "a.csv")
        before = {p: p.read_bytes() for p in (tmp_path / "a.xlsx", tmp_path / "a.csv")}

        def half_written(self, filename):
            Path(filename).write_bytes(b"PK\x03\x04 half a workbook")
            raise OSError("disk full")

        def rows_then_failure(data, rows=None):
            yield [1, "Jucător 1"]
            raise OSError("disk full")

        monkeypatch.setattr(Workbook, "save", half_written)
        monkeypatch.setattr(exports, "table_rows", rows_then_failure)
        with pytest.raises(OSError):
            write_xlsx(s, game, tmp_path / "a.xlsx")
        with pytest.raises(OSError):
            write_csv(gather(s, game), tmp_path / "a.csv")
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".a.")) == []
    assert (tmp_path / "a.xlsx").stat().st_mode & 0o044  # readable by others, as a plain open() makes it


def test_export_out_that_is_a_file_is_one_line_and_exit_2(tmp_path, store_url, sheet_game):
    target = tmp_path / "out.txt"
    target.write_text("not a folder", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "--db", store_url, "--out", str(target)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip() and not line.startswith("store: ")]
    assert len(lines) == 1 and "out.txt" in lines[0] and "Traceback" not in result.output
    assert target.read_text(encoding="utf-8") == "not a folder"


class _Page(HTMLParser):
    """The page as a reader's browser sees it: meta tags, table cells, text."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.rows: list[list[str]] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and "name" in a:
            self.meta[a["name"]] = a.get("content", "")
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def test_results_page_has_rounds_warnings_and_the_deadline_as_published(store, tmp_path, sheet_game):
    with store.session() as s:
        game = get_game(s, sheet_game)
        publish(s, game, "provisional", ARBITER, deadline=parse_deadline("18.30", _now()))
        write_html(s, game, tmp_path / "r.html")
    page = _Page()
    page.feed((tmp_path / "r.html").read_text(encoding="utf-8"))
    assert "width=device-width" in page.meta["viewport"]
    head, *body = page.rows
    assert head == ["Loc", "Masa", "Nume", "Total", "% top", "Club", "T1", "T2", "Av.", "Pen.", "Disc.", "Solo"]
    rows = {r[1]: dict(zip(head, r)) for r in body}
    assert [r[1] for r in body] == ["3", "2", "1"]  # ranking order
    assert rows["2"]["T1"] == "26A" and rows["2"]["T2"] == "20"  # the warning is marked in its round
    assert (rows["2"]["Av."], rows["2"]["Disc."], rows["2"]["Solo"], rows["2"]["Total"]) == ("4", "1", "1", "31")
    assert rows["1"]["T2"] == "0" and rows["2"]["% top"] == "67.39"
    assert "Contestațiile se depun până la ora 18:30" in "".join(page.text)


def test_deadline_with_a_dot_is_half_past_six():
    assert parse_deadline("18.30", _now()) == parse_deadline("18:30", _now())
    assert parse_deadline("9.05", _now()).strftime("%H:%M") == "09:05"


# --- the clubs' slip album (D 5.3.8) -----------------------------------------------------------

def _scanned_round(tmp_path: Path, round_no: int, tables: list[int], turns: tuple[int, ...]) -> Path:
    """Pre-filled slips of the round (QR: game, round, table), written by hand, two to a page, the
    second upside down: the scan a round's pile gives."""
    import cv2
    import numpy as np

    from scanner.printing import Prefill
    from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
    from scanner.template import load_template

    t = load_template("duplicat")
    rng = np.random.default_rng([SEED, round_no])
    slips = [render_slip(t, {"poz": "H4", "puncte": "26", "depunere": "MODEL"}, rng, SlipStyle(),
                         prefill=Prefill("1", round_no, table, f"Jucător {table}")) for table in tables]
    page = render_page(slips, rng, PageStyle(quarter_turns=turns, max_tilt_deg=4))
    path = tmp_path / "scans" / f"round{round_no}.png"
    path.parent.mkdir(exist_ok=True)
    cv2.imwrite(str(path), page)
    return path


def test_slip_album_has_each_players_own_slip_upright_round_by_round(store, store_url, tmp_path, monkeypatch):
    import cv2
    import numpy as np
    import pypdfium2

    from scanner import scan_paths

    pytest.importorskip("onnxruntime")
    monkeypatch.chdir(tmp_path)
    game_id = two_rounds(store, tmp_path, tables=3)
    for round_no in (1, 2):
        page = _scanned_round(tmp_path, round_no, [1, 2], (0, 2))  # table 3 hands in nothing
        for n, r in enumerate(scan_paths([str(page)])):
            record = json.loads(r.to_json())
            assert record["qr"], "the pre-filled QR code is read"
            file_reading(store, game_id, round_no, parse_reading(record, f"{page}:{n}", 0.9), ARBITER,
                         lambda o, n: "new")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "--db", store_url, "--out", str(out), "--slips"])
    assert result.exit_code == 0, result.output
    album = out / f"game{game_id}-slips.pdf"
    pdf = pypdfium2.PdfDocument(str(album))
    assert len(pdf) == 3 * 2  # players × rounds
    expected = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]  # club, then table, then round
    for k, (table, round_no) in enumerate(expected):
        text = pdf[k].get_textpage().get_text_range()
        assert f"Masa {table} — Jucător {table} — CS Test" in text and f"turul {round_no}" in text
        image = np.ascontiguousarray(pdf[k].render(scale=200 / 72).to_numpy()[:, :, :3])
        if table == 3:
            assert "niciun fluturaș depus" in text
            continue
        path = tmp_path / f"album-{k}.png"
        cv2.imwrite(str(path), image)
        [again] = list(scan_paths([str(path)]))  # exactly one slip on the page: its own
        # its own slip: the pre-printed TUR and MASA (and the QR code, where it is read again)
        assert (again.fields["tur"].text, again.fields["masa"].text) == (str(round_no), str(table))
        assert again.qr in (None, f"fluturas:v1;game=1;round={round_no};table={table}")
        (tlx, tly), (trx, _), _, (_, bly) = again.slip_box
        assert tlx < trx and tly < bly  # upright: its own top-left is the page's top-left


# --- pre-filled slip sets from the stored seating ----------------------------------------------

def test_template_print_prefills_every_round_from_the_stored_seating(store, store_url, tmp_path):
    import pypdfium2

    from scanner.printing import LABEL_PT

    game_id = make_game(store, tmp_path, tables=10)
    out = tmp_path / "slips.pdf"
    result = CliRunner().invoke(main, ["template", "print", "--db", store_url, "--game", str(game_id),
                                       "--rounds", "1-3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "30 pre-filled slips on 4 page(s) of duplicat-v1" in result.output  # 10 × 3, eight to a sheet
    pdf = pypdfium2.PdfDocument(str(out))
    assert len(pdf) == 4
    first = pdf[0].get_textpage().get_text_range()
    assert "Jucător 1 · masa 1 · tur 1 · Cupa Test — Partida 1" in first and "Jucător 8 · masa 8 · tur 1" in first
    assert "joker: bifează" in first  # the tick-boxes say what they are for
    last = pdf[3].get_textpage().get_text_range()
    assert "Jucător 10 · masa 10 · tur 3" in last
    pdf.close()
    assert LABEL_PT >= 8
    bad = CliRunner().invoke(main, ["template", "print", "--db", store_url, "--rounds", "3-1", "--out", str(out)])
    assert bad.exit_code == 2 and "--rounds '3-1'" in bad.output


def test_prefilled_slips_are_read_back_by_the_scanner(store, tmp_path):
    """The larger labels do not disturb the reader: a pre-filled slip printed from the store is
    found, its QR code and its pre-printed TUR and MASA read."""
    import cv2
    import numpy as np

    from arbiter.results.prefill import prefills
    from scanner import scan_paths
    from scanner.synth.slip import PageStyle, SlipStyle, render_page, render_slip
    from scanner.template import load_template

    game_id = make_game(store, tmp_path, tables=2)
    with store.session() as s:
        records = prefills(s, get_game(s, game_id), [4])
    t = load_template("duplicat")
    rng = np.random.default_rng(SEED)
    page = render_page([render_slip(t, {}, rng, SlipStyle(), prefill=p) for p in records], rng,
                       PageStyle(quarter_turns=(0,)))
    cv2.imwrite(str(tmp_path / "p.png"), page)
    readings = list(scan_paths([str(tmp_path / "p.png")]))
    assert [(r.fields["tur"].text, r.fields["masa"].text) for r in readings] == [("4", "1"), ("4", "2")]
    assert [r.qr for r in readings] == [f"fluturas:v1;game={game_id};round=4;table={n}" for n in (1, 2)]


def test_a_long_name_line_is_cut_before_the_qr_code(tmp_path):
    import pypdfium2

    from scanner.printing import MM, Prefill, layout, render_sheets
    from scanner.template import load_template

    t = load_template("duplicat")
    long = Prefill("1", 3, 12, "Alexandrina-Maria Constantinescu-Popovici", "Campionatul Național 2026 — Partida a doua")
    render_sheets(t, tmp_path / "s.pdf", 0, [long])
    page = pypdfium2.PdfDocument(str(tmp_path / "s.pdf"))[0]
    text = page.get_textpage()
    line = next(s for s in text.get_text_range().splitlines() if s.startswith("Alexandrina"))
    assert line.endswith("…")
    x0, y0 = layout(t)[0]
    qr_left = (x0 + t.qr.x) * MM
    boxes = [text.get_charbox(i) for i in range(text.count_chars()) if text.get_text_range(i, 1) in line]
    header_y = page.get_height() - (y0 + t.header[1]) * MM
    assert max(b[2] for b in boxes if abs(b[1] - header_y) < 3) < qr_left
