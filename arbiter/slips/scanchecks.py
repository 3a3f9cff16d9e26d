"""Checks on a pile of scans before anything is filed (issue 12): a file that cannot be read, a
page with no slip on it and a printed slip with nothing written on it are reported, never filed as
a phantom slip and never stopping the batch; an image too large to decode safely is refused by its
header; each slip carries the print of its ink (`arbiter.slips.paper`), by which the same paper scanned
again is recognised; a pre-filled slip's QR must name this game and round.

The limit on pixels is documented in README ("Scanning"): 80 million pixels a page, an A3 page at
600 dpi with room to spare; a larger page is refused before it is decoded."""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exitcodes import ExitCode, FluturasError

from ..store.models import Game

MAX_PIXELS = 80_000_000
MAX_PDF_PAGES = 500
DEFAULT_THRESHOLD = 0.95  # readings files with no calibrated `accepted`; images use the reader's own


class ScanProblems(FluturasError):
    """Some files or pages of the pile were not filed (each was reported); the rest was."""

    exit_code = ExitCode.CHECK_FAILED


@dataclass
class Problems:
    """What a scan did not file, one line each, naming the file (and page)."""

    lines: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        self.lines.append("; ".join(part.strip() for part in str(line).splitlines() if part.strip()))


def check_image_size(path: Path, pdf_dpi: float = 200.0) -> None:
    """Refuse a page above MAX_PIXELS from its header alone (a decompression bomb never decodes)."""
    from ..errors import ReadingError

    if path.suffix.lower() == ".pdf":
        import pypdfium2 as pdfium

        try:
            doc = pdfium.PdfDocument(str(path))
        except Exception as exc:  # noqa: BLE001 — pdfium raises its own untyped errors
            raise ReadingError(f"{path}: not a readable PDF ({exc})") from exc
        try:
            if len(doc) > MAX_PDF_PAGES:
                raise ReadingError(f"{path}: {len(doc)} pages; at most {MAX_PDF_PAGES} a file")
            for number in range(len(doc)):
                width, height = doc[number].get_size()
                pixels = (width * pdf_dpi / 72) * (height * pdf_dpi / 72)
                if not math.isfinite(pixels) or pixels > MAX_PIXELS:
                    raise ReadingError(f"{path}: page {number + 1}: {pixels / 1e6:.0f} million pixels at "
                                       f"{pdf_dpi:.0f} dpi; at most {MAX_PIXELS // 1_000_000} million")
        finally:
            doc.close()
        return
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # our own limit below, with a message naming the file
    try:
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise ReadingError(f"{path}: not a readable image ({exc})") from exc
    if width * height > MAX_PIXELS:
        raise ReadingError(f"{path}: {width}×{height} pixels ({width * height / 1e6:.0f} million); "
                           f"at most {MAX_PIXELS // 1_000_000} million a page")
    if frames > MAX_PDF_PAGES:
        raise ReadingError(f"{path}: {frames} pages; at most {MAX_PDF_PAGES} a file")


def page_problem(record: dict[str, Any]) -> str | None:
    """Why a scanner record is no slip to file: the file could not be read, or no slip was found."""
    where = f"{record.get('source')}" + (f", page {record['page']}" if record.get("page", 1) > 1 else "")
    if record.get("error"):
        return f"{where}: not read: {record['error']}"
    if not record.get("fields") and not record.get("template_id"):
        notes = "; ".join(record.get("warnings") or ()) or "no slip found"
        return f"{where}: no slip on the page ({notes}); not filed"
    return None


def blank_problem(record: dict[str, Any]) -> str | None:
    """A printed slip with nothing written in any box (a spare form in the pile) is no slip to
    review: it is reported, not filed."""
    fields = record.get("fields") or {}
    if not fields or any(str((f or {}).get("text") or "").strip() for f in fields.values() if isinstance(f, dict)):
        return None
    where = f"{record.get('source')}" + (f", page {record['page']}" if record.get("page", 1) > 1 else "")
    return f"{where}: slip {int(record.get('slip_index') or 0) + 1} is blank (nothing written in it); not filed"


