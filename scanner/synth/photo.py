"""Phone photos of cut slips lying on a table: what players' slips look like when an arbiter photographs
them instead of scanning them.

The slips (from `synth.slip.draw_slip`, at their own px/mm) are laid on a table plane at random
rotations with gaps between them, and a pinhole camera looks at the table from 10-30° off vertical:
the far side of the photo is smaller than the near one. The table has a texture (wood or cloth), the
light falls off across the photo and a soft shadow (the phone, a hand) darkens part of it; then focus
blur, sensor noise and JPEG. `PhotoStyle.downscale_share` of the photos is sent through a messaging
app: resized to about 1600 px on the long side and compressed again.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SLIP_PX_PER_MM = 8.0  # resolution of the slips drawn by synth.slip


@dataclass(frozen=True)
class PhotoStyle:
    """The phone and the person holding it."""

    long_side: int = 4000  # the phone's photo, 4:3
    tilt_deg: tuple[float, float] = (10.0, 30.0)  # camera axis against the table's normal
    marker_px: tuple[float, float] = (24.0, 90.0)  # marker side at the centre of the photo, full size
    sent_marker_px: tuple[float, float] = (60.0, 110.0)  # ... of photos then downscaled by a messaging app
    downscale_share: float = 1 / 3
    sent_long_side: tuple[int, int] = (1500, 1700)
    gap_mm: tuple[float, float] = (4.0, 30.0)  # between neighbouring slips on the table
    jpeg_quality: tuple[int, int] = (80, 95)
    sent_jpeg_quality: tuple[int, int] = (65, 82)
    focal: float = 0.78  # focal length as a share of the long side (a phone's ~26 mm equivalent lens)


@dataclass(frozen=True)
class Photo:
    """The photo and, for each slip given, its outline (TL, TR, BR, BL of the slip) in photo pixels."""

    image: np.ndarray
    outlines: list[np.ndarray]
    downscaled: bool
    marker_px: float  # intended marker side at the centre (after any downscaling)


def _table(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A table top at low resolution (1 px/mm): wood grain or a cloth, in BGR float."""
    base = np.array([rng.uniform(40, 150), rng.uniform(60, 160), rng.uniform(80, 190)], np.float32)
    if rng.random() < 0.5:  # wood: long stripes that wander
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        wander = cv2.resize(rng.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32), (w, h))
        grain = np.sin(yy * rng.uniform(0.15, 0.5) + 6 * wander) * 0.5 + 0.5
        tex = 0.8 + 0.25 * grain + 0.05 * rng.normal(0, 1, (h, w)).astype(np.float32)
    else:  # cloth or laminate: fine noise over a blotchy base
        blotch = cv2.resize(rng.normal(0, 1, (max(2, h // 25), max(2, w // 25))).astype(np.float32), (w, h))
        tex = 0.9 + 0.06 * blotch + 0.08 * rng.normal(0, 1, (h, w)).astype(np.float32)
    return tex[:, :, None] * base[None, None, :]


def _layout(sizes: list[tuple[float, float]], rng: np.random.Generator, gap: tuple[float, float]
            ) -> list[np.ndarray]:
    """Slip -> table (mm) affine maps: two columns, each slip turned at any angle, not overlapping."""
    cols = 2 if len(sizes) > 1 else 1
    maps = []
    cell = max(np.hypot(w, h) for w, h in sizes)  # room for a slip turned any way
    for k, (w, h) in enumerate(sizes):
        angle = rng.uniform(0, 2 * np.pi)
        g = rng.uniform(*gap)
        cx = (k % cols) * (cell * 0.85 + g) + rng.uniform(-3, 3)
        cy = (k // cols) * (cell * 0.75 + g) + rng.uniform(-3, 3)
        c, s = np.cos(angle), np.sin(angle)
        rot = np.array([[c, -s], [s, c]])
        maps.append(np.hstack([rot, (np.array([cx, cy]) - rot @ np.array([w / 2, h / 2]))[:, None]]))
    return _spread(maps, sizes, gap[0])


def _spread(maps: list[np.ndarray], sizes: list[tuple[float, float]], gap: float) -> list[np.ndarray]:
    """Push turned slips apart until no two overlap (outlines at least `gap` mm apart)."""
    centre = np.mean([m[:, 2] + m[:, :2] @ np.array([w / 2, h / 2]) for m, (w, h) in zip(maps, sizes)], axis=0)
    for _ in range(60):
        moved = False
        for i in range(len(maps)):
            for j in range(i + 1, len(maps)):
                if _overlap(maps[i], sizes[i], maps[j], sizes[j], gap):
                    ci = maps[i][:, 2] + maps[i][:, :2] @ np.array(sizes[i]) / 2
                    cj = maps[j][:, 2] + maps[j][:, :2] @ np.array(sizes[j]) / 2
                    d = (cj - ci) / max(1e-6, float(np.linalg.norm(cj - ci)))
                    maps[i][:, 2] -= 3 * d
                    maps[j][:, 2] += 3 * d
                    moved = True
        if not moved:
            break
    for m in maps:
        m[:, 2] -= centre
    return maps


def _outline_mm(m: np.ndarray, size: tuple[float, float]) -> np.ndarray:
    w, h = size
    return (m[:, :2] @ np.array([[0, w, w, 0], [0, 0, h, h]], np.float64)).T + m[:, 2]


def _overlap(mi, si, mj, sj, gap: float) -> bool:
    a, b = _outline_mm(mi, si).astype(np.float32), _outline_mm(mj, sj).astype(np.float32)
    if cv2.intersectConvexConvex(a, b)[0] > 0:
        return True
    return min(abs(cv2.pointPolygonTest(b.reshape(-1, 1, 2), tuple(map(float, p)), True)) for p in a) < gap and \
        min(abs(cv2.pointPolygonTest(a.reshape(-1, 1, 2), tuple(map(float, p)), True)) for p in b) < gap


def _camera(tilt: float, azimuth: float, roll: float, focal: float, distance: float, w: int, h: int) -> np.ndarray:
    """Table (mm, centred) -> photo pixels for a pinhole camera `distance` mm above the table's centre,
    its axis `tilt` radians off the table's normal towards `azimuth`."""
    ca, sa = np.cos(azimuth), np.sin(azimuth)
    rz = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1]])
    ct, st = np.cos(tilt), np.sin(tilt)
    rx = np.array([[1, 0, 0], [0, ct, -st], [0, st, ct]])
    cr, sr = np.cos(roll), np.sin(roll)
    rroll = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]])
    r = rroll @ rx @ rz  # camera x, y along the table's x, y when not tilted: no mirror
    k = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
    return k @ np.column_stack([r[:, 0], r[:, 1], [0, 0, distance]])


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float64(pts).reshape(-1, 1, 2), h).reshape(-1, 2)


