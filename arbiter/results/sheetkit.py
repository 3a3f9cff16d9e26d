"""What every sheet the arbiter hands out shares: text that can never turn into a formula (in the
.xlsx and in the CSV), a file replaced only once its successor is complete, and the look of a
printed sheet (title lines, bold headers, a legend that wraps, grid lines, A4 fit to width).

Both workbook builders (`arbiter.results.exports` for duplicate, `arbiter.anticipation.sheet`) use it, so
neither imports the other."""
from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from ..errors import ExportError
from ..store.models import Game

# A cell whose text starts with one of these is read as a formula by Excel and LibreOffice
# (OWASP "CSV injection"): a player called "=HYPERLINK(...)" must stay a name.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
WRAP = Alignment(wrap_text=True, vertical="top")
BOLD = Font(bold=True)


def is_formula_text(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_START)


def put(ws: Worksheet, row: int, column: int, value: object) -> Cell:
    """Write one value; text that looks like a formula is stored as text, shown as typed."""
    cell = ws.cell(row=row, column=column)
    cell.value = value
    if is_formula_text(value):
        cell.data_type = "s"
        cell.quotePrefix = True  # Excel and LibreOffice keep it text when the cell is edited
    return cell


def formula(ws: Worksheet, row: int, column: int, expression: str, number_format: str | None = None) -> Cell:
    """A live formula the program means (never text from a player or an arbiter)."""
    cell = ws.cell(row=row, column=column, value=expression)
    if number_format:
        cell.number_format = number_format
    return cell


def append(ws: Worksheet, values: Sequence[object]) -> int:
    """`ws.append` with every text cell protected; returns the new row's number."""
    ws.append(list(values))
    row = ws._current_row
    for column, value in enumerate(values, start=1):
        if is_formula_text(value):
            put(ws, row, column, value)
    return row


def csv_cell(value: object) -> object:
    """A CSV field: text that would start a formula gets a leading apostrophe, so a spreadsheet
    opening the file shows it as text (the apostrophe is the spreadsheets' own text marker)."""
    return "'" + value if is_formula_text(value) else value


def write_csv_rows(path: Path, rows: Iterable[Sequence[object]]) -> Path:
    def write(tmp: Path) -> None:
        with tmp.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            for row in rows:
                writer.writerow([csv_cell(v) for v in row])
    return replace_when_done(path, write)


def replace_when_done(path: Path, write: Callable[[Path], object]) -> Path:
    """Write to a temporary file in the same folder, then `os.replace` it over `path`: a reader
    never sees half a sheet, and a failed export leaves the previous file as it was."""
    path = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        # mkstemp makes the file private (0600): give it the mode a plain open() would have
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save_book(book: Workbook, path: Path) -> Path:
    return replace_when_done(path, lambda tmp: book.save(tmp))


def out_folder(out: Path) -> Path:
    """The export folder, made if missing; a file in its place is one clear error."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: --out must be a folder, and this is a file")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{out}: cannot make the export folder ({exc.strerror})") from exc
    return out


def state_label(game: Game) -> str:
    """What the sheet says of the results: provisional until published final (D 6.5)."""
    if game.status == "final":
        return "rezultate finale"
    if game.status == "provisional":
        deadline = f", contestații până la {game.appeal_deadline:%H:%M}" if game.appeal_deadline else ""
        return f"rezultate provizorii{deadline}"
    return "rezultate provizorii (corectura în curs)"


def title_lines(ws: Worksheet, lines: Sequence[str], span: int) -> None:
    """The sheet's first lines, merged across the table so they print whole."""
    for row, text in enumerate(lines, start=1):
        put(ws, row, 1, text).alignment = Alignment(wrap_text=False, vertical="top")
        ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=max(span, 1))
    ws.cell(1, 1).font = Font(bold=True, size=13)


def bold_row(ws: Worksheet, row: int, centre: bool = True) -> None:
    for cell in ws[row]:
        cell.font = BOLD
        cell.alignment = Alignment(horizontal="center" if centre else None, vertical="center", wrap_text=True)


def legend(ws: Worksheet, row: int, fills: dict[str, tuple[str, str]], span: int, column: int = 2) -> None:
    """One line per colour: a coloured swatch, then the text merged over `span` columns and wrapped,
    so it neither spills over the table nor gets cut when printed."""
    for i, (colour, label) in enumerate(fills.values()):
        r = row + i
        ws.cell(row=r, column=column).fill = PatternFill("solid", fgColor=colour)
        text = put(ws, r, column + 1, label)
        text.alignment = Alignment(wrap_text=True, vertical="center")
        ws.merge_cells(start_row=r, start_column=column + 1, end_row=r, end_column=column + max(span, 1))


def widths(ws: Worksheet, values: Sequence[float]) -> None:
    for i, width in enumerate(values, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width


def print_setup(ws: Worksheet, title_rows: str, landscape: bool = True) -> None:
    """A4, fit to one page wide, header rows repeated, grid lines printed."""
    ws.print_title_rows = title_rows
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.gridLines = True
    ws.page_margins.left = ws.page_margins.right = 0.4


def simple_table(book: Workbook, name: str, headers: Sequence[str], rows: Iterable[Sequence[object]],
                 column_widths: Sequence[float], wrap: Sequence[int] = ()) -> Worksheet:
    """A sheet that is one plain table: bold frozen header, `wrap` columns (1-based) wrapped."""
    ws = book.create_sheet(name)
    append(ws, headers)
    bold_row(ws, 1)
    for values in rows:
        r = append(ws, values)
        for column in wrap:
            ws.cell(r, column).alignment = WRAP
    ws.freeze_panes = "A2"
    widths(ws, column_widths)
    print_setup(ws, "1:1")
    return ws
