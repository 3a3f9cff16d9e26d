"""Input files as pages: PNG/JPEG/TIFF (multi-page too), PDF via pypdfium2, folders recursively.

A page is measured from the file's header before it is decoded or rendered: above MAX_PIXELS
(80 million, an A3 page at 600 dpi with room to spare) the whole file is refused with one line
naming it and its page, so a decompression bomb or a poster-sized PDF page never fills memory and
the files after it are still read."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from scanner.errors import ImageReadError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".webp"}
PDF_DPI = 200.0
PDF_DPI_RANGE = (50.0, 600.0)  # below 50 no handwriting survives; above 600 a page is only larger
MAX_PIXELS = 80_000_000
MAX_PAGES = 500


def check_pdf_dpi(dpi: float) -> str | None:
    """Why a PDF rendering resolution cannot be used, or None."""
    low, high = PDF_DPI_RANGE
    if not math.isfinite(dpi) or not low <= dpi <= high:
        return f"{dpi:g} dpi; give {low:g} to {high:g} (the slips are read at {PDF_DPI:g})"
    return None


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


def _too_large(path: Path, page: int, width: float, height: float, how: str = "") -> ImageReadError | None:
    pixels = width * height
    if math.isfinite(pixels) and pixels <= MAX_PIXELS:
        return None
    return ImageReadError(f"{path}: page {page}: {width:.0f}×{height:.0f} pixels{how} "
                          f"({pixels / 1e6:.0f} million); at most {MAX_PIXELS // 1_000_000} million a page")


def _pdf_pages(path: Path, dpi: float) -> Iterator[Page]:
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(path))
    except Exception as exc:  # pdfium raises PdfiumError and friends
        raise ImageReadError(f"{path}: not a readable PDF ({exc})") from exc
    try:
        if len(doc) > MAX_PAGES:
            raise ImageReadError(f"{path}: {len(doc)} pages; at most {MAX_PAGES} a file")
        for i in range(len(doc)):  # every page measured before any is rendered
            width, height = doc[i].get_size()
            problem = _too_large(path, i + 1, width * dpi / 72, height * dpi / 72, f" at {dpi:g} dpi")
            if problem:
                raise problem
        for i in range(len(doc)):
            try:
                img = doc[i].render(scale=dpi / 72.0).to_numpy()
            except (pdfium.PdfiumError, MemoryError) as exc:
                raise ImageReadError(f"{path}: page {i + 1}: cannot be rendered at {dpi:g} dpi ({exc})") from exc
            yield Page(path, i + 1, np.ascontiguousarray(img[:, :, :3]))
    finally:
        doc.close()


def _check_image_header(path: Path) -> None:
    """Every frame's size from the header alone (Pillow reads no pixels to answer)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)
            if frames > MAX_PAGES:
                raise ImageReadError(f"{path}: {frames} pages; at most {MAX_PAGES} a file")
            for frame in range(frames):
                image.seek(frame)
                problem = _too_large(path, frame + 1, *image.size)
                if problem:
                    raise problem
    except Image.DecompressionBombError as exc:  # Pillow's own guard, far above ours: too large either way
        raise ImageReadError(f"{path}: more than {MAX_PIXELS // 1_000_000} million pixels a page ({exc})") from exc
    except (UnidentifiedImageError, OSError, ValueError, EOFError):
        return  # not a format Pillow measures: OpenCV's decoder below says whether it is an image


def read_pages(path: Path, pdf_dpi: float = PDF_DPI) -> Iterator[Page]:
    """Pages of one file; raises ImageReadError naming the file when it cannot be decoded or a
    page is larger than MAX_PIXELS."""
    if not path.is_file():
        raise ImageReadError(f"{path}: no such file")
    if path.suffix.lower() == ".pdf":
        problem = check_pdf_dpi(pdf_dpi)
        if problem:
            raise ImageReadError(f"{path}: {problem}")
        yield from _pdf_pages(path, pdf_dpi)
        return
    _check_image_header(path)
    quiet = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # the error below says it once, clearly
    try:
        ok, images = cv2.imreadmulti(str(path), flags=cv2.IMREAD_COLOR)
        single = None if ok and images else cv2.imread(str(path), cv2.IMREAD_COLOR)
    except (cv2.error, MemoryError) as exc:
        raise ImageReadError(f"{path}: not a readable image ({type(exc).__name__})") from exc
    finally:
        cv2.utils.logging.setLogLevel(quiet)
    if not ok or not images:
        if single is None:
            raise ImageReadError(f"{path}: not a readable image (corrupt or unsupported format)")
        images = [single]
    for i, img in enumerate(images):
        yield Page(path, i + 1, img)
