"""The arbitration sheet (D 6: "a table of the Excel kind"), CSV, and the static HTML page of
provisional results — all written from the stored decisions and standings, never recomputed."""
from __future__ import annotations

import csv
import html
from dataclasses import dataclass
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from sqlalchemy import select
from sqlalchemy.orm import Session

from .audit import entries
from .games import players, rounds
from .models import Decision, Game, Player, Round, Standing, Tournament
from .results import ranking

# One colour per kind of cell, in the order that wins when several apply.
FILLS = {
    "appeal": ("BDD7EE", "corectat în urma contestației / corrected on appeal"),
    "penalty": ("F8CBAD", "penalizare tehnică / technical penalty"),
    "zero": ("FFC7CE", "depunere 0 / zero move"),
    "warning": ("FFEB9C", "avertisment / warning"),
    "solo": ("C6EFCE", "solo (+10)"),
}
REVIEW_ACTIONS = ("slip.", "review.", "appeal.", "sanction.", "results.")


@dataclass(frozen=True)
class PlayerRow:
    player: Player
    standing: Standing | None
    cells: dict[int, Decision]


@dataclass(frozen=True)
class SheetData:
    tournament: Tournament
    game: Game
    rounds: list[Round]
    rows: list[PlayerRow]

    @property
    def headers(self) -> list[str]:
        return (["Masa", "Nume", "Club"] + [f"T{r.number}" for r in self.rounds]
                + ["Avertismente", "Penalizări", "Disciplinare", "Solo", "Total", "% top", "Loc"])


def gather(session: Session, game: Game) -> SheetData:
    rnds = rounds(session, game)
    by_round = {r.id: r.number for r in rnds}
    decisions: dict[int, dict[int, Decision]] = {}
    for d in session.scalars(select(Decision).where(Decision.round_id.in_(list(by_round)))):
        decisions.setdefault(d.table_no, {})[by_round[d.round_id]] = d
    standings = {s.table_no: s for s in session.scalars(select(Standing).where(Standing.game_id == game.id))}
    order = {r.table: i for i, r in enumerate(ranking(session, game))}
    rows = [PlayerRow(p, standings.get(p.table_no), decisions.get(p.table_no, {})) for p in players(session, game)]
    rows.sort(key=lambda r: (order.get(r.player.table_no, 10**6), r.player.table_no))
    return SheetData(session.get(Tournament, game.tournament_id), game, rnds, rows)


def cell_kind(d: Decision) -> str | None:
    if d.on_appeal:
        return "appeal"
    if d.penalty:
        return "penalty"
    if d.credited == 0:
        return "zero"
    if d.warning:
        return "warning"
    if d.solo:
        return "solo"
    return None


def note_text(d: Decision) -> str:
    parts = [f"{d.status}: {d.score} → {d.credited}"]
    if d.warning:
        parts.append(f"avertisment {d.warning}")
    if d.penalty:
        parts.append(f"penalizare {d.penalty}")
    if d.solo:
        parts.append("solo")
    if d.on_appeal:
        parts.append("corectat în urma contestației")
    if d.articles:
        parts.append("art. " + ", ".join(map(str, d.articles)))
    explanation = d.explanation.get("ro") or d.explanation.get("en") if d.explanation else None
    if explanation:
        parts.append(str(explanation))
    if d.flags:
        parts.append("flags: " + ", ".join(map(str, d.flags)))
    return "\n".join(parts)


def table_rows(data: SheetData) -> list[list[object]]:
    """The arbitration table as plain values (the CSV, and the sheet's cells)."""
    out = []
    for row in data.rows:
        s = row.standing
        cells = [row.cells[r.number].credited if r.number in row.cells else None for r in data.rounds]
        tail = ([s.warnings, s.penalties, s.disciplinary, s.solos, s.total, s.percent_of_top,
                 "elim." if s.eliminated else s.rank] if s else [None] * 7)
        out.append([row.player.table_no, row.player.name, row.player.club or ""] + cells + tail)
    return out


def write_csv(data: SheetData, path: Path) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(data.headers)
        writer.writerows(table_rows(data))
    return path


