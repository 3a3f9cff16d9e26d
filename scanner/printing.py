"""Printable slip sheets (PDF via reportlab) and the same form as a raster, for synthetic slips.

Boxes and labels are printed in the template's light red so they vanish in the red channel: players
may not write in red (D 3.2.b), so whatever stays dark there is the player's ink. Markers, QR code
and pre-filled text are black.

Labels are sized to be read at arm's length (8 pt, smaller only where the room up to the next
label or the slip's edge is shorter); they never move a box: the boxes are the template's, and the
reader, its calibration and the benchmark are measured on exactly that geometry. Pre-filled slips
come as plain `Prefill` records: the scanner knows nothing of tournaments, so the arbiter reads the
seating from its store and hands the records over (`arbiter.results.prefill`).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scanner.errors import TemplateError
from scanner.template import Field, Template

MM = 72.0 / 25.4  # PDF points per millimetre
A4_MM = (210.0, 297.0)
FONT_PATH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # Debian fonts-dejavu-core
FONT_NAME = "DejaVuSans"
CUT_MARK_MM = 2.0
SLIP_GAP_MM = 4.0  # room between slips for the cutting marks of both
LABEL_PT = 8.0  # box labels, readable at arm's length (they were 5.5 pt)
LABEL_MIN_PT = 6.0  # a label with little room shrinks to this, never further
JOKER_PT = 6.5
HEADER_PT = 6.5  # the pre-filled name line
JOKER_HINT = "↑ joker: bifează căsuța de sub litera pusă cu jokerul"
PT_MM = 25.4 / 72.0  # millimetres per point
CAP_HEIGHT = 0.73  # DejaVu Sans capitals, in ems


@dataclass(frozen=True)
class Prefill:
    """One player's slip for one round, from the seating list."""

    game: str  # in the QR code: an identifier without ';' or '=' (the arbiter's game id)
    round: int
    table: int
    player: str
    title: str = ""  # printed in the header line instead of `game` when given (tournament, game name)

    def qr_text(self) -> str:
        return f"fluturas:v1;game={self.game};round={self.round};table={self.table}"


def aruco_bits(dictionary: str, marker_id: int) -> np.ndarray:
    """Marker as a boolean grid including its black border (True = black)."""
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    n = d.markerSize + 2
    img = cv2.aruco.generateImageMarker(d, marker_id, n)
    return img < 128


def qr_bits(text: str) -> np.ndarray:
    import qrcode

    qr = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    qr.make(fit=True)
    return np.array(qr.get_matrix(), dtype=bool)


