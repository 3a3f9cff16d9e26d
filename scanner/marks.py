"""Joker marks on a written letter (D 5.3.5): a circle around it, a dot at its lower right, or a
ticked box under it. Circles and dots are erased before the letter is classified: a ring left in
place is read as part of the letter (U as G, I as O) and its arcs as letters in the next boxes.

A circle is found however it is drawn: around the whole box, around the letter inside the box or
across the box lines, not quite closed, off-centre. It is searched as a ring around the letter's
centre: along each of `DIRECTIONS` rays the ink runs are listed, an ellipse is fitted to the run
nearest to it in each direction (starting from a few guesses: the box, the letter, a ring outside
the letter) and refitted on its own runs. It is a circle when it covers most directions, fits
them closely and holds a letter inside that does not touch it much; an O or a Q holds nothing.
The ring judge (`ringjudge`) weighs the best ring fitted again, taken by these rules or not: it finds
the circles they turn down (a letter touching its ring, a ring drawn wide around a large letter).
A dot is a blob at the letter's lower right, apart or touching: two shape rules find it, and the dot
judge (`dotjudge`, learned from drawn slips) tells it from the letter's own thick places.
Every kind gets a confidence in 0..1; 0.5 is the decision line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scanner import dotjudge, ringjudge
from scanner.glyph import INK_LEVEL, ink_map

DIRECTIONS = 64  # rays of the polar search
CIRCLE_COVER = 0.75  # share of directions a ring must cover, at confidence 0.5 (an open ring leaves a gap)
CIRCLE_FIT = 0.065  # median distance of the runs to the fitted ellipse, relative to its radius
LETTER_EXTENT = 0.35  # height of the ink inside the ring, relative to the ring's height
LINED = 0.5  # share of the ink inside's height along which it may meet the erased ring
LINED_SURE = 0.8  # a ring this clear is taken even so: a letter drawn tight inside it
JOINED_SURE = 0.7  # confidence a ring needs when the letter inside touches it
LETTER_MM = 2.6  # least height of the ink inside the ring to count as a letter (the tail of a Q is shorter)
LETTER_AREA_MM2 = 1.0  # least ink inside the ring to count as a letter
LETTER_OFFSET = 0.4  # farthest the letter's centre may lie from the ring's, relative to its radius
DOT_RATIO = 1.75  # a dot's radius against the half-width of the letter's thickest strokes, at confidence 0.5
DOT_SURE = 2.2  # a blob this much wider than the strokes is a dot wherever strokes leave it
DOT_OUTSIDE = 0.2  # share of a dot touching the letter that lies outside the letter's outline
DOT_CORE = 2.5  # largest core of a dot, against the core of a perfect disk
PEN_DOT_MM = (0.6, 1.0)  # a ballpoint dot's diameter
PEN_REACH = 0.25  # how far right of the box a dot is looked for (mm)
TICK_INK = 0.06  # inked share of a tick-box's centre that counts as ticked
DECIDE = 0.5
RULES_RADIUS_MM = (1.2, 6.5)  # the half-axes of a ring the shape rules take
RADIUS_MM = (1.2, 8.5)  # of a ring shown to the ring judge: a ring drawn wide around a large letter
# How sure the ring judge must be of a ring the rules turned down: on the judge's calibration check
# the circles among those rings scored 0.988 or more but three, the plain letters 0.74 at most; a heavy
# B of a calibration hand, its loops around its strokes, 0.93
OVERRULE_RULES = 0.98


@dataclass(frozen=True)
class MarkResult:
    kind: str | None  # "circle" | "dot" | None
    cleaned: np.ndarray  # grey crop with the mark erased (paper where it was)
    scores: dict[str, float] = field(default_factory=dict)  # confidence of each kind tested
    ring: RingShape | None = None  # the best ring fitted around the letter, taken or not


@dataclass(frozen=True)
class RingShape:
    """What the shape rules measured of a ring fitted around a letter, kept whether they took it or
    not: the ring judge (`ringjudge`) weighs the same ring again from its ink."""

    ellipse: tuple  # cv2 ellipse ((cx, cy), (w, h), angle), crop pixels
    erase: np.ndarray  # bool mask of the ring's ink in the crop
    score: float  # the rules' score of its cover and closeness (`_ring_score`)
    cover: float
    closeness: float  # median distance of its runs to the ellipse, relative to the radius
    extent: float  # height of the ink inside, relative to the ring's
    touching: float  # share of the ink inside that meets the ring
    holds_letter: bool  # the rules' verdict: a letter inside, not a letter's own bowl


@dataclass(frozen=True)
class Ring:
    score: float
    erase: np.ndarray | None  # bool mask of the ring's ink in the crop; None when no ring was found
    shape: RingShape | None = None  # the best ring fitted, taken or not; None when none fitted


def _runs(polar: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink runs along every ray of a polar mask: (direction, first radius, radius after the last)."""
    d = np.diff(np.pad(polar, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    rows, starts = np.nonzero(d == 1)
    _, ends = np.nonzero(d == -1)
    return rows, starts.astype(np.float32), ends.astype(np.float32)


def _ray_hits(p0: np.ndarray, ellipse, units: np.ndarray) -> np.ndarray | None:
    """Distance from p0 along each unit vector to the ellipse; None when p0 is not inside it."""
    (cx, cy), (w, h), angle = ellipse
    a, b = w / 2, h / 2
    if a < 2 or b < 2:
        return None
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    rot = np.array([[c, s], [-s, c]])
    q = rot @ (p0 - np.array([cx, cy]))
    v = units @ rot.T
    qa = np.array([1 / a ** 2, 1 / b ** 2])
    A = (v ** 2) @ qa
    B = 2 * (v * q) @ qa
    C = float(q ** 2 @ qa) - 1
    if C >= 0:
        return None
    return (-B + np.sqrt(B * B - 4 * A * C)) / (2 * A)


def _to_border(p0: np.ndarray, units: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Distance from p0 along each unit vector to the edge of an image of `shape`."""
    far = np.array([shape[1] - 1, shape[0] - 1], np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(units > 0, (far - p0) / units, np.where(units < 0, -p0 / units, np.inf))
    return t.min(axis=1)


def find_ring(ink: np.ndarray, centre: tuple[float, float], guesses: list, s: float) -> Ring:
    """A ring around `centre` in a crop's ink mask; `guesses` are cv2 ellipses to start from."""
    radius = int(np.hypot(*ink.shape))
    polar = cv2.warpPolar(ink.astype(np.uint8), (radius, DIRECTIONS), centre, radius,
                          cv2.INTER_NEAREST | cv2.WARP_POLAR_LINEAR)
    theta = np.arange(DIRECTIONS) * 2 * np.pi / DIRECTIONS
    units = np.stack([np.cos(theta), np.sin(theta)], axis=1)
    p0 = np.array(centre, np.float64)
    # samples beyond the crop's edge are undefined: blank them
    polar[np.arange(radius)[None, :] >= _to_border(p0, units, ink.shape)[:, None] - 1] = 0
    rows, r_in, r_out = _runs(polar > 0)
    keep = r_out > 0.8 * s  # the letter's centre is no ring
    rows, r_in, r_out = rows[keep], r_in[keep], r_out[keep]
    if len(rows) < 5:
        return Ring(0.0, None)
    length = r_out - r_in
    pen = float(np.sort(length)[len(length) // 4])  # the median of the thinner half: a pen line
    # where the ring crosses or touches a letter the run holds both: the ring may be at either end of it
    long = length > pen + 3
    rows = np.concatenate([rows, rows[long], rows[long]])
    mid = np.concatenate([(r_in + r_out) / 2, r_in[long] + pen / 2, r_out[long] - pen / 2])

    def select(ellipse, tol: float) -> tuple[np.ndarray, np.ndarray] | None:
        """The run nearest to the ellipse in each direction, within tol of its radius."""
        hits = _ray_hits(p0, ellipse, units)
        if hits is None:
            return None
        dist = np.abs(mid - hits[rows])
        order = np.lexsort((dist, rows))
        order = order[dist[order] <= np.maximum(2.5, tol * hits[rows[order]])]
        _, first = np.unique(rows[order], return_index=True)
        return (order[first], hits) if len(first) >= 6 else None

    best = Ring(0.0, None)
    for ellipse in guesses:
        picked = None
        for tol in (0.25, 0.15, 0.12):
            picked = select(ellipse, tol)
            if picked is None or len(picked[0]) < 0.5 * DIRECTIONS:  # nothing like a ring near this guess
                picked = None
                break
            ellipse = cv2.fitEllipse((p0 + units[rows[picked[0]]] * mid[picked[0], None]).astype(np.float32))
        picked = select(ellipse, 0.12) if picked is not None else None
        if picked is not None:
            ring = _judge(ink, p0, ellipse, rows[picked[0]], mid[picked[0]], picked[1], pen, s)
            if ring.score > best.score:
                best = ring
            if best.score >= 0.8:
                break
    return best


def _judge(ink: np.ndarray, p0: np.ndarray, ellipse, dirs: np.ndarray, r: np.ndarray, hits: np.ndarray,
           pen: float, s: float) -> Ring:
    """Score a fitted ring (its runs: direction and radius of the pen line) and find its ink."""
    cover = len(dirs) / DIRECTIONS
    fit = float(np.median(np.abs(r - hits[dirs]) / hits[dirs]))
    (_, _), (w, h), _ = ellipse
    score = _ring_score(cover, fit)
    if score <= 0.1 or not (RADIUS_MM[0] * s <= min(w, h) / 2 and max(w, h) / 2 <= RADIUS_MM[1] * s):
        return Ring(min(score, 0.1), None)
    sized = RULES_RADIUS_MM[0] * s <= min(w, h) / 2 and max(w, h) / 2 <= RULES_RADIUS_MM[1] * s
    # the ring's ink: pixels near the pen line, its radius interpolated between the directions found
    # (across gaps of at most 3 directions: an open ring's gap is left alone)
    ys, xs = np.nonzero(ink)
    ang = np.mod(np.arctan2(ys - p0[1], xs - p0[0]), 2 * np.pi) / (2 * np.pi) * DIRECTIONS
    rad = np.hypot(xs - p0[0], ys - p0[1])
    order = np.argsort(dirs)
    d, rr = dirs[order].astype(np.float64), r[order]
    d_ext = np.concatenate([d - DIRECTIONS, d, d + DIRECTIONS])
    r_ext = np.concatenate([rr, rr, rr])
    curve = np.interp(ang, d_ext, r_ext)
    nxt = np.searchsorted(d_ext, ang)
    gap = d_ext[np.clip(nxt, 0, len(d_ext) - 1)] - d_ext[np.clip(nxt - 1, 0, len(d_ext) - 1)]
    on = (np.abs(rad - curve) <= pen / 2 + 1.5) & (gap <= 4)
    erase = np.zeros_like(ink)
    erase[ys[on], xs[on]] = True
    letter = _inside(ink & ~erase, ellipse, pen)
    near = cv2.dilate(erase.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    apart = letter & ~near
    rows_apart = np.nonzero(apart.any(axis=1))[0]
    height = rows_apart.max() - rows_apart.min() + 1 if len(rows_apart) else 0
    extent = height / max(w, h)
    contact = letter & near
    touching = float(contact.sum()) / max(1, int(letter.sum()))
    holds_letter = (extent >= LETTER_EXTENT and height >= LETTER_MM * s and apart.sum() >= LETTER_AREA_MM2 * s * s and touching <= 0.3
                    and _centred(apart, ellipse) and not _spans(letter, contact, ellipse))
    if holds_letter and score < LINED_SURE and _lines_the_ring(ink & ~erase, erase, apart):
        holds_letter = False
    if holds_letter and score < JOINED_SURE:
        # the letter inside is joined to the loop: a ring drawn touching it, or a letter's own bowl with
        # a stroke inside (the curled tail of a Q); only a clearly drawn ring is taken
        n, pieces, stats, _ = cv2.connectedComponentsWithStats(apart.astype(np.uint8), connectivity=8)
        main = pieces == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))  # the letter, not a neighbour's stroke
        labels = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)[1]
        holds_letter = not np.intersect1d(labels[main], labels[erase]).size
    shape = RingShape(ellipse, erase, score, cover, fit, float(extent), touching, bool(holds_letter and sized))
    if not sized:
        return Ring(min(score, 0.1), None, shape)
    if not holds_letter:
        return Ring(0.25 * score, None, shape)
    return Ring(score, erase if score > DECIDE else None, shape)


def _lines_the_ring(rest: np.ndarray, erase: np.ndarray, apart: np.ndarray) -> bool:
    """The ink left inside runs along the erased ring for most of its height: the inner edge of a
    stroke wider than the ring's pen line (the heavy stem of a U whose outline was taken for a ring),
    not a letter a ring was drawn around, which meets its ring at a few places if at all."""
    n, pieces, stats, _ = cv2.connectedComponentsWithStats(apart.astype(np.uint8), connectivity=8)
    if n <= 1:
        return False
    main = pieces == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    labels = cv2.connectedComponents(rest.astype(np.uint8), connectivity=8)[1]
    ids = np.unique(labels[main])
    piece = np.isin(labels, ids[ids > 0])
    edge = piece & cv2.dilate(erase.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    rows = np.count_nonzero(piece.any(axis=1))
    return bool(rows) and np.count_nonzero(edge.any(axis=1)) >= LINED * rows


def _centred(apart: np.ndarray, ellipse) -> bool:
    """The ink inside lies around the loop's centre, as a letter in a ring does (a ring drawn off-centre
    moves it by a fraction of the radius), not in one corner of it like the tail of a Q."""
    ys, xs = np.nonzero(apart)
    if not len(xs):
        return False
    (cx, cy), (w, h), angle = ellipse
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    dx, dy = xs.mean() - cx, ys.mean() - cy
    return bool(np.hypot((c * dx + s * dy) / (w / 2), (-s * dx + c * dy) / (h / 2)) <= LETTER_OFFSET)


def _spans(letter: np.ndarray, contact: np.ndarray, ellipse) -> bool:
    """The largest piece inside the loop meets it on opposite sides: a stroke of the letter itself (the
    bar of a slashed O), not a letter inside a ring, which touches a ring drawn off-centre on one side."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(letter.astype(np.uint8), connectivity=8)
    if n <= 1 or not contact.any():
        return False
    main = labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    m, parts, _, centres = cv2.connectedComponentsWithStats((contact & main).astype(np.uint8), connectivity=8)
    if m <= 2:
        return False
    (cx, cy), _, _ = ellipse
    angles = np.arctan2(centres[1:, 1] - cy, centres[1:, 0] - cx)
    gaps = np.abs(np.angle(np.exp(1j * (angles[:, None] - angles[None, :]))))
    return bool(gaps.max() > np.radians(120))


def _ring_score(cover: float, fit: float) -> float:
    """0.5 where coverage or fit is at its limit; 1 for a closed, well-fitted ring."""
    c = (cover - CIRCLE_COVER) / (1 - CIRCLE_COVER)
    f = (CIRCLE_FIT - fit) / CIRCLE_FIT
    return float(np.clip(0.5 + 0.5 * min(c, f), 0, 1))


def _inside(mask: np.ndarray, ellipse, pen: float) -> np.ndarray:
    """Pixels of `mask` well inside the ellipse (farther than a pen's width from its line)."""
    (cx, cy), (w, h), angle = ellipse
    inner = np.zeros(mask.shape, np.uint8)
    axes = (max(1, int(w / 2 - pen - 2)), max(1, int(h / 2 - pen - 2)))
    cv2.ellipse(inner, (int(round(cx)), int(round(cy))), axes, angle, 0, 360, 1, -1)
    return mask & inner.astype(bool)


def _arcs_apart(around: np.ndarray, starts: np.ndarray) -> float:
    """Angle between the middles of two ink arcs on a circle sampled at len(around) points."""
    n = len(around)
    middles = []
    for st in starts:
        k = 0
        while k < n and around[(st + k) % n]:
            k += 1
        middles.append((st + (k - 1) / 2) * 2 * np.pi / n)
    d = abs(middles[0] - middles[1]) % (2 * np.pi)
    return float(min(d, 2 * np.pi - d))


@dataclass(frozen=True)
class DotEvidence:
    """What the shape rules found at a letter's lower right: their scores, the candidate's ink (crop mask;
    None when there is none) and the dot judge's view of the box."""

    blob: float
    pen: float
    candidate: np.ndarray | None
    view: np.ndarray | None  # dotjudge.features; None without the ink's darkness

    @property
    def rule_score(self) -> float:
        return max(self.blob, self.pen)


def dot_evidence(ink: np.ndarray, box: tuple[float, float, float, float], s: float,
                 avoid: np.ndarray | None = None, level: np.ndarray | None = None) -> DotEvidence | None:
    """The shape rules' findings at the letter's lower right; None when no ink lies there.

    `avoid` marks where a ring was erased: what is left of a ring is no dot. `level` is the crop's ink
    darkness, which the dot judge looks at."""
    bx, by, bw, bh = box
    x0, y0 = int(bx + 0.45 * bw), int(by + 0.5 * bh)
    x1, y1 = int(bx + bw + 0.25 * s), int(by + bh + 0.5 * s)
    if avoid is not None:
        keep = ~cv2.dilate(avoid.astype(np.uint8), np.ones((int(s) | 1, int(s) | 1), np.uint8)).astype(bool)
        ink = ink & keep
        level = level * keep if level is not None else None
    if not ink[y0:y1, x0:x1].any():
        return None
    u8 = ink.astype(np.uint8)
    dt = cv2.distanceTransform(u8, cv2.DIST_L2, 5)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(u8, connectivity=8)
    pen = _pen_dot(dt, n, labels, stats, box, s)  # a ballpoint dot, barely wider than the strokes
    blob = _blob_dot(ink, u8, dt, n, labels, stats, box, s)  # a pressed blob, clearly wider
    candidate = pen[1] if pen[0] > blob[0] else blob[1]
    view = dotjudge.features(level, box, s, blob[0], pen[0]) if level is not None else None
    return DotEvidence(blob[0], pen[0], candidate, view)


def find_dot(ink: np.ndarray, box: tuple[float, float, float, float], s: float,
             avoid: np.ndarray | None = None, level: np.ndarray | None = None) -> tuple[float, np.ndarray | None]:
    """A dot at the letter's lower right: its confidence and its ink (crop mask) when found.

    The shape rules find the candidate; the dot judge, given `level`, says how likely it is a dot."""
    seen = dot_evidence(ink, box, s, avoid, level)
    if seen is None:
        return 0.0, None
    judge = dotjudge.shipped()
    score = judge.probability(seen.view) if judge is not None and seen.view is not None else seen.rule_score
    if score <= DECIDE:
        return score, None
    return score, seen.candidate if seen.candidate is not None else np.zeros_like(ink)


def _blob_dot(ink: np.ndarray, u8: np.ndarray, dt: np.ndarray, n: int, labels: np.ndarray, stats: np.ndarray,
              box: tuple[float, float, float, float], s: float) -> tuple[float, np.ndarray | None]:
    """A blob clearly wider than the letter's strokes at its lower right, or a small solid blob apart:
    its confidence and its ink, the widest place there (None when nothing there is wider than a hairline)."""
    bx, by, bw, bh = box
    x0, y0 = int(bx + 0.45 * bw), int(by + 0.5 * bh)
    x1, y1 = int(bx + bw + 0.25 * s), int(by + bh + 0.5 * s)
    sub = dt[y0:y1, x0:x1]
    iy, ix = np.unravel_index(int(np.argmax(sub)), sub.shape)
    cy, cx, r = y0 + iy, x0 + ix, float(sub[iy, ix])
    if r < 0.2 * s:
        return 0.0, None
    gy, gx = np.ogrid[0:ink.shape[0], 0:ink.shape[1]]
    d2 = (gx - cx) ** 2 + (gy - cy) ** 2
    disk = d2 <= (r + 1.5) ** 2
    others = dt[ink & (d2 > (2 * r + 2) ** 2)]
    stroke = float(np.partition(others, int(0.9 * (len(others) - 1)))[int(0.9 * (len(others) - 1))]) if others.size else 1.0
    stroke = max(stroke, 1.0)  # the half-width of the letter's thickest strokes
    score = float(np.clip(0.5 + (r / stroke - DOT_RATIO) / 0.6, 0.0, 1.0))
    c = labels[cy, cx]
    alone = n > 2 and stats[c, cv2.CC_STAT_AREA] < stats[1:, cv2.CC_STAT_AREA].max()
    if score <= 0.3 and not alone:
        return score, disk & ink
    # a dot is round: its core (farther than 0.65 r from the paper) is a small disk, not a stroke
    _, core = cv2.connectedComponents((dt >= 0.65 * r).astype(np.uint8), connectivity=8)
    core_area = int((core == core[cy, cx]).sum())
    if core_area > DOT_CORE * np.pi * (0.35 * r + 0.5) ** 2:
        score = min(score, 0.3)
    # ... and it is a blob on the letter, not a junction of its strokes: around it at most two strokes leave
    ring = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    px = np.round(cx + (1.25 * r + 2) * np.cos(ring)).astype(int)
    py = np.round(cy + (1.25 * r + 2) * np.sin(ring)).astype(int)
    inside = (px >= 0) & (py >= 0) & (px < ink.shape[1]) & (py < ink.shape[0])
    around = np.zeros(len(ring), bool)
    around[inside] = ink[py[inside], px[inside]]
    starts = np.nonzero(around & ~np.roll(around, 1))[0]
    junction = len(starts) > 2 or around.mean() > 0.4 or (len(starts) == 2 and _arcs_apart(around, starts) < np.radians(75))
    if junction and r < DOT_SURE * stroke:
        score = min(score, 0.3)  # a crossing, or the vertex of a V, N, W (two strokes leaving side by side)
    # ... and it sits at the lower right of the letter, not at a junction in its middle (the vertex of a V),
    # sticking out of the letter's outline (the tail of a Q crossing its bowl does not)
    ly, lx = np.nonzero((ink & ~disk)[int(by):int(by + bh), int(bx):int(bx + bw)])
    if len(lx) and (cx - bx < lx.min() + 0.55 * (lx.max() - lx.min()) or cy - by < ly.min() + 0.55 * (ly.max() - ly.min())):
        score = min(score, 0.3)
    if len(lx) >= 3 and not alone:
        hull = np.zeros(ink.shape, np.uint8)
        cv2.fillConvexPoly(hull, cv2.convexHull(np.stack([lx + int(bx), ly + int(by)], axis=1).astype(np.int32)), 1)
        blob = disk & ink
        if (blob & ~hull.astype(bool)).sum() < DOT_OUTSIDE * blob.sum():
            score = min(score, 0.3)
    # a small blob apart from the letter (the old rule), whatever the letter's pen
    if alone:
        x, y, w, h, area = stats[c]
        solid = area >= 0.6 * w * h and r >= 1.25 * stroke  # a filled blob, not a piece of a broken stroke
        if 0.12 * s * s <= area <= 4.5 * s * s and 0.6 <= w / max(h, 1) <= 1.6 and solid:
            score, disk = max(score, 0.9), labels == c
    return score, disk & ink


def _ridge_median(dt: np.ndarray, mask: np.ndarray) -> float:
    """Typical half-width of the strokes under `mask`: the median of the distance transform on their ridge."""
    ridge = mask & (dt >= cv2.dilate(dt, np.ones((3, 3), np.uint8))) & (dt >= 1.0)
    return float(np.median(dt[ridge])) if ridge.any() else 1.0


def _pen_dot(dt: np.ndarray, n: int, labels: np.ndarray, stats: np.ndarray,
             box: tuple[float, float, float, float], s: float) -> tuple[float, np.ndarray | None]:
    """A ballpoint dot (0.6-1 mm across, barely wider than the strokes) apart from the letter: a small,
    round, solid blob below and right of the letter's middle, at least 70 % as wide as its strokes.

    Touching the letter, such a dot is left to `_blob_dot`: on shape alone it cannot be told from the
    rounded end of a stroke (a C, an R's leg, a Z's foot written with a ballpoint's ball terminal)."""
    bx, by, bw, bh = box
    x0, y0 = int(bx + 0.45 * bw), int(by + 0.5 * bh)
    x1, y1 = int(bx + bw + PEN_REACH * s), int(by + bh + 0.5 * s)
    inbox = np.bincount(labels[int(by):int(by + bh), int(bx):int(bx + bw)].ravel(), minlength=n)
    inbox[0] = 0
    if inbox.max() == 0:
        return 0.0, None
    main = int(np.argmax(inbox))
    letter = labels == main
    ly, lx = np.nonzero(letter[int(by):int(by + bh), int(bx):int(bx + bw)])
    lx0, lx1, ly0, ly1 = lx.min() + bx, lx.max() + bx, ly.min() + by, ly.max() + by
    stroke = max(1.0, _ridge_median(dt, letter))
    best, best_ink = 0.0, None
    for c in range(1, n):  # apart: a small round solid blob
        if c == main:
            continue
        x, y, w, h, area = stats[c]
        cx, cy = x + w / 2, y + h / 2
        if not (x0 <= cx < x1 and y0 <= cy < y1):
            continue
        r = float(dt[labels == c].max())
        if not (np.pi * (PEN_DOT_MM[0] / 2 * 0.75 * s) ** 2 <= area <= 4.5 * s * s):
            continue
        if not (0.6 <= w / max(h, 1) <= 1.6 and area >= 0.6 * w * h and r >= 0.7 * stroke and max(w, h) <= 2.8 * r + 2):
            continue
        if cx < lx0 + 0.55 * (lx1 - lx0) or cy < ly0 + 0.55 * (ly1 - ly0):
            continue
        best, best_ink = 0.85, labels == c
    return best, best_ink


def _guesses(box: tuple[float, float, float, float], xs: np.ndarray, ys: np.ndarray, s: float) -> list:
    """Ellipses to start the ring search from: around the box, the ink in the box, and rings 1 and
    1.9 mm outside it (the ink in the box is the letter, or the letter and a ring inside the box)."""
    bx, by, bw, bh = box
    hw, hh = (xs.max() - xs.min()) / 2 + 1, (ys.max() - ys.min()) / 2 + 1
    centre = (bx + (xs.max() + xs.min()) / 2, by + (ys.max() + ys.min()) / 2)
    return [((bx + bw / 2, by + bh / 2), (1.12 * bw, 1.08 * bh), 0.0), (centre, (2 * hw, 2 * hh), 0.0),
            (centre, (2 * (1.25 * hw + 1.0 * s), 2 * (1.25 * hh + 1.0 * s)), 0.0),
            (centre, (2 * (1.35 * hw + 1.9 * s), 2 * (1.35 * hh + 1.9 * s)), 0.0)]


def find_marks(gray: np.ndarray, box: tuple[float, float, float, float], px_per_mm: float,
               paper: float | None = None, kinds: tuple[str, ...] = ("circle", "dot"),
               avoid: np.ndarray | None = None, judge_rings: bool = True) -> MarkResult:
    """Look for a circle, then a dot, on a crop that extends beyond the box (box given in crop pixels).

    The scanner looks for circles in every box of a field first and for dots afterwards (`kinds`), so
    that no box sees the arc of a neighbour's ring as its own mark; `avoid` (crop mask) marks where
    rings were erased. Without `judge_rings` the shape rules alone decide a ring (the ring judge's
    training draws its examples so).
    """
    paper = 255.0 if paper is None else paper
    level = ink_map(gray, paper)
    ink = level > INK_LEVEL
    bx, by, bw, bh = box
    inner = ink[int(by):int(by + bh), int(bx):int(bx + bw)]
    ys, xs = np.nonzero(inner)
    if len(xs) == 0:
        return MarkResult(None, gray, {k: 0.0 for k in kinds})
    s = px_per_mm
    scores: dict[str, float] = {}
    ring = Ring(0.0, None)
    if "circle" in kinds:
        ring = find_ring(ink, (bx + float(xs.mean()), by + float(ys.mean())), _guesses(box, xs, ys, s), s)
        ring = judged(ring, level, box) if judge_rings else ring
        scores["circle"] = ring.score
    cleaned = gray
    if ring.erase is not None:
        cleaned = gray.copy()
        cleaned[ring.erase] = paper
        ink = ink & ~ring.erase
        level = np.where(ring.erase, 0.0, level)
    dot_ink = None
    if "dot" in kinds:
        scores["dot"], dot_ink = find_dot(ink, box, s, avoid, level)
    if ring.erase is None and dot_ink is not None:
        cleaned = gray.copy()
        cleaned[cv2.dilate(dot_ink.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)] = paper
    kind = "circle" if ring.erase is not None else "dot" if dot_ink is not None else None
    return MarkResult(kind, cleaned, scores, ring.shape)


def rules_take(shape: RingShape | None) -> bool:
    """Whether the shape rules alone take this ring: it holds a letter and scores past DECIDE."""
    return shape is not None and shape.holds_letter and shape.score > DECIDE


def judged(ring: Ring, level: np.ndarray, box: tuple[float, float, float, float]) -> Ring:
    """The ring judge's verdict on the ring the rules fitted (`ringjudge`), where the judge is shipped;
    the rules' own otherwise, and where they fitted no ring at all."""
    judge = ringjudge.shipped()
    if judge is None or ring.shape is None:
        return ring
    p = judge.probability(ringjudge.features(level, box, ring.shape))
    if not ring.shape.holds_letter and p < OVERRULE_RULES:
        p *= DECIDE / OVERRULE_RULES  # a ring the rules turned down is taken only when the judge is that sure
    return Ring(p, ring.shape.erase if p > DECIDE else None, ring.shape)


def tick_score(gray: np.ndarray, paper: float | None = None,
               box: tuple[float, float, float, float] | None = None) -> float:
    """Confidence that a tick-box holds a deliberate mark: 0.5 at TICK_INK of the box's centre inked.

    `gray` is the box inside its printed border or, with `box` (its place in the crop), the box with
    context around it: then a stroke that lies mostly outside the box, such as the arc of a ring drawn
    around the letter above, does not count. Only the box's centre counts, where a tick or a cross passes.
    """
    ink = ink_map(gray, paper) > INK_LEVEL
    if box is not None:
        bx, by, bw, bh = box
        n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
        inside = np.bincount(labels[int(by):int(by + bh), int(bx):int(bx + bw)].ravel(), minlength=n)
        ink = (inside >= 0.5 * stats[:, cv2.CC_STAT_AREA])[labels] & ink
        ink = ink[int(by):int(by + bh), int(bx):int(bx + bw)]
    h, w = ink.shape[:2]
    centre = ink[int(0.2 * h):int(0.8 * h) + 1, int(0.2 * w):int(0.8 * w) + 1]
    if not centre.size:
        return 0.0
    return float(np.clip(float(centre.mean()) / (2 * TICK_INK), 0.0, 1.0))


def is_ticked(gray: np.ndarray, paper: float | None = None) -> bool:
    """A tick-box crop (inside its printed border) holds a deliberate mark."""
    return tick_score(gray, paper) > DECIDE