def apply_threshold(record: dict[str, Any], threshold: float | None) -> dict[str, Any]:
    """An explicit --threshold also rules images: a field is sure only at that confidence (and
    well formed); without one the reader's calibrated `accepted` decides."""
    if threshold is None:
        return record
    fields = {}
    for name, f in (record.get("fields") or {}).items():
        if isinstance(f, dict) and isinstance(f.get("confidence"), (int, float)):
            f = {**f, "accepted": f.get("valid", True) is not False and f["confidence"] >= threshold}
        fields[name] = f
    return {**record, "fields": fields}


def scan_ahead(paths: list[Path], reader: str) -> dict[str, list]:
    """The scanner's readings of every image of a pile at once, by file, with one worker process a
    core scanning pages side by side (`scanner.workers`): what `scan_records` then checks file by
    file, in the pile's order. Empty when one process would scan the pile anyway (a single image).
    A file whose header refuses it (`check_image_size`) is left out, to be reported where it lies;
    if the pile's scan fails, nothing is read ahead and each file is scanned on its own, so that a
    file the scanner cannot take is reported alone and the others are filed."""
    import os
    from concurrent.futures.process import BrokenProcessPool

    from scanner import ScannerError, ScanOptions, scan_paths
    from scanner.workers import workers_for

    from ..errors import ReadingError

    sized = []
    for path in paths:
        try:
            check_image_size(path)
        except ReadingError:
            continue
        sized.append(path)
    workers = workers_for(sized, os.cpu_count() or 1)
    if workers <= 1:
        return {}
    out: dict[str, list] = {}  # every file gives a reading, an unreadable one too; one named otherwise is scanned again
    try:
        for reading in scan_paths(sized, ScanOptions(reader=reader, workers=workers)):
            out.setdefault(reading.source, []).append(reading)
    except (ScannerError, BrokenProcessPool):
        return {}
    return out


def scan_records(path: Path, reader: str, threshold: float | None, problems: Problems | None,
                 ahead: dict[str, list] | None = None) -> Iterator[dict]:
    """The scanner's records of one image file (read ahead with the pile, `scan_ahead`, or now),
    each with the file's sha256 and the print of its ink (`arbiter.slips.paper`); a page with no
    slip, a blank slip or an unreadable file is reported in `problems` (raised when there is none
    to report to)."""
    import hashlib

    from scanner import ScanOptions, scan_paths

    from ..errors import ReadingError
    from .paper import print_of

    check_image_size(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    readings = ahead[str(path)] if ahead and str(path) in ahead else scan_paths([path], ScanOptions(reader=reader))
    for reading in readings:
        record = {**reading.to_dict(), "sha256": digest}
        if reading.cells:
            record["ink"] = print_of(reading.cells)
        problem = page_problem(record) or blank_problem(record)
        if problem is None:
            yield apply_threshold(record, threshold)
        elif problems is None:
            raise ReadingError(problem)
        else:
            problems.add(problem)


def guarded(parse):
    """The record parser at the edge of untrusted input: a record it cannot take (a field of the
    wrong type anywhere in it) is a ReadingError naming the file and line, never a crash."""

    def run(record: Any, where: str, threshold: float, base: Path | None):
        from ..errors import ReadingError

        try:
            return parse(record, where, threshold, base)
        except (TypeError, AttributeError, KeyError, ValueError, IndexError) as exc:
            raise ReadingError(f"{where}: not a reading record ({type(exc).__name__}: {exc})") from exc

    return run


def qr_problem(game: Game, round_number: int, qr: Any) -> tuple[str | None, str | None]:
    """(refusal, review reason) from a pre-filled slip's QR `fluturas:v1;game=G;round=N;table=N`:
    a slip printed for another game is not filed; one printed for another round is reviewed."""
    if not isinstance(qr, str) or not qr.startswith("fluturas:"):
        return None, None
    parts = dict(p.split("=", 1) for p in qr.split(";")[1:] if "=" in p)
    printed_game = parts.get("game")
    if printed_game is not None and printed_game not in (str(game.id), game.name):
        return f"the slip was printed for game {printed_game!r}, not game {game.id} ({game.name})", None
    printed_round = parts.get("round", "")
    if printed_round.isascii() and printed_round.isdigit() and int(printed_round) != round_number:
        return None, f"the QR says round {int(printed_round)}, filed in round {round_number}"
    return None, None