def label_font() -> str:
    """The one registration of the label font (it has ș and ț; Helvetica does not), shared by
    every PDF the project prints."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT_NAME not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(FONT_NAME, str(FONT_PATH)))
        except Exception as exc:  # reportlab raises generic errors for missing fonts
            raise TemplateError(f"{FONT_PATH}: font needed for slip labels is missing (fonts-dejavu-core)") from exc
    return FONT_NAME


def _grid(c, bits: np.ndarray, x_mm: float, y_mm: float, size_mm: float, page_h_mm: float) -> None:
    cell = size_mm / bits.shape[0]
    for r, row in enumerate(bits):
        for k, black in enumerate(row):
            if black:
                c.rect((x_mm + k * cell) * MM, (page_h_mm - y_mm - (r + 1) * cell) * MM,
                       cell * MM + 0.05, cell * MM + 0.05, stroke=0, fill=1)


def _label_room(t: Template, f: Field) -> float:
    """Millimetres from the label's start to the next label on its line (or the slip's edge)."""
    x0, y0 = f.boxes[0].x, f.boxes[0].y
    after = [g.boxes[0].x for g in t.fields if g is not f and abs(g.boxes[0].y - y0) < 4 and g.boxes[0].x > x0]
    return min(after, default=t.width_mm) - x0 - 1.0


def _fit(text: str, font: str, room_mm: float, size: float, smallest: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    width_mm = stringWidth(text, font, size) * PT_MM
    return size if width_mm <= room_mm else max(smallest, size * room_mm / width_mm)


def _label(c, t: Template, f: Field, ox: float, y, font: str) -> None:
    """A field's label above its first box; a single tick-box (a `mark`, e.g. VERIFICARE) near the
    slip's edge has no room there, so its label goes under it, ending at the box's right edge."""
    first = f.boxes[0]
    if f.grammar.kind == "mark" and _fit(f.label, font, _label_room(t, f), LABEL_PT, LABEL_MIN_PT) < LABEL_PT:
        c.setFont(font, LABEL_PT)
        right = min(t.width_mm - 1.0, first.x + first.w + 6.0)
        c.drawRightString((ox + right) * MM, y(first.y + first.h + LABEL_PT * PT_MM + 0.6), f.label)
        return
    size = _fit(f.label, font, _label_room(t, f), LABEL_PT, LABEL_MIN_PT)
    if t.qr and t.qr.x < first.x + 20 and first.x < t.qr.x + t.qr.w and t.qr.y < first.y:  # keep off the QR code
        cap_room = first.y - 0.8 - (t.qr.y + t.qr.h) - 0.4
        size = max(LABEL_MIN_PT, min(size, cap_room / (CAP_HEIGHT * PT_MM)))
    c.setFont(font, size)
    c.drawString((ox + first.x) * MM, y(first.y - 0.8), f.label)


def _joker_hint(c, f: Field, ox: float, y, font: str) -> None:
    """One line under the joker tick-boxes says what they are for (besides circle and dot, §2)."""
    left, right = f.ticks[0].x, f.ticks[-1].x + f.ticks[-1].w
    size = _fit(JOKER_HINT, font, right - left, JOKER_PT, 5.0)
    c.setFont(font, size)
    c.drawCentredString((ox + (left + right) / 2) * MM, y(f.ticks[0].y + f.ticks[0].h + size * PT_MM + 0.3), JOKER_HINT)


def _header(c, t: Template, ox: float, y, font: str, text: str) -> None:
    """The pre-filled name line, shrunk (then cut with '…') so it never runs into the QR code."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    hx, hy = t.header
    room = (t.qr.x if t.qr and t.qr.x > hx else t.width_mm) - hx - 1.0
    size = _fit(text, font, room, HEADER_PT, 5.0)
    while len(text) > 4 and stringWidth(text, font, size) * PT_MM > room:
        text = text[:-2] + "…"
    c.setFont(font, size)
    c.drawString((ox + hx) * MM, y(hy), text)


def draw_slip(c, t: Template, ox: float, oy: float, page_h: float, prefill: Prefill | None = None) -> None:
    """Draw one slip with its top-left corner at (ox, oy) mm from the page's top-left."""
    font = label_font()
    red = tuple(v / 255 for v in t.box_rgb)

    def y(v: float) -> float:
        return (page_h - oy - v) * MM

    c.setFillColorRGB(0, 0, 0)
    for k, marker_id in enumerate(t.markers.ids):
        mx, my = t.markers.positions[k]
        _grid(c, aruco_bits(t.markers.dictionary, marker_id), ox + mx, oy + my, t.markers.size_mm, page_h)
    c.setStrokeColorRGB(*red)
    c.setFillColorRGB(*red)
    c.setLineWidth(0.8)
    c.setFont(font, 8)
    c.drawString((ox + 14) * MM, y(7.5), t.title)
    for f in t.fields:
        _label(c, t, f, ox, y, font)
        for b in f.boxes + f.ticks:
            c.rect((ox + b.x) * MM, y(b.y + b.h), b.w * MM, b.h * MM, stroke=1, fill=0)
        if f.ticks:
            _joker_hint(c, f, ox, y, font)
    if prefill is None:
        return
    c.setFillColorRGB(0, 0, 0)
    if t.header:
        _header(c, t, ox, y, font, f"{prefill.player} · masa {prefill.table} · tur {prefill.round} · "
                                   f"{prefill.title or prefill.game}")
    if t.qr:
        _grid(c, qr_bits(prefill.qr_text()), ox + t.qr.x, oy + t.qr.y, t.qr.w, page_h)
    c.setFont(font, 14)
    for f in t.fields:
        if f.prefill:
            text = str(prefill.round if f.prefill == "round" else prefill.table)
            for b, ch in zip(f.boxes, text):
                c.drawCentredString((ox + b.x + b.w / 2) * MM, y(b.y + b.h - 2.0), ch)


