"""The arbitration sheet (D 6: "a table of the Excel kind"), the CSV and the static HTML page of
the results — all written from the stored decisions and standings, never recomputed. In the
sheet the totals are formulas over the round cells (RULES.md §4: moves − warnings beyond the free
ones − disciplinary + solos), so an arbiter who corrects a cell in Excel sees the total follow;
the stored total is what the judge gave, and the two agree until someone edits the sheet."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet
from sqlalchemy.orm import Session

from corrector.rulepack import Sanctions, load_pack

from .. import words
from ..anticipation.sheet import write_anticipation_xlsx
from ..store.models import Decision, Game
from . import sheetkit as kit
from .resultspage import write_html
from .reviewlog import review_sheet
from .sheetdata import TAIL, PlayerRow, SheetData, gather

__all__ = ["FILLS", "gather", "write_csv", "write_exports", "write_html", "write_xlsx", "export_game"]

# One colour per kind of cell, in the order that wins when several apply.
FILLS = {
    "appeal": ("BDD7EE", "corectat în urma contestației / corrected on appeal"),
    "penalty": ("F8CBAD", "penalizare tehnică / technical penalty"),
    "zero": ("FFC7CE", "depunere 0 / zero move"),
    "warning": ("FFEB9C", "avertisment / warning"),
    "solo": ("C6EFCE", "solo (+10)"),
}
PERCENT = "0.00"  # "% top" always with two decimals (D 6.6 figures as published)


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
    """The cell's note in the arbiter's words (arbiter.words): ruling, warning, penalty, articles."""
    said = words.ruling(d, "ro")
    parts = [f"{said['status']}: {d.score} → {d.credited}"]
    parts += [said[k] for k in ("warning", "penalty") if said[k]]
    if d.solo:
        parts.append("solo")
    if d.on_appeal:
        parts.append("corectat în urma contestației")
    if said["articles"]:
        parts.append(said["articles"])
    explanation = words.explanation(d.explanation, "ro")
    if explanation:
        parts.append(explanation)
    if said["flags"] and said["flags"] != "solo":
        parts.append("de verificat: " + said["flags"])
    return "\n".join(parts)


def table_rows(data: SheetData, rows: list[PlayerRow] | None = None) -> list[list[object]]:
    """The arbitration table as plain values (the CSV, and the sheet's cells)."""
    out = []
    for row in data.rows if rows is None else rows:
        s = row.standing
        cells = [row.cells[r.number].credited if r.number in row.cells else None for r in data.rounds]
        tail = ([s.warnings, s.penalties, s.disciplinary, s.solos, s.total, s.percent_of_top,
                 "elim." if s.eliminated else s.rank] if s else [None] * len(TAIL))
        out.append([row.player.table_no, row.player.name, row.player.club or ""] + cells + tail)
    return out


def write_csv(data: SheetData, path: Path) -> Path:
    """The table as CSV (UTF-8), "% top" with two decimals, formula-like text made inert, replacing
    the old file at once."""
    pct = data.headers.index("% top")
    rows = [[f"{v:.2f}" if i == pct and isinstance(v, float) else v for i, v in enumerate(row)]
            for row in table_rows(data)]
    return kit.write_csv_rows(path, [data.headers, *rows])


@dataclass(frozen=True)
class _Columns:
    """Where things sit on the arbitration sheet (1-based columns)."""

    rounds: int

    first_round = 4

    def of(self, name: str) -> int:
        return self.first_round + self.rounds + TAIL.index(name)

    def letter(self, name: str) -> str:
        return get_column_letter(self.of(name))

    @property
    def round_span(self) -> tuple[str, str]:
        last = self.first_round + max(self.rounds, 1) - 1
        return get_column_letter(self.first_round), get_column_letter(last)


def _total_formula(c: _Columns, r: int, rules: Sanctions) -> str:
    """RULES.md §4 / D 6.2, 6.4, 5.3.8 as a formula over row r, with the pack's numbers."""
    first, last = c.round_span
    moves = f"SUM({first}{r}:{last}{r})" if c.rounds else "0"
    return (f"={moves}"
            f"-MAX(0,{c.letter('Avertismente')}{r}-{rules.free_warnings})*{rules.warning_cost}"
            f"-{c.letter('Disciplinare')}{r}*{rules.disciplinary_deduction}"
            f"+{c.letter('Solo')}{r}*{rules.solo_bonus}")


def _percent_formula(c: _Columns, r: int, top_row: int) -> str:
    total, top = c.letter("Total"), f"${c.letter('Total')}${top_row}"
    return f"=IF({top}>0,ROUND(100*{total}{r}/{top},2),0)"


def _ranking_sheet(ws: Worksheet, data: SheetData, rows: list[PlayerRow], rules: Sanctions, title: str) -> None:
    """One ranking table: title, headers, the TOP row, one row per player with formula totals."""
    g = data.game
    c = _Columns(len(data.rounds))
    span = len(data.headers)
    kit.title_lines(ws, [f"{data.tournament.name} — {g.name} ({g.variant}, {g.category}, reguli {g.rules}) — {title}",
                         f"{kit.state_label(g)} · listă de cuvinte: {g.wordlist_label or '-'} "
                         f"sha256 {g.wordlist_sha256 or '-'}"], span)
    header_row = kit.append(ws, data.headers)
    kit.bold_row(ws, header_row)
    top_row = kit.append(ws, ["", "TOP", ""] + [r.top_score for r in data.rounds])
    first, last = c.round_span
    if g.top_total is None and data.rounds:  # not judged yet: the sum of the tops so far
        kit.formula(ws, top_row, c.of("Total"), f"=SUM({first}{top_row}:{last}{top_row})")
    else:  # the judge's top total (RULES.md §4), the base of every "% top"
        kit.put(ws, top_row, c.of("Total"), g.top_total)
    kit.put(ws, top_row, c.of("% top"), 100.0).number_format = PERCENT
    for cell in ws[top_row]:
        cell.font = Font(bold=True, italic=True)
    for values, row in zip(table_rows(data, rows), rows):
        r = kit.append(ws, values)
        if row.standing is not None:
            kit.formula(ws, r, c.of("Total"), _total_formula(c, r, rules))
            if not row.standing.eliminated:
                kit.formula(ws, r, c.of("% top"), _percent_formula(c, r, top_row), PERCENT)
        for i, rnd in enumerate(data.rounds):
            decision = row.cells.get(rnd.number)
            if decision is None:
                continue
            cell = ws.cell(row=r, column=c.first_round + i)
            kind = cell_kind(decision)
            if kind:
                cell.fill = PatternFill("solid", fgColor=FILLS[kind][0])
            if kind or decision.flags:
                cell.comment = Comment(note_text(decision), "fluturas", width=320, height=140)
    kit.legend(ws, ws.max_row + 2, FILLS, span=max(span - 3, 4))
    ws.freeze_panes = ws.cell(row=header_row + 2, column=c.first_round)
    kit.widths(ws, [6, 28, 16] + [6] * len(data.rounds) + [13, 11, 12, 6, 8, 8, 6])
    ws.row_dimensions[header_row].height = 30
    kit.print_setup(ws, f"{header_row}:{header_row}")


def _game_log_rows(data: SheetData) -> list[list[object]]:
    out, cumulative = [], 0
    for rnd in data.rounds:
        position, word = (rnd.continuation.split(maxsplit=1) + [""])[:2] if rnd.continuation else ("", "")
        cumulative += rnd.top_score or 0
        out.append([rnd.number, rnd.rack, word, position, rnd.top_score, cumulative,
                    "; ".join(map(str, rnd.equal_tops or [])), " ".join(map(str, rnd.notices or []))])
    return out


def write_xlsx(session: Session, game: Game, path: Path) -> Path:
    if game.kind == "anticipation":  # one board per player: its own layout (RULES.md §7)
        return write_anticipation_xlsx(session, game, path)
    data = gather(session, game)
    rules = load_pack(game.rules).sanctions
    book = Workbook()
    ranked = book.active
    ranked.title = "Arbitraj"
    _ranking_sheet(ranked, data, data.rows, rules, "clasament")
    _ranking_sheet(book.create_sheet("Pe mese"), data, data.by_table(), rules, "pe mese")
    kit.simple_table(book, "Jurnal", ["Tur", "Grupa", "Top", "Poziție", "Punctaj", "Cumulat", "Topuri egale", "Anunțuri"],
                     _game_log_rows(data), [5, 12, 18, 8, 8, 9, 30, 40], wrap=(7, 8))
    review_sheet(book, session, game)
    return kit.save_book(book, path)


def write_exports(session: Session, game: Game, out: Path, stem: str | None = None) -> list[Path]:
    """The sheet, the CSV and the results page of a game into the folder `out`, named `stem`
    (default `game<id>`): `fluturas export`, `results` and the demo write them here alike."""
    folder = kit.out_folder(out)
    stem = stem or f"game{game.id}"
    return [write_xlsx(session, game, folder / f"{stem}.xlsx"), write_csv(gather(session, game), folder / f"{stem}.csv"),
            write_html(session, game, folder / f"{stem}-results.html")]


def ready_folder(out: Path) -> Path:
    """The export folder checked (a folder, or one that can be made, and writable) before a
    publication is stored, so `results provisional|final --out FILE` refuses without publishing
    anything; nothing is made here, so a publication refused later leaves no folder behind."""
    import os

    from ..errors import ExportError, FileAccess

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: --out must be a folder, and this is a file")
    existing = out
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ExportError(f"{out}: --out must be a folder, and {existing} is a file")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise FileAccess(f"{existing}: the export folder cannot be written; nothing was published")
    return out


@dataclass(frozen=True)
class Exported:
    files: list[Path]
    missing_images: list[str]


def export_game(session: Session, game_id: int | None, out: Path, album: bool = False,
                album_round: int | None = None) -> Exported:
    """`fluturas export`: sheet, CSV, results page, and optionally the clubs' slip album."""
    from ..store.games import get_game
    from .slipbook import write_slip_album

    game = get_game(session, game_id)
    files = write_exports(session, game, out)
    if not album:
        return Exported(files, [])
    name = f"game{game.id}-slips" + (f"-round{album_round}" if album_round is not None else "") + ".pdf"
    book = write_slip_album(session, game, Path(out) / name, album_round)
    return Exported(files + [book.path], book.missing)
