"""Input files as pages: PNG/JPEG/TIFF (multi-page too), PDF via pypdfium2, folders recursively."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from scanner.errors import ImageReadError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp"}
PDF_DPI = 200.0


@dataclass(frozen=True)
class Page:
    source: Path
    number: int  # 1-based
    image: np.ndarray  # BGR uint8


def expand(paths: list[str | Path]) -> list[Path]:
    """Files to read, folders expanded (sorted, images and PDFs only); missing paths kept so they fail loudly."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() in IMAGE_SUFFIXES | {".pdf"})
        else:
            out.append(p)
    return out


def _pdf_pages(path: Path, dpi: float) -> Iterator[Page]:
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path))
    except Exception as exc:  # pdfium raises PdfiumError and friends
        raise ImageReadError(f"{path}: not a readable PDF ({exc})") from exc
    try:
        for i in range(len(doc)):
            img = doc[i].render(scale=dpi / 72.0).to_numpy()
            yield Page(path, i + 1, np.ascontiguousarray(img[:, :, :3]))
    finally:
        doc.close()


def read_pages(path: Path, pdf_dpi: float = PDF_DPI) -> Iterator[Page]:
    """Pages of one file; raises ImageReadError naming the file when it cannot be decoded."""
    if not path.is_file():
        raise ImageReadError(f"{path}: no such file")
    if path.suffix.lower() == ".pdf":
        yield from _pdf_pages(path, pdf_dpi)
        return
    quiet = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # the error below says it once, clearly
    try:
        ok, images = cv2.imreadmulti(str(path), flags=cv2.IMREAD_COLOR)
        single = None if ok and images else cv2.imread(str(path), cv2.IMREAD_COLOR)
    finally:
        cv2.utils.logging.setLogLevel(quiet)
    if not ok or not images:
        if single is None:
            raise ImageReadError(f"{path}: not a readable image (corrupt or unsupported format)")
        images = [single]
    for i, img in enumerate(images):
        yield Page(path, i + 1, img)