def _cut_marks(c, x: float, y: float, w: float, h: float, page_h: float) -> None:
    """Short black ticks outside each corner, so cutting does not touch the markers."""
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    for cx, cy in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        dx = -1 if cx == x else 1
        dy = -1 if cy == y else 1
        c.line(cx * MM, (page_h - cy) * MM, (cx + dx * CUT_MARK_MM) * MM, (page_h - cy) * MM)
        c.line(cx * MM, (page_h - cy) * MM, cx * MM, (page_h - cy - dy * CUT_MARK_MM) * MM)


def layout(t: Template, page_mm: tuple[float, float] = A4_MM) -> list[tuple[float, float]]:
    """Top-left corners of the slips on a page: as many as fit with room for the cutting marks."""
    gap = SLIP_GAP_MM
    cols = int((page_mm[0] - 2 + gap) // (t.width_mm + gap))
    rows = int((page_mm[1] - 2 + gap) // (t.height_mm + gap))
    if cols < 1 or rows < 1:
        raise TemplateError(f"{t.source}: slip {t.width_mm}x{t.height_mm} mm does not fit the page")
    x0 = (page_mm[0] - cols * t.width_mm - (cols - 1) * gap) / 2
    y0 = (page_mm[1] - rows * t.height_mm - (rows - 1) * gap) / 2
    return [(x0 + i * (t.width_mm + gap), y0 + j * (t.height_mm + gap)) for j in range(rows) for i in range(cols)]


def render_sheets(t: Template, out, count: int = 0, prefills: list[Prefill] | None = None) -> int:
    """Write a PDF of A4 sheets to `out` (path or binary file); returns the number of pages."""
    from reportlab.pdfgen import canvas

    slots = layout(t)
    items: list[Prefill | None] = list(prefills) if prefills else [None] * max(count, len(slots))
    c = canvas.Canvas(str(out) if isinstance(out, (str, Path)) else out, pagesize=(A4_MM[0] * MM, A4_MM[1] * MM))
    c.setTitle(t.title)
    pages = 0
    for start in range(0, len(items), len(slots)):
        for (x, yy), item in zip(slots, items[start:start + len(slots)]):
            draw_slip(c, t, x, yy, A4_MM[1], item)
            _cut_marks(c, x, yy, t.width_mm, t.height_mm, A4_MM[1])
        c.showPage()
        pages += 1
    c.save()
    return pages


def _rasterise(pdf_bytes: bytes, px_per_mm: float) -> np.ndarray:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        img = doc[0].render(scale=px_per_mm / MM).to_numpy()
    finally:
        doc.close()
    return np.ascontiguousarray(img[:, :, :3])  # pdfium renders BGR(x) byte order


@lru_cache(maxsize=16)
def _form_image(t: Template, px_per_mm: float) -> np.ndarray:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(t.width_mm * MM, t.height_mm * MM))
    draw_slip(c, t, 0, 0, t.height_mm)
    c.showPage()
    c.save()
    return _rasterise(buf.getvalue(), px_per_mm)


def form_image(t: Template, px_per_mm: float, prefill: Prefill | None = None) -> np.ndarray:
    """The printed (blank or pre-filled) slip as a BGR raster, exactly as the PDF draws it."""
    if prefill is None:
        return _form_image(t, px_per_mm).copy()
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(t.width_mm * MM, t.height_mm * MM))
    draw_slip(c, t, 0, 0, t.height_mm, prefill)
    c.showPage()
    c.save()
    return _rasterise(buf.getvalue(), px_per_mm)
