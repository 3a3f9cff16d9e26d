"""scan_paths: files in, one Reading per slip out. Pipeline stages are plain functions.

A file that cannot be read yields one Reading with `error` set, so a batch never stops on it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from scanner.errors import ImageReadError
from scanner.fields import dropout, read_fields
from scanner.locate import find_slips, rectify
from scanner.quality import MIN_MARKER_PX, slip_warnings
from scanner.reader import Reader, make_reader
from scanner.reading import Reading
from scanner.source import Page, expand, read_pages
from scanner.template import Template, builtin_templates, check_markers_unique
from scanner.workers import scan_in_workers

PX_PER_MM = 8.0  # rectified slip resolution: a 6 mm box becomes 48 px


@dataclass
class ScanOptions:
    """One validated options object for a scan (checked before any file is opened)."""

    reader: str = "cnn"
    model: Path | None = None
    templates: tuple[Template, ...] = field(default_factory=builtin_templates)
    pdf_dpi: float = 200.0
    threads: int = 1
    workers: int = 1  # processes scanning pages side by side (`scanner.workers`); 1: this process alone

    def __post_init__(self) -> None:
        check_markers_unique(self.templates)


def _read_qr(slip: np.ndarray, t: Template, s: float) -> str | None:
    if t.qr is None:
        return None
    pad = 2.0
    x0, y0 = int(max(0, (t.qr.x - pad) * s)), int(max(0, (t.qr.y - pad) * s))
    x1, y1 = int((t.qr.x + t.qr.w + pad) * s), int((t.qr.y + t.qr.h + pad) * s)
    crop = slip[y0:y1, x0:x1]
    if crop.size == 0 or crop.min() > 100:
        return None  # nothing printed there: a blank slip
    detector = cv2.QRCodeDetector()
    big = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    _, binary = cv2.threshold(big, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    for attempt in (crop, big, binary):  # the detector is sensitive to module size and blur
        text, _, _ = detector.detectAndDecode(attempt)
        if text:
            return text
    return None


def scan_page(page: Page, reader: Reader, reader_name: str, templates: tuple[Template, ...]) -> list[Reading]:
    """Readings of every slip on one page (or one reading carrying the page's problem)."""
    gray = cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY) if page.image.ndim == 3 else page.image
    red = dropout(page.image)
    found = find_slips(gray, templates)  # page pixels, whatever scale the markers were found at
    out: list[Reading] = []
    for k, loc in enumerate(found.slips):
        slip = rectify(red, loc, PX_PER_MM)  # only the red channel is ever read (D 3.2.b dropout)
        fields, cells = read_fields(slip, loc.template, reader, PX_PER_MM)
        warnings = slip_warnings(slip, loc.marker_px, loc.markers_found)
        if loc.marker_px < MIN_MARKER_PX:  # far below the resolution the threshold was calibrated at: review it all
            for f in fields.values():
                f.accepted = False
        out.append(Reading(str(page.source), page.number, k, loc.template.id,
                           [[round(x, 1), round(y, 1)] for x, y in loc.corners_px], fields,
                           _read_qr(slip, loc.template, PX_PER_MM), reader_name, reader.threshold,
                           warnings, None, reader.classes, cells))
    page_warnings = []
    if found.unknown_ids:
        page_warnings.append(f"unknown_template_markers: ids {found.unknown_ids}")
    if found.orphans:
        page_warnings.append(f"incomplete_slip: {found.orphans} markers without a complete slip")
    if not out or page_warnings:
        if not out:
            page_warnings.append("no_slip_found")
        if out:
            for r in out:
                r.warnings += page_warnings
        else:
            out.append(Reading(str(page.source), page.number, 0, None, None, reader=reader_name,
                               threshold=reader.threshold, warnings=page_warnings, classes=reader.classes))
    return out


def file_pages(path: Path, reader: Reader, options: ScanOptions) -> Iterator[Page | Reading]:
    """The pages of one file, then, if it cannot be read (or a page of it), one Reading with `error` set."""
    try:
        yield from read_pages(path, options.pdf_dpi)
    except ImageReadError as exc:
        yield Reading(str(path), 0, 0, None, None, reader=options.reader, threshold=reader.threshold,
                      error=str(exc), classes=reader.classes)


def scan_with(page: Page, reader: Reader, options: ScanOptions) -> list[Reading]:
    """Readings of every slip on one page, as `options` asks."""
    return scan_page(page, reader, options.reader, options.templates)


def scan_file(path: Path, reader: Reader, options: ScanOptions) -> Iterator[Reading]:
    """Readings of one file; an unreadable file gives one Reading with `error` set instead of raising."""
    for item in file_pages(path, reader, options):
        yield from [item] if isinstance(item, Reading) else scan_with(item, reader, options)


def scan_paths(paths: list[str | Path], options: ScanOptions | None = None) -> Iterator[Reading]:
    """Readings for every slip in the given files and folders, in file order (with `options.workers`
    processes scanning pages side by side, in the same order)."""
    options = options or ScanOptions()
    reader = make_reader(options.reader, options.model, options.threads)
    if options.workers > 1:
        pages = (item for path in expand(paths) for item in file_pages(path, reader, options))
        yield from scan_in_workers(pages, scan_with, options)
        return
    for path in expand(paths):
        yield from scan_file(path, reader, options)
