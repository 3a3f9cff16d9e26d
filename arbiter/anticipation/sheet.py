"""The arbitration sheet of an anticipation game (RULES.md §7): one row per player, and for each
round the moves as written with their current scores and the round's points; cell notes give
what the numbers alone hide — a cancellation ("Anulez turul X") and what it did to later moves,
a penalty and its A 6.3 cap, a warning (counted or waived, A 6.2), a "Verificare" answer. Then
the totals (A 6.4) and the place (A 6.6).

Everything is read from the stored decisions and standings (`anticipation.correction`), never
recomputed, so the sheet says what the store says."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import PatternFill
from openpyxl.utils import get_column_letter
from sqlalchemy.orm import Session

from .. import words
from ..results import sheetkit as kit
from ..results.reviewlog import review_sheet
from ..results.sheetdata import gather
from ..store.models import Decision, Game

FIRST_ROUND_COL = 3  # after Masa, Nume
ROUNDS_PER_PAGE = 5  # printed: the moves of five rounds fit an A4 landscape width
TAIL = ("Depuneri", "Penalizări", "Avertismente", "Disciplinar", "Total", "Loc")
# One colour per kind of round cell, in the order that wins when several apply.
FILLS = {
    "revised": ("BDD7EE", "depunere anulată sau recalculată după «Anulez turul» / cancelled or rescored"),
    "penalty": ("F8CBAD", "penalizare tehnică (plafon A 6.3) / technical penalty"),
    "zero": ("FFC7CE", "0 puncte în tur / no points this round"),
    "warning": ("FFEB9C", "avertisment / warning"),
}


@dataclass(frozen=True)
class RoundCells:
    moves: str
    points: int | None
    kind: str | None
    note: str


def _move_text(m: dict[str, Any]) -> str:
    what = m.get("move") or m.get("as_written") or m.get("written") or "?"
    mark = "" if m["status"] in ("VALID", "PENALISED") else f" ({words.status(m['status'])})"
    return f"{what} {m['score']}{mark}"


def round_cells(d: Decision | None) -> RoundCells:
    """What one player's round shows: the moves, the points, the colour and the note."""
    if d is None:
        return RoundCells("", None, None, "")
    moves = d.moves or []
    notes: list[str] = []
    for m in moves:
        line = f"{m['slot']}) g{m['group']}: {words.scrub(m['explain'])}"
        for r in m["revisions"]:
            line += (f"\n   turul {r['at_round']} anulează turul {r['cancelled_round']}: {words.status(r['outcome'])} "
                     f"{r['old_score']}→{r['new_score']}" + (f" ({r['reason']})" if r["reason"] else "")
                     + (f", dispar {', '.join(r['words_gone'])}" if r["words_gone"] else ""))
        if m["penalty_points"]:
            line += f"\n   {words.penalty(m['penalty'])}: −{m['penalty_points']} (plafon A 6.3: {m['penalty_cap']})"
        notes.append(line)
    if d.warning:
        notes.append(f"{words.warning(d.warning)} ({words.articles(d.articles)})")
    explanation = (d.explanation or {}).get("ro", "")
    extra = [p for p in explanation.split("; ") if p.startswith(("Anulez", "Verificare"))]
    notes += extra
    quiet = ("played", "missing")  # a missing slip says itself: "—" and 0
    if d.status not in quiet:
        notes.insert(0, words.status(d.status))
    kind = ("revised" if any(m["revisions"] for m in moves) else "penalty" if d.penalty
            else "zero" if d.credited == 0 else "warning" if d.warning else None)
    show = (bool(moves) and bool(kind or extra)) or d.status not in quiet
    return RoundCells(" · ".join(_move_text(m) for m in moves) or ("—" if d.status == "missing" else words.status(d.status)),
                      d.credited, kind, "\n".join(notes) if show else "")


