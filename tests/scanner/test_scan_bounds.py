"""`fluturas scan` over a pile with a page too large to read (README "Scanning": at most 80 million
pixels a page) and a PDF resolution out of range: the option is refused before any file is opened
(exit 2, one line, no readings file); a huge page refuses its file in one line, measured from the
header before anything is decoded, and the good files after it are still read (exit 1)."""
from __future__ import annotations

import json
import struct
import zlib

import pytest
from click.testing import CliRunner

from cli import main
from scanner.synth.slip import render_page, render_slip

from tests.scanner.helpers import VALUES, write


def png_header_only(path, width: int, height: int):
    """A PNG whose header claims width×height grey pixels and whose data is a few bytes: what a
    decompression bomb looks like to the first reader of the header."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))
    return path


def huge_pdf(path, points: float = 14400):
    """One page of 200 × 200 inches (the largest a PDF page may be): 1.6 billion pixels at 200 dpi."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    doc.new_page(points, points)
    doc.save(str(path))
    doc.close()
    return path


@pytest.mark.parametrize("dpi", ["0", "-5", "nan", "inf", "5000", "10"])
def test_pdf_dpi_out_of_range_is_refused_before_any_file_is_read(tmp_path, dpi):
    pdf = huge_pdf(tmp_path / "a.pdf", 600)
    out = tmp_path / "readings.jsonl"
    result = CliRunner().invoke(main, ["scan", str(pdf), "--out", str(out), "--pdf-dpi", dpi])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "--pdf-dpi" in lines[0] and "50 to 600" in lines[0]
    assert not out.exists()


def test_huge_pages_are_refused_one_line_each_and_the_good_file_after_them_is_read(tmp_path, duplicat, rng, style):
    bomb = png_header_only(tmp_path / "a_bomb.png", 30000, 30000)      # above Pillow's own guard too
    wide = png_header_only(tmp_path / "b_wide.png", 9000, 9000)        # 81 million: just above ours
    poster = huge_pdf(tmp_path / "c_poster.pdf")
    good = write(tmp_path / "d_good.png", render_page([render_slip(duplicat, VALUES, rng, style)], rng))
    out = tmp_path / "readings.jsonl"
    result = CliRunner().invoke(main, ["scan", str(bomb), str(wide), str(poster), str(good), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    for name in ("a_bomb.png", "b_wide.png", "c_poster.pdf"):
        said = [line for line in result.output.splitlines() if name in line]
        assert len(said) == 1 and "million" in said[0], (name, result.output)
    assert "page 1: 40000×40000 pixels at 200 dpi" in result.output
    readings = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [bool(r["error"]) for r in readings] == [True, True, True, False]
    assert readings[3]["template_id"] == "duplicat-v1"
    assert "1 slips from 4 files" in result.output and "3 files unreadable" in result.output


def test_a_pdf_page_fits_at_a_lower_resolution(tmp_path):
    """The limit is on the rendered page: a 40 × 40 inch page is refused at 300 dpi and read (as no
    slip) at 50."""
    pdf = huge_pdf(tmp_path / "big.pdf", 40 * 72)
    out = tmp_path / "readings.jsonl"
    refused = CliRunner().invoke(main, ["scan", str(pdf), "--out", str(out), "--pdf-dpi", "300"])
    assert refused.exit_code == 1 and "144 million" in refused.output
    read = CliRunner().invoke(main, ["scan", str(pdf), "--out", str(out), "--pdf-dpi", "50"])
    assert read.exit_code == 0, read.output
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["error"] is None


@pytest.mark.parametrize("count", ["99999999999999999999", "-1", "10001"])
def test_template_print_bounds_the_number_of_blank_slips(tmp_path, count):
    """The fuzz run's finding: `template print --count 99999999999999999999` ended INTERNAL."""
    out = tmp_path / "s.pdf"
    result = CliRunner().invoke(main, ["template", "print", "duplicat", "--out", str(out), "--count", count])
    assert result.exit_code == 2 and "--count" in result.output and not out.exists(), result.output
