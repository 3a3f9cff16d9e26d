"""The slip album for the clubs in youth competitions (D 5.3.8): for every player, sorted by club
then table, one page per round with that player's own slip — cut out of the scanned page along the
outline the scanner found (`slip_box`, TL TR BR BL in page pixels) and warped upright to the form's
size, so a slip filed upside down or photographed at an angle reads like the paper. A round with
no slip, or a slip whose scan is not on disk, gets a page that says so (and is listed), so the
album always has players × rounds pages."""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from reportlab.lib.pagesizes import A5, landscape
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from sqlalchemy import select
from sqlalchemy.orm import Session

from scanner.errors import ImageReadError
from scanner.printing import label_font
from scanner.source import read_pages
from scanner.template import builtin_templates

from ..store.games import get_round, players, rounds
from ..store.models import Game, Player, Round, Slip
from . import sheetkit as kit

PAGE = landscape(A5)
MARGIN, CAPTION = 10 * mm, 16 * mm
JPEG_QUALITY = 85
PX_PER_MM = 8.0  # the warped slip: 100 × 70 mm → 800 × 560 pixels, sharp when printed


@dataclass
class Album:
    path: Path
    pages: int = 0
    missing: list[str] = field(default_factory=list)  # sources of scans not on disk


@lru_cache(maxsize=8)
def _page_image(source: str, number: int) -> np.ndarray | None:
    for page in read_pages(Path(source)):
        if page.number == number:
            return page.image
    return None


def _size_mm(template_id: str | None) -> tuple[float, float]:
    for t in builtin_templates():
        if t.id == template_id:
            return t.width_mm, t.height_mm
    return 100.0, 70.0


def upright_slip(reading: dict[str, Any]) -> np.ndarray | None:
    """The slip of a reading record, warped upright from its page (BGR), or None when the
    record has no outline or its scan cannot be read."""
    box = reading.get("slip_box")
    source = reading.get("source")
    if not box or not source or not Path(source).is_file():
        return None
    try:
        page = _page_image(str(source), int(reading.get("page") or 1))
    except (ImageReadError, cv2.error, ValueError):  # an unreadable scan gets a note, not a crash of the album
        return None
    if page is None:
        return None
    w_mm, h_mm = _size_mm(reading.get("template_id"))
    w, h = int(w_mm * PX_PER_MM), int(h_mm * PX_PER_MM)
    corners = np.array(box, dtype=np.float32).reshape(4, 2)
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    return cv2.warpPerspective(page, cv2.getPerspectiveTransform(corners, target), (w, h),
                               flags=cv2.INTER_AREA, borderValue=(255, 255, 255))


def _jpeg(image: np.ndarray) -> ImageReader:
    """JPEG, embedded as is: a scan's noise makes PNG ten times larger (an album of 60 players
    × 15 rounds must stay a file one can e-mail to a club)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return ImageReader(io.BytesIO(data.tobytes()))


def _filed(session: Session, game: Game) -> dict[tuple[int, int], Slip]:
    numbers = {r.id: r.number for r in rounds(session, game)}
    found = session.scalars(select(Slip).where(Slip.game_id == game.id, Slip.state == "filed",
                                               Slip.table_no.is_not(None)))
    return {(numbers[s.round_id], s.table_no): s for s in found if s.round_id in numbers}


def _page(canvas: Canvas, font: str, game: Game, player: Player, rnd: Round, slip: Slip | None,
          album: Album) -> None:
    width, height = PAGE
    canvas.setFont(font, 14)
    club = f" — {player.club}" if player.club else ""
    canvas.drawString(MARGIN, height - MARGIN - 4 * mm, f"Masa {player.table_no} — {player.name}{club}")
    canvas.setFont(font, 11)
    canvas.drawString(MARGIN, height - MARGIN - 10 * mm, f"{game.name} — turul {rnd.number}")
    box_w, box_h = width - 2 * MARGIN, height - 2 * MARGIN - CAPTION
    image = upright_slip(slip.reading or {}) if slip is not None else None
    if image is not None:
        canvas.drawImage(_jpeg(image), MARGIN, MARGIN, box_w, box_h, preserveAspectRatio=True, anchor="c")
        return
    canvas.rect(MARGIN, MARGIN, box_w, box_h)
    if slip is None:
        note = f"niciun fluturaș depus în turul {rnd.number}"
    elif not Path(slip.source).is_file():
        note = f"imaginea fluturașului lipsește: {slip.source}"
        album.missing.append(slip.source)
    else:  # typed in, or read without an outline: nothing to cut out
        note = f"fluturaș fără contur scanat: {slip.source}"
    canvas.drawString(MARGIN + 4 * mm, MARGIN + box_h / 2, note[:80])


def write_slip_album(session: Session, game: Game, path: Path, round_number: int | None = None) -> Album:
    """The album of the game (or of one round): players × rounds pages, written whole or not at all."""
    chosen = [get_round(session, game, round_number)] if round_number is not None else rounds(session, game)
    seated = sorted(players(session, game), key=lambda p: (p.club or "", p.table_no))
    filed = _filed(session, game)
    album = Album(Path(path))
    font = label_font()

    def write(tmp: Path) -> None:
        canvas = Canvas(str(tmp), pagesize=PAGE)
        canvas.setTitle(f"{game.name} — fluturași" + (f", turul {round_number}" if round_number else ""))
        for player in seated:
            for rnd in chosen:
                _page(canvas, font, game, player, rnd, filed.get((rnd.number, player.table_no)), album)
                canvas.showPage()
                album.pages += 1
        if not album.pages:
            canvas.setFont(font, 12)
            canvas.drawString(MARGIN, PAGE[1] - MARGIN, f"{game.name}: niciun jucător sau niciun tur")
            canvas.showPage()
        canvas.save()

    try:
        kit.replace_when_done(album.path, write)
    finally:
        _page_image.cache_clear()  # scans are large; the next album reads them afresh
    return album