def write_anticipation_xlsx(session: Session, game: Game, path: Path) -> Path:
    data = gather(session, game)
    book = Workbook()
    ws = book.active
    ws.title = "Anticipație"
    headers = ["Masa", "Nume"]
    for r in data.rounds:
        headers += [f"T{r.number}", f"T{r.number} pct"]
    headers += list(TAIL)
    kit.title_lines(ws, [f"{data.tournament.name} — {game.name} (anticipație, {game.variant}, reguli {game.rules})",
                         f"{kit.state_label(game)} · listă de cuvinte: {game.wordlist_label or '-'} "
                         f"sha256 {game.wordlist_sha256 or '-'}"], len(headers))
    header_row = kit.append(ws, headers)
    kit.append(ws, ["", "grupa"] + [x for r in data.rounds for x in (r.rack, None)])
    kit.bold_row(ws, header_row)
    kit.bold_row(ws, header_row + 1)
    for prow in data.rows:
        values: list[Any] = [prow.player.table_no, prow.player.name]
        cells = [round_cells(prow.cells.get(r.number)) for r in data.rounds]
        for c in cells:
            values += [c.moves, c.points]
        s = prow.standing
        detail = (s.detail or {}) if s else {}
        values += ([detail.get("moves_total"), detail.get("penalty_total"), detail.get("warning_cost"),
                    detail.get("disciplinary_deduction"), s.total, "elim." if s.eliminated else s.rank]
                   if s else [None] * len(TAIL))
        r = kit.append(ws, values)
        if s is not None:
            _total_formulas(ws, r, len(data.rounds))
        for i, c in enumerate(cells):
            cell = ws.cell(row=r, column=FIRST_ROUND_COL + 2 * i)
            cell.alignment = kit.WRAP
            if c.kind:
                cell.fill = PatternFill("solid", fgColor=FILLS[c.kind][0])
            if c.note:
                cell.comment = Comment(c.note, "fluturas", width=360, height=160)
    kit.legend(ws, ws.max_row + 2, FILLS, span=max(len(headers) - 2, 4))
    ws.freeze_panes = ws.cell(row=header_row + 2, column=FIRST_ROUND_COL)
    kit.widths(ws, [6, 26] + [24, 6] * len(data.rounds) + [9, 11, 12, 11, 7, 6])
    kit.print_setup(ws, f"{header_row}:{header_row + 1}")
    # 15 rounds of moves do not fit one A4 width legibly: five rounds a page, Masa and Nume on each
    ws.page_setup.fitToWidth = max(1, -(-len(data.rounds) // ROUNDS_PER_PAGE))
    ws.print_title_cols = "A:B"
    _sheet_groups(book, game)
    review_sheet(book, session, game)
    return kit.save_book(book, path)


def _total_formulas(ws, r: int, rounds: int) -> None:
    """A 6.4 as formulas: Depuneri = the round points (every move's score after cancellations),
    Total = Depuneri − penalties (A 6.3) − warnings (A 6.2) − disciplinary; an arbiter who corrects
    a round's points in the sheet sees both follow."""
    col = {name: get_column_letter(FIRST_ROUND_COL + 2 * rounds + i) for i, name in enumerate(TAIL)}
    points = ",".join(f"{get_column_letter(FIRST_ROUND_COL + 2 * i + 1)}{r}" for i in range(rounds))
    kit.formula(ws, r, FIRST_ROUND_COL + 2 * rounds, f"=SUM({points})" if rounds else "=0")
    kit.formula(ws, r, FIRST_ROUND_COL + 2 * rounds + TAIL.index("Total"),
                f"={col['Depuneri']}{r}-N({col['Penalizări']}{r})-N({col['Avertismente']}{r})-N({col['Disciplinar']}{r})")


def _sheet_groups(book: Workbook, game: Game) -> None:
    """The letters of the game: the 15 groups and which one each round played (A 5.2–5.3)."""
    groups, order = list(game.groups or []), list(game.group_order or [])
    rows: list[list[object]] = [[number, f"1 + {g}" if number == 1 else g,
                                 f"{groups[0]} + {groups[g - 1]}" if number == 1 else groups[g - 1]]
                                for number, g in enumerate(order, start=1)]
    rows += [[], ["", "Toate grupele", " ".join(f"{i}:{g}" for i, g in enumerate(groups, start=1))]]
    kit.simple_table(book, "Grupe", ["Tur", "Grupa", "Litere"], rows, [5, 14, 60], wrap=(3,))
