"""Seating lists: good files in CSV (comma, semicolon, BOM) and XLSX; bad ones name file, row, column."""
from __future__ import annotations

import pytest
from openpyxl import Workbook

from arbiter.errors import SeatingError
from arbiter.store.seating import read_seating


def write(tmp_path, name, text, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_csv_with_romanian_headers_and_semicolons(tmp_path):
    path = write(tmp_path, "masa.csv", "Masă;Nume;Prenume;Club\n1;Popescu;Ștefan;CS Ploiești\n2;Ionescu;Ana;\n")
    seats = read_seating(path)
    assert [(s.table, s.name, s.club) for s in seats] == [(1, "Popescu Ștefan", "CS Ploiești"), (2, "Ionescu Ana", None)]


def test_utf8_bom_is_accepted(tmp_path):
    path = write(tmp_path, "bom.csv", "masa,nume\n3,Țuțea\n", encoding="utf-8-sig")
    assert read_seating(path)[0].name == "Țuțea"


def test_latin1_file_names_row_and_column(tmp_path):
    path = write(tmp_path, "latin.csv", "masa,nume,club\n1,Ana,X\n2,Andrée,Y\n", encoding="latin-1")
    with pytest.raises(SeatingError) as exc:
        read_seating(path)
    assert str(exc.value).startswith(f"{path}: row 3, column 2: byte 0xe9 is not UTF-8")
    assert "--encoding" in str(exc.value)
    assert read_seating(path, encoding="latin-1")[1].name == "Andrée"


def test_duplicate_table_names_both_rows(tmp_path):
    path = write(tmp_path, "dup.csv", "masa,nume\n1,A\n2,B\n1,C\n")
    with pytest.raises(SeatingError, match=r"dup.csv: row 4, column 1 \(masa\): table 1 is already seated at row 2"):
        read_seating(path)


def test_unknown_column(tmp_path):
    path = write(tmp_path, "unk.csv", "masa,nume,rating\n1,A,1500\n")
    with pytest.raises(SeatingError, match=r"unk.csv: row 1, column 3 \('rating'\): unknown column"):
        read_seating(path)


@pytest.mark.parametrize("value", ["abc", "0", "1000", ""])
def test_bad_table_number(tmp_path, value):
    path = write(tmp_path, "bad.csv", f"masa,nume\n{value},A\n")
    with pytest.raises(SeatingError, match=r"bad.csv: row 2, column 1 \(masa\): .* is not a table number"):
        read_seating(path)


def test_missing_name_column_and_empty_name(tmp_path):
    with pytest.raises(SeatingError, match="the column 'nume' is missing"):
        read_seating(write(tmp_path, "a.csv", "masa,club\n1,X\n"))
    with pytest.raises(SeatingError, match=r"row 2, column 2 \(nume\): the name is empty"):
        read_seating(write(tmp_path, "b.csv", "masa,nume\n1,\n"))


def test_xlsx_good_and_duplicate(tmp_path):
    book = Workbook()
    ws = book.active
    ws.append(["Masa", "Nume", "Categorie"])
    ws.append([1, "Popescu", "senior"])
    ws.append([2.0, "Ionescu", "youth"])
    good = tmp_path / "seats.xlsx"
    book.save(good)
    assert [(s.table, s.category) for s in read_seating(good)] == [(1, "senior"), (2, "youth")]
    ws.append([2, "Dublu", None])
    bad = tmp_path / "dup.xlsx"
    book.save(bad)
    with pytest.raises(SeatingError, match=r"dup.xlsx: row 4, column 1 \(Masa\): table 2 is already seated at row 3"):
        read_seating(bad)


def test_not_a_workbook(tmp_path):
    with pytest.raises(SeatingError, match="not a readable .xlsx"):
        read_seating(write(tmp_path, "x.xlsx", "masa,nume\n"))
