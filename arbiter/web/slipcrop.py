"""The slip as the arbiter needs to see it: cut from its scanned page and turned upright, with
the doubtful boxes outlined. The scanner gives the slip's own corners (`slip_box`: top-left,
top-right, bottom-right, bottom-left in page pixels), so warping those corners onto a rectangle
of the template's size turns an upside-down or tilted slip upright. Only images registered for
a slip of the game are ever opened (the URL names a slip id, never a path)."""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

PX_PER_MM = 6
FIELD_NAMES = {"round": "tur", "table": "masa", "score": "puncte", "position": "poz", "word": "depunere"}
DOUBT_BGR = (0, 0, 220)


@lru_cache(maxsize=8)
def _template(template_id: str):
    from scanner.template import load_template

    return load_template(template_id)


def image_path(source: str, roots: Iterable[Path]) -> Path | None:
    """The slip's image on disk: as stored, or relative to one of the store's folders."""
    path = Path(source)
    candidates = [path] if path.is_absolute() else [root / path for root in roots] + [path]
    return next((p for p in candidates if p.is_file()), None)


def _page(path: Path, page: int) -> np.ndarray | None:
    if path.suffix.lower() == ".pdf":
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(path))
        bitmap = pdf[max(page, 1) - 1].render(scale=150 / 72).to_numpy()
        return cv2.cvtColor(bitmap, cv2.COLOR_RGB2BGR if bitmap.shape[2] == 3 else cv2.COLOR_BGRA2BGR)
    if page > 1:
        ok, pages = cv2.imreadmulti(str(path))
        return pages[page - 1] if ok and len(pages) >= page else None
    return cv2.imread(str(path), cv2.IMREAD_COLOR)


def crop(path: Path, reading: dict[str, Any], doubtful: dict[str, list[int] | None]) -> bytes | None:
    """PNG bytes of the upright slip; `doubtful` maps a field (round, table, score, position, word)
    to the box indices to outline (None: every box of the field). None when it cannot be cut."""
    box = reading.get("slip_box")
    image = _page(path, int(reading.get("page") or 1))
    if image is None:
        return None
    if not box:  # a typed reading or a single-slip photo: the image as it is
        ok, png = cv2.imencode(".png", image)
        return png.tobytes() if ok else None
    template = _template(reading.get("template_id") or "duplicat-v1")
    width, height = round(template.width_mm * PX_PER_MM), round(template.height_mm * PX_PER_MM)
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    matrix = cv2.getPerspectiveTransform(np.float32(box), target)
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
