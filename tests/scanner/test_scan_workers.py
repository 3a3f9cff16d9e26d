"""A pile scanned by worker processes gives the readings one process gives, in the same order."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from scanner import ScanOptions, scan_paths
from scanner.printing import Prefill, render_sheets
from scanner.synth.slip import PageStyle, render_page, render_slip
from tests.scanner.helpers import VALUES, write


def _pile(tmp_path, duplicat, rng, style) -> list:
    """Pages of one to four slips, a corrupt file among them and a two-page pre-filled PDF last."""
    files = []
    for k, n in enumerate((4, 1, 3)):
        slips = [render_slip(duplicat, {**VALUES, "masa": str(10 * k + j + 1)}, rng, style) for j in range(n)]
        files.append(write(tmp_path / f"p{k}.png", render_page(slips, rng, PageStyle(quarter_turns=(0, 2)))))
    bad = tmp_path / "p1_corrupt.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(200)))
    pdf = tmp_path / "sheet.pdf"
    render_sheets(duplicat, pdf, prefills=[Prefill("G7", 5, t, "Ana Pop") for t in range(1, 7)])
    return [files[0], bad, files[1], files[2], pdf]


def _records(readings) -> list[dict]:
    return [r.to_dict() for r in readings]


def test_two_workers_read_the_pile_as_one_process_does(tmp_path, duplicat, rng, style):
    pile = _pile(tmp_path, duplicat, rng, style)
    alone = _records(scan_paths(pile, ScanOptions(pdf_dpi=150)))
    side_by_side = _records(scan_paths(pile, ScanOptions(pdf_dpi=150, workers=2)))
    assert side_by_side == alone
    sources = [r["source"].rsplit("/", 1)[-1] for r in alone]
    assert sources == ["p0.png"] * 4 + ["p1_corrupt.png", "p1.png"] + ["p2.png"] * 3 + ["sheet.pdf"] * 6
    assert alone[4]["error"] and "p1_corrupt.png" in alone[4]["error"]
    assert [r["qr"] for r in alone[-6:]] == [f"fluturas:v1;game=G7;round=5;table={t}" for t in range(1, 7)]


def test_the_scan_command_uses_its_workers_and_keeps_the_pile_in_order(tmp_path, duplicat, rng, style):
    pile = _pile(tmp_path, duplicat, rng, style)
    alone, side_by_side = tmp_path / "alone.jsonl", tmp_path / "two.jsonl"
    for out, workers in ((alone, "1"), (side_by_side, "2")):
        result = CliRunner().invoke(main, ["scan", *map(str, pile), "--out", str(out), "--workers", workers,
                                           "--pdf-dpi", "150"])
        assert result.exit_code == 1, result.output  # the corrupt file is reported, the batch goes on
        assert "p1_corrupt.png" in result.output and "14 slips from 5 files" in result.output
    assert [json.loads(x) for x in side_by_side.read_text().splitlines()] == \
        [json.loads(x) for x in alone.read_text().splitlines()]


def test_a_single_image_is_scanned_in_the_commands_own_process(tmp_path):
    from scanner.workers import workers_for

    assert workers_for([tmp_path / "one.png"], 4) == 1
    assert workers_for([tmp_path / "pile.pdf"], 4) == 4  # a PDF may hold many pages
    assert workers_for([tmp_path / "a.png", tmp_path / "b.png"], 4) == 4
    assert workers_for([], 4) == 1


def _filed_as(pile, monkeypatch, cores: int) -> tuple[list[dict], list[str]]:
    """What a round's scan reads of the pile (`ingest.collect_batch`, the path of `round scan`, the
    web page's upload and the demo) on a machine of `cores` cores: each slip's record, and the problems."""
    import os

    from arbiter.slips.ingest import collect_batch
    from arbiter.slips.scanchecks import Problems

    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    problems = Problems()
    readings = collect_batch(pile, None, "cnn", problems)
    return [{**r.raw, "source": r.source, "sha256": r.sha256, "index": r.slip_index} for r in readings], problems.lines


def test_a_round_pile_is_read_ahead_by_the_workers_and_filed_as_one_process_reads_it(tmp_path, duplicat, rng, style,
                                                                                      monkeypatch):
    """The pile's images are scanned side by side before the first slip is filed; every slip, its
    sha256 and ink print, and every problem come out as one process reads them, in the same order."""
    import scanner
    from arbiter.slips import scanchecks

    pile = [p for p in _pile(tmp_path, duplicat, rng, style) if p.suffix == ".png"]
    ahead: list[int] = []
    scan_ahead = scanchecks.scan_ahead
    monkeypatch.setattr(scanchecks, "scan_ahead", lambda paths, reader: ahead.append(len(r := scan_ahead(paths, reader))) or r)
    monkeypatch.setattr("arbiter.slips.ingest.scan_ahead", scanchecks.scan_ahead)
    alone = _filed_as(pile, monkeypatch, 1)
    side_by_side = _filed_as(pile, monkeypatch, 2)
    assert ahead == [0, 3]  # one process reads nothing ahead; two workers read the three readable files
    assert side_by_side == alone
    assert len(alone[0]) == 8 and any("p1_corrupt.png" in line for line in alone[1])

    def broken(paths, options=None):  # the pile's scan fails in the workers: each file is scanned alone
        if options is not None and options.workers > 1:
            raise scanner.ScannerError("a worker could not start")
        return scan_paths(paths, options)

    monkeypatch.setattr(scanner, "scan_paths", broken)
    assert _filed_as(pile, monkeypatch, 2) == alone
