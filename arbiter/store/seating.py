"""Reading a seating list (CSV or XLSX) into seats. The whole file is checked before anything is
stored, and every problem names the file, the row and the column, so an arbiter can fix the
file at once: a duplicate table, an unknown column, a wrong encoding, a bad table number."""
from __future__ import annotations

import csv
import io
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import SeatingError
from .freetext import control_character, misdecoded

# Accepted headers (case and diacritics ignored) → field. Romanian first: the federation's lists.
COLUMNS = {
    "masa": "table", "table": "table", "nr masa": "table",
    "nume": "name", "name": "name", "nume si prenume": "name",
    "prenume": "first_name", "first name": "first_name",
    "club": "club",
    "categorie": "category", "category": "category",
}
CATEGORIES = {"senior", "youth", "junior", "cadet", "veteran"}
MAX_TABLE = 999  # MASA has 3 boxes on the slip (issue 5 template)


@dataclass(frozen=True)
class Seat:
    table: int
    name: str
    club: str | None
    category: str | None
    row: int


def _fold(header: str) -> str:
    text = unicodedata.normalize("NFKD", header.strip().lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.replace(".", " ").replace("_", " ").split())


def _decode(path: Path, data: bytes, encoding: str | None) -> str:
    """UTF-8 (a BOM is accepted and dropped); any other encoding only when asked for by name."""
    if encoding:
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError) as exc:
            raise SeatingError(f"{path}: cannot decode as {encoding}: {exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        row = data.count(b"\n", 0, exc.start) + 1
        line = data[start:exc.start]
        delimiter = b";" if line.count(b";") > line.count(b",") else b","
        column = line.count(delimiter) + 1
        raise SeatingError(
            f"{path}: row {row}, column {column}: byte 0x{data[exc.start]:02x} is not UTF-8 "
            f"(the file looks like latin-1 / Windows-1250); save it as UTF-8 or pass --encoding cp1250"
        ) from exc


def _csv_rows(path: Path, encoding: str | None) -> list[list[str]]:
    text = _decode(path, path.read_bytes(), encoding)
    first = text.split("\n", 1)[0]
    delimiter = max(";,\t", key=first.count)
    return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]


def _xlsx_rows(path: Path) -> list[list[str]]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as exc:
        raise SeatingError(f"{path}: not a readable .xlsx workbook ({exc})") from exc
    sheet = book.worksheets[0]
    rows = [["" if v is None else (str(int(v)) if isinstance(v, float) and v.is_integer() else str(v))
             for v in row] for row in sheet.iter_rows(values_only=True)]
    book.close()
    return rows


def _check_cell(text: str, where: str, encoding: str | None) -> None:
    """A name or club fit for the store and the sheets: no control character (a NUL breaks the
    export), not longer than the store keeps, and not misdecoded ('ªtefan' is Ştefan of a cp1250
    file read as latin-1): the file is refused with the encoding to use."""
    bad = control_character(text)
    if bad is not None:
        raise SeatingError(f"{where}: control character {bad} in {text!r}")
    if len(text) > 200:
        raise SeatingError(f"{where}: {len(text)} characters; at most 200")
    likely = misdecoded(text)
    if likely == "cp1250":
        raise SeatingError(f"{where}: {text!r} looks like Romanian letters read in the wrong encoding "
                           f"(ª º Þ þ for Ş ş Ţ ţ); pass --encoding cp1250")
    if likely == "utf-8":
        hint = "import it without --encoding" if encoding else "save it as UTF-8"
        raise SeatingError(f"{where}: {text!r} looks like UTF-8 read as another encoding; the file is UTF-8: {hint}")


def read_seating(path: str | Path, encoding: str | None = None) -> list[Seat]:
    """All seats of a seating file, or one SeatingError naming file, row and column."""
    path = Path(path)
    if not path.is_file():
        raise SeatingError(f"{path}: no such file")
    rows = _xlsx_rows(path) if path.suffix.lower() in (".xlsx", ".xlsm") else _csv_rows(path, encoding)
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if not rows:
        raise SeatingError(f"{path}: the file is empty (expected a header row: masa, nume, ...)")
    fields: list[str] = []
    for col, header in enumerate(rows[0], start=1):
        field = COLUMNS.get(_fold(header))
        if field is None:
            if not header.strip():
                fields.append("")
                continue
            raise SeatingError(f"{path}: row 1, column {col} ({header.strip()!r}): unknown column; expected "
                               f"masa/table, nume/name, prenume/first_name, club, categorie/category")
        if field in fields:
            raise SeatingError(f"{path}: row 1, column {col} ({header.strip()!r}): column repeated")
        fields.append(field)
    for needed, label in (("table", "masa"), ("name", "nume")):
        if needed not in fields:
            raise SeatingError(f"{path}: row 1: the column {label!r} is missing")
    seats: list[Seat] = []
    seen: dict[int, int] = {}
    for number, raw in enumerate(rows[1:], start=2):
        values = {f: (raw[i].strip() if i < len(raw) else "") for i, f in enumerate(fields) if f}
        where = lambda field: f"{path}: row {number}, column {fields.index(field) + 1} ({rows[0][fields.index(field)].strip()})"  # noqa: E731
        text = values["table"]
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_TABLE:
            raise SeatingError(f"{where('table')}: {text!r} is not a table number 1–{MAX_TABLE}")
        table = int(text)
        if table in seen:
            raise SeatingError(f"{where('table')}: table {table} is already seated at row {seen[table]}")
        seen[table] = number
        name = " ".join(p for p in (values["name"], values.get("first_name", "")) if p)
        if not name:
            raise SeatingError(f"{where('name')}: the name is empty")
        for field in ("name", "first_name", "club", "category"):
            _check_cell(values.get(field) or "", where(field) if field in fields else "", encoding)
        category = values.get("category") or None
        if category is not None and category.lower() not in CATEGORIES:
            raise SeatingError(f"{where('category')}: {category!r} is not one of {', '.join(sorted(CATEGORIES))}")
        seats.append(Seat(table, name, values.get("club") or None, category.lower() if category else None, number))
    return seats