def _sheet_arbitration(book: Workbook, data: SheetData) -> None:
    ws = book.active
    ws.title = "Arbitraj"
    g = data.game
    ws["A1"] = f"{data.tournament.name} — {g.name} ({g.variant}, {g.category}, reguli {g.rules})"
    ws["A1"].font = Font(bold=True, size=13)
    ws["A2"] = f"Listă de cuvinte: {g.wordlist_label or '-'} sha256 {g.wordlist_sha256 or '-'} · stare: {g.status}"
    ws.append(data.headers)
    header_row = ws.max_row
    for cell in ws[header_row]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(horizontal="center")
    first_round_col = 4
    ws.append(["", "TOP", ""] + [r.top_score for r in data.rounds] + [None] * 4 + [g.top_total, 100.0, None])
    for cell in ws[ws.max_row]:
        cell.font = Font(bold=True, italic=True)
    for values, row in zip(table_rows(data), data.rows):
        ws.append(values)
        r = ws.max_row
        for i, rnd in enumerate(data.rounds):
            decision = row.cells.get(rnd.number)
            if decision is None:
                continue
            cell = ws.cell(row=r, column=first_round_col + i)
            kind = cell_kind(decision)
            if kind:
                cell.fill = PatternFill("solid", fgColor=FILLS[kind][0])
            if kind or decision.flags:
                cell.comment = Comment(note_text(decision), "fluturas", width=320, height=140)
    legend = ws.max_row + 2
    for i, (kind, (colour, label)) in enumerate(FILLS.items()):
        ws.cell(row=legend + i, column=2, value=label).fill = PatternFill("solid", fgColor=colour)
    ws.freeze_panes = ws.cell(row=header_row + 2, column=first_round_col)
    widths = [6, 28, 16] + [6] * len(data.rounds) + [12, 11, 12, 6, 8, 7, 6]
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.print_title_rows = f"{header_row}:{header_row}"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


def _sheet_game_log(book: Workbook, data: SheetData) -> None:
    ws = book.create_sheet("Jurnal")
    ws.append(["Tur", "Grupa", "Top", "Poziție", "Punctaj", "Cumulat", "Topuri egale", "Anunțuri"])
    cumulative = 0
    for rnd in data.rounds:
        position, word = (rnd.continuation.split(maxsplit=1) + [""])[:2] if rnd.continuation else ("", "")
        cumulative += rnd.top_score or 0
        ws.append([rnd.number, rnd.rack, word, position, rnd.top_score, cumulative,
                   "; ".join(map(str, rnd.equal_tops or [])), " ".join(map(str, rnd.notices or []))])
    _finish(ws, [5, 12, 18, 8, 8, 9, 30, 40])


def _sheet_review_log(book: Workbook, session: Session, game: Game) -> None:
    ws = book.create_sheet("Revizuire")
    ws.append(["Când", "Cine", "Acțiune", "Obiect", "Înainte", "După", "Motiv"])
    for e in entries(session, game.id):
        if e.action.startswith(REVIEW_ACTIONS) and e.action != "slip.file":
            ws.append([e.at.strftime("%Y-%m-%d %H:%M:%S"), e.actor, e.action, f"{e.entity} {e.entity_id}",
                       _short(e.before), _short(e.after), e.reason or ""])
    _finish(ws, [20, 14, 18, 16, 40, 40, 40])


def _short(value: object) -> str:
    return "" if value is None else str(value)[:500]


def _finish(ws, widths: list[int]) -> None:
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


def write_xlsx(session: Session, game: Game, path: Path) -> Path:
    if game.kind == "anticipation":  # one board per player: its own layout (RULES.md §7)
        from .anticipation.sheet import write_anticipation_xlsx

        return write_anticipation_xlsx(session, game, path)
    data = gather(session, game)
    book = Workbook()
    _sheet_arbitration(book, data)
    _sheet_game_log(book, data)
    _sheet_review_log(book, session, game)
    book.save(path)
    return path


def write_html(session: Session, game: Game, path: Path) -> Path:
    """A static page for the notice board and the web: provisional (or final) ranking with the
    appeal deadline (D 6.5)."""
    data = gather(session, game)
    final = game.status == "final"
    title = f"{data.tournament.name} — {game.name}: clasament {'final' if final else 'provizoriu'}"
    deadline = ("" if final or game.appeal_deadline is None else
                f"<p class=deadline>Contestațiile se depun până la ora <strong>{game.appeal_deadline:%H:%M}</strong>"
                f" ({game.appeal_deadline:%Y-%m-%d}).</p>")
    body = []
    for row in ranking(session, game):
        pct = "" if row.percent_of_top is None else f"{row.percent_of_top:.2f}%"
        place = "elim." if row.eliminated else (row.rank or "")
        body.append(f"<tr><td>{place}</td><td>{row.table}</td><td>{html.escape(row.name)}</td>"
                    f"<td class=n>{row.total}</td><td class=n>{pct}</td></tr>")
    page = f"""<!doctype html>
<html lang="ro"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #999;padding:.2em .6em}}.n{{text-align:right}}.deadline{{font-size:1.2em;color:#a00}}</style>
</head><body><h1>{html.escape(title)}</h1>{deadline}
<p>{"Cel mai bun total (anticipație: fiecare pe tabla proprie, % din el)" if game.kind == "anticipation" else "Top"}: {game.top_total if game.top_total is not None else '-'} puncte · {len(data.rounds)} tururi</p>
<table><thead><tr><th>Loc</th><th>Masa</th><th>Nume</th><th>Total</th><th>% top</th></tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table></body></html>
"""
    path.write_text(page, encoding="utf-8")
    return path