def _light(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a fall-off across the photo, a soft shadow, a slight colour cast (BGR gains)."""
    small = (max(2, w // 16), max(2, h // 16))
    gy, gx = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
    theta = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(theta) * gx / small[0] + np.sin(theta) * gy / small[1])
    ramp = (ramp - ramp.min()) / max(1e-6, float(np.ptp(ramp)))
    light = 1.0 - rng.uniform(0.15, 0.45) * ramp
    shadow = np.zeros((small[1], small[0]), np.float32)
    centre = (int(rng.uniform(0, small[0])), int(rng.uniform(0, small[1])))
    axes = (int(rng.uniform(0.15, 0.45) * small[0]), int(rng.uniform(0.15, 0.45) * small[1]))
    cv2.ellipse(shadow, centre, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(0.05, 0.15) * small[0])
    light *= 1.0 - rng.uniform(0.15, 0.4) * shadow
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    cast = np.array([rng.uniform(0.85, 1.0), rng.uniform(0.93, 1.0), rng.uniform(0.95, 1.05)], np.float32)
    return light[:, :, None] * cast[None, None, :]


def photograph(slips: list[np.ndarray], rng: np.random.Generator, style: PhotoStyle | None = None,
               slip_px_per_mm: float = SLIP_PX_PER_MM) -> Photo:
    """A phone photo of the slips lying on a table; each slip's outline in the photo comes with it."""
    style = style or PhotoStyle()
    sizes = [(im.shape[1] / slip_px_per_mm, im.shape[0] / slip_px_per_mm) for im in slips]
    places = _layout(sizes, rng, style.gap_mm)
    outlines_mm = [_outline_mm(m, sz) for m, sz in zip(places, sizes)]
    portrait = rng.random() < 0.5
    w, h = (style.long_side * 3 // 4, style.long_side) if portrait else (style.long_side, style.long_side * 3 // 4)
    sent = rng.random() < style.downscale_share
    marker_px = rng.uniform(*(style.sent_marker_px if sent else style.marker_px))
    focal = style.focal * style.long_side
    tilt, azimuth, roll = np.radians(rng.uniform(*style.tilt_deg)), rng.uniform(0, 2 * np.pi), rng.uniform(-0.3, 0.3)
    ppm = marker_px / 8.0  # templates print 8 mm markers: pixels per mm at the centre of the photo
    everything = np.vstack(outlines_mm)
    for _ in range(30):  # step back until every slip is in the frame, with a margin
        cam = _camera(tilt, azimuth, roll, focal, focal / ppm, w, h)
        px = _apply(cam, everything)
        if px[:, 0].min() > 0.04 * w and px[:, 1].min() > 0.04 * h and px[:, 0].max() < 0.96 * w and px[:, 1].max() < 0.96 * h:
            break
        ppm *= 0.92
    marker_px = ppm * 8.0
    lo, hi = everything.min(axis=0) - 400, everything.max(axis=0) + 400  # the table around the slips, mm
    tw, th = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    to_table = np.array([[1, 0, lo[0]], [0, 1, lo[1]], [0, 0, 1]], np.float64)  # table image px (1 mm) -> mm
    image = cv2.warpPerspective(_table(tw, th, rng), cam @ to_table, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    outlines = []
    for slip, m in zip(slips, places):
        to_mm = np.vstack([m, [0, 0, 1]]) @ np.diag([1 / slip_px_per_mm, 1 / slip_px_per_mm, 1.0])
        hom = cam @ to_mm  # slip pixels -> photo pixels
        corners = _apply(hom, np.array([[0, 0], [slip.shape[1], 0], [slip.shape[1], slip.shape[0]], [0, slip.shape[0]]]))
        outlines.append(corners)
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ hom
        size = (x1 - x0, y1 - y0)
        scale = ppm / slip_px_per_mm
        src = slip.astype(np.float32)
        if scale < 0.7:  # the camera integrates over each pixel: no aliasing of the thin lines
            src = cv2.GaussianBlur(src, (0, 0), 0.45 / scale)
        warped = cv2.warpPerspective(src, shift, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones(slip.shape[:2], np.float32), shift, size, flags=cv2.INTER_LINEAR)[:, :, None]
        region = image[y0:y1, x0:x1]
        image[y0:y1, x0:x1] = region * (1 - mask) + warped * mask
    image *= _light(w, h, rng)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.6, 1.4))
    image += rng.normal(0, rng.uniform(1.5, 4.0), image.shape).astype(np.float32)
    out = _jpeg(np.clip(image, 0, 255).astype(np.uint8), int(rng.integers(*style.jpeg_quality)))
    if sent:
        long_side = int(rng.integers(*style.sent_long_side))
        f = long_side / max(w, h)
        out = _jpeg(cv2.resize(out, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), int(rng.integers(*style.sent_jpeg_quality)))
        outlines = [o * f for o in outlines]
        marker_px *= f
    return Photo(out, outlines, sent, float(marker_px))


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
