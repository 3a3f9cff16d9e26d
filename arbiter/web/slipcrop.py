"""The slip as the arbiter needs to see it: cut from its scanned page and turned upright, with
the doubtful boxes outlined. The scanner gives the slip's own corners (`slip_box`: top-left,
top-right, bottom-right, bottom-left in page pixels), so warping those corners onto a rectangle
of the template's size turns an upside-down or tilted slip upright. Only images registered for
a slip of the game are ever opened (the URL names a slip id, never a path), and only under the
folders the app was given. A PDF page is drawn at the resolution the scan read it at (the
reading's `pdf_dpi` when it records one, else the scanner's default)."""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scanner.source import IMAGE_SUFFIXES, PDF_DPI

PX_PER_MM = 6
FIELD_NAMES = {"round": "tur", "table": "masa", "score": "puncte", "position": "poz", "word": "depunere"}
DOUBT_BGR = (0, 0, 220)
PAGE_SUFFIXES = IMAGE_SUFFIXES | {".pdf"}


@lru_cache(maxsize=8)
def _template(template_id: str):
    from scanner.template import load_template

    return load_template(template_id)


def image_path(source: str, roots: Iterable[Path]) -> Path | None:
    """The slip's image on disk, only when it is an image or a PDF lying under one of `roots`
    (the store's folder, the folders the scans were given from): a readings file naming any
    other file on the machine gets nothing served. Links are followed before the check."""
    folders = []
    for root in roots:
        try:
            folders.append(root.resolve(strict=True))
        except (OSError, RuntimeError, ValueError):
            continue
    try:
        path = Path(source)
        candidates = [path] if path.is_absolute() else [root / path for root in folders]
        for candidate in candidates:
            try:
                real = candidate.resolve(strict=True)
            except (OSError, RuntimeError):
                continue
            if real.suffix.lower() in PAGE_SUFFIXES and real.is_file() and \
                    any(real.is_relative_to(folder) for folder in folders):
                return real
    except ValueError:  # a NUL in the name
        return None
    return None


def _page(path: Path, page: int, pdf_dpi: float) -> np.ndarray | None:
    """Page `page` with the very pixels the scanner read (scanner.source.read_pages, the same
    PDF resolution), so the slip's corners, given in those pixels, fall on the slip."""
    from scanner.errors import ImageReadError
    from scanner.source import read_pages

    try:
        found = next(islice(read_pages(path, pdf_dpi), max(page, 1) - 1, None), None)
    except (ImageReadError, OSError, ValueError):
        return None
    return None if found is None else found.image


def crop(path: Path, reading: dict[str, Any], doubtful: dict[str, list[int] | None]) -> bytes | None:
    """PNG bytes of the upright slip; `doubtful` maps a field (round, table, score, position, word)
    to the box indices to outline (None: every box of the field). None when it cannot be cut."""
    box, page, dpi = reading.get("slip_box"), reading.get("page"), reading.get("pdf_dpi")
    page = page if isinstance(page, int) and page >= 1 else 1
    dpi = float(dpi) if isinstance(dpi, (int, float)) and 36 <= dpi <= 1200 else PDF_DPI
    image = _page(path, page, dpi)
    if image is None:
        return None
    if not box:  # a typed reading or a single-slip photo: the image as it is
        ok, png = cv2.imencode(".png", image)
        return png.tobytes() if ok else None
    template = _template(reading.get("template_id") or "duplicat-v1")
    width, height = round(template.width_mm * PX_PER_MM), round(template.height_mm * PX_PER_MM)
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    try:
        matrix = cv2.getPerspectiveTransform(np.float32(box), target)
    except (cv2.error, ValueError, TypeError):  # a slip_box that is not four corners
        return None
    upright = cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA, borderValue=(255, 255, 255))
    names = {f.name: f for f in template.fields}
    for field, indices in doubtful.items():
        tfield = names.get(FIELD_NAMES.get(field, field))
        if tfield is None:
            continue
        for i, rect in enumerate(tfield.boxes):
            if indices is None or i in indices:
                x0, y0 = round(rect.x * PX_PER_MM) - 2, round(rect.y * PX_PER_MM) - 2
                x1, y1 = round((rect.x + rect.w) * PX_PER_MM) + 2, round((rect.y + rect.h) * PX_PER_MM) + 2
                cv2.rectangle(upright, (x0, y0), (x1, y1), DOUBT_BGR, 2)
    ok, png = cv2.imencode(".png", upright)
    return png.tobytes() if ok else None
