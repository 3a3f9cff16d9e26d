"""The per-round PDF of slip images for the clubs in youth competitions (D 5.3.8): every filed
slip of the round, sorted by club then table, six to an A4 page, each captioned with table,
name and club. A slip whose image is not on disk gets a framed note instead, and is listed."""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from sqlalchemy import select
from sqlalchemy.orm import Session

from .games import get_round
from .models import Game, Player, Slip

FONT_FILE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # has ș and ț; Helvetica does not
COLUMNS, ROWS, MARGIN, CAPTION = 2, 3, 12 * mm, 6 * mm


def _font() -> str:
    if FONT_FILE.is_file():
        if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONT_FILE)))
        return "DejaVuSans"
    return "Helvetica"


def write_slip_pdf(session: Session, game: Game, round_number: int, path: Path) -> list[str]:
    """Write the PDF; return the sources of slips whose image was missing."""
    rnd = get_round(session, game, round_number)
    seats = {p.table_no: p for p in session.scalars(select(Player).where(Player.game_id == game.id))}
    slips = list(session.scalars(select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed",
                                                    Slip.table_no.is_not(None))))
    slips.sort(key=lambda s: ((seats[s.table_no].club or "") if s.table_no in seats else "", s.table_no))
    font = _font()
    canvas = Canvas(str(path), pagesize=A4)
    canvas.setTitle(f"{game.name} — turul {round_number}")
    width, height = A4
    cell_w = (width - 2 * MARGIN) / COLUMNS
    cell_h = (height - 2 * MARGIN - 10 * mm) / ROWS
    missing: list[str] = []
    per_page = COLUMNS * ROWS
    for i, slip in enumerate(slips):
        if i % per_page == 0:
            if i:
                canvas.showPage()
            canvas.setFont(font, 12)
            canvas.drawString(MARGIN, height - MARGIN, f"{game.name} — turul {round_number} — fluturași")
        slot = i % per_page
        x = MARGIN + (slot % COLUMNS) * cell_w
        y = height - MARGIN - 10 * mm - (slot // COLUMNS + 1) * cell_h
        player = seats.get(slip.table_no)
        caption = f"Masa {slip.table_no} — {player.name if player else '?'}" + (f" ({player.club})" if player and player.club else "")
        canvas.setFont(font, 9)
        canvas.drawString(x + 2 * mm, y + cell_h - CAPTION + 1.5 * mm, caption)
        box_w, box_h = cell_w - 4 * mm, cell_h - CAPTION - 3 * mm
        image = Path(slip.source)
        if image.is_file():
            canvas.drawImage(ImageReader(str(image)), x + 2 * mm, y + 2 * mm, box_w, box_h,
                             preserveAspectRatio=True, anchor="c")
        else:
            missing.append(slip.source)
            canvas.rect(x + 2 * mm, y + 2 * mm, box_w, box_h)
            canvas.drawString(x + 4 * mm, y + box_h / 2, f"imaginea lipsește: {slip.source}"[:70])
    if not slips:
        canvas.setFont(font, 12)
        canvas.drawString(MARGIN, height - MARGIN, f"{game.name} — turul {round_number}: niciun fluturaș")
    canvas.save()
    return missing
