"""Find slips on a page by their ArUco corner markers and compute each slip's homography.

The marker ids say which template and which corner, so any rotation (upside down included) and any
number of slips per page come out the same way. Markers are detected in passes at more than one scale
(a downscaled page first, which is quick; the full page when a slip is incomplete or markers are small),
the detector's size floor set from the image, and the passes merged marker by marker. Slips are then
assembled from markers that agree on one homography: every pair of markers of one template at different
corners predicts the other two, the set is refitted, and it is kept only if each marker's own corners
fit the slip's homography, the outline is not mirrored, and no other marker lies on the slip. The
assemblies with the most markers and the closest fit are taken first; a marker serves one slip only,
so markers of neighbouring slips never make a phantom slip.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from scanner.template import Template

MATCH_TOLERANCE = 0.12  # allowed miss of a predicted marker, as a share of the slip's diagonal in the image
DETECT_MAX_SIDE = 1300  # the first pass looks at the page downscaled to this long side (quick)
MIN_MARKER_PX = 10.0  # smallest marker side the detector is asked to find, at the scale it looks at
FIT_TOLERANCE = 0.2  # largest miss of a member marker's corner under the slip's homography, share of its side
OUTSIDE_MM = 2.0  # a non-member marker closer than this to the slip's outline (or on it) contradicts it
PAIR_TOLERANCE = 0.4  # allowed miss of a pair's second marker as its first two predict it, share of their distance


@dataclass(frozen=True)
class Located:
    template: Template
    homography: np.ndarray  # millimetres on the slip -> page pixels
    corners_px: tuple[tuple[float, float], ...]  # slip outline TL, TR, BR, BL in page pixels
    markers_found: int
    marker_px: float  # mean marker side in pixels (resolution check)


@dataclass(frozen=True)
class PageMarkers:
    slips: list[Located]
    unknown_ids: list[int]  # markers of no known template (another form, or damaged)
    orphans: int  # known markers that did not complete a slip


@dataclass(frozen=True)
class Marker:
    id: int
    corners: np.ndarray  # 4×2, page pixels, ArUco's order (the marker's own top-left, clockwise)
    scale: float  # scale of the pass that found it (1 = full page)

    @cached_property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @cached_property
    def side(self) -> float:
        return float(np.mean(np.linalg.norm(self.corners - np.roll(self.corners, 1, axis=0), axis=1)))


def _detector(dictionary: str, shape: tuple[int, ...], min_side_px: float) -> cv2.aruco.ArucoDetector:
    """A detector whose size floor lets through markers of `min_side_px` on an image of `shape` (OpenCV's
    default floor, a perimeter of 3 % of the long side, drops 30 px markers on a 4000 px photo)."""
    return _detector_for(dictionary, round(4 * min_side_px / max(shape), 4))


@lru_cache(maxsize=16)
def _detector_for(dictionary: str, min_perimeter_rate: float) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 7  # two threshold passes instead of three: markers are large
    params.adaptiveThreshWinSizeMax = 27
    params.adaptiveThreshWinSizeStep = 20
    params.minMarkerPerimeterRate = min_perimeter_rate
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)), params)


def _project(h: np.ndarray, pts) -> np.ndarray:
    return cv2.perspectiveTransform(np.float64(pts).reshape(-1, 1, 2), h).reshape(-1, 2)


def _detect(gray: np.ndarray, dictionary: str, scale: float) -> list[Marker]:
    """Markers found on the page seen at `scale` (≤ 1), in full-page pixels."""
    img = gray if scale >= 1 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector(dictionary, img.shape, MIN_MARKER_PX).detectMarkers(img)
    if ids is None:
        return []
    return [Marker(int(i), c.reshape(4, 2).astype(np.float64) / scale, scale) for i, c in zip(ids.ravel(), corners)]


def _merge(passes: list[list[Marker]]) -> list[Marker]:
    """One marker per place: the same id found by several passes within half its side is one marker,
    taken from the finest pass that found it (its corners are the most precise)."""
    out: list[Marker] = []
    for m in sorted((m for p in passes for m in p), key=lambda m: -m.scale):
        if not any(o.id == m.id and np.linalg.norm(o.centre - m.centre) < 0.5 * max(o.side, m.side) for o in out):
            out.append(m)
    return out


@dataclass(frozen=True)
class _Assembly:
    template: Template
    members: tuple[int, ...]  # indices into the page's markers
    homography: np.ndarray
    miss: float  # largest corner miss of a member, share of the marker side


def _pair_agrees(t: Template, a: Marker, ka: int, b: Marker, kb: int) -> bool:
    """Whether b lies about where a slip through a would put its corner kb, from the two markers' own
    turn and size alone (a cheap test before a homography: markers of neighbouring slips rarely pass).
    The tolerance leaves room for the perspective of a photographed slip."""
    (ax, ay), (bx, by) = t.markers.corners(ka)[0], t.markers.corners(kb)[0]
    turn = [np.arctan2(*(m.corners[1] - m.corners[0])[::-1]) for m in (a, b)]
    angle = np.arctan2(np.mean(np.sin(turn)), np.mean(np.cos(turn)))
    scale = (a.side + b.side) / (2 * t.markers.size_mm)
    c, s = np.cos(angle), np.sin(angle)
    dx, dy = bx - ax, by - ay
    expected = scale * np.array([c * dx - s * dy, s * dx + c * dy])
    return bool(np.linalg.norm(b.centre - a.centre - expected) <= PAIR_TOLERANCE * np.linalg.norm(expected))


def _fit(t: Template, markers: list[Marker], members: list[tuple[int, int]]) -> tuple[np.ndarray, float] | None:
    """Homography slip mm -> page px through the members' corners ((marker index, corner k) pairs) and
    the largest miss of any member corner, as a share of that marker's side."""
    src = np.float64([p for _, k in members for p in t.markers.corners(k)])
    dst = np.float64([p for n, _ in members for p in markers[n].corners])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None or not np.isfinite(h).all():
        return None
    miss = np.linalg.norm(_project(h, src) - dst, axis=1).reshape(-1, 4).max(axis=1)
    sides = np.array([markers[n].side for n, _ in members])
    return h, float((miss / sides).max())


def _plausible(t: Template, h: np.ndarray, markers: list[Marker], members: set[int], owned: dict) -> bool:
    """The slip's outline is not mirrored nor folded, and no marker other than its own lies on it."""
    outline = _project(h, [(0, 0), (t.width_mm, 0), (t.width_mm, t.height_mm), (0, t.height_mm)])
    edges = np.roll(outline, -1, axis=0) - outline
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    if not (turns > 0).all():  # clockwise on the page as on the slip (image y points down)
        return False
    try:
        inv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return False
    side = np.mean([markers[n].side for n in members])
    others = [n for n, m in enumerate(markers)  # a stray decode in the ink or the table is far smaller or larger
              if n not in members and m.id in owned and 0.6 * side < m.side < 1.6 * side]
    if others:
        mm = _project(inv, np.array([markers[n].centre for n in others]))
        on_slip = ((mm[:, 0] > -OUTSIDE_MM) & (mm[:, 0] < t.width_mm + OUTSIDE_MM)
                   & (mm[:, 1] > -OUTSIDE_MM) & (mm[:, 1] < t.height_mm + OUTSIDE_MM))
        if on_slip.any():
            return False
    return True


def _assemblies(t: Template, markers: list[Marker], owned: dict) -> list[_Assembly]:
    """Every consistent set of ≥ 3 markers of template t: from each pair at different corners, the
    other corners predicted and taken when a marker of the right id lies there, then checked."""
    mine = [(n, t.markers.ids.index(m.id)) for n, m in enumerate(markers) if owned.get(m.id, (None,))[0] is t]
    seen: set[tuple[int, ...]] = set()
    out: list[_Assembly] = []
    for a in range(len(mine)):
        for b in range(a + 1, len(mine)):
            if mine[a][1] == mine[b][1] or not _pair_agrees(t, markers[mine[a][0]], mine[a][1],
                                                             markers[mine[b][0]], mine[b][1]):
                continue
            pair = _fit(t, markers, [mine[a], mine[b]])
            if pair is None or pair[1] > 2 * FIT_TOLERANCE:
                continue
            h = pair[0]
            diag = float(np.linalg.norm(np.ptp(_project(h, [(0, 0), (t.width_mm, t.height_mm)]), axis=0)))
            members = [mine[a], mine[b]]
            for k in range(4):
                if k in (mine[a][1], mine[b][1]):
                    continue
                expected = _project(h, t.markers.corners(k)).mean(axis=0)
                near = [(float(np.linalg.norm(markers[n].centre - expected)), n) for n, kk in mine if kk == k]
                near = [d for d in near if d[0] < MATCH_TOLERANCE * diag]
                if near:
                    members.append((min(near)[1], k))
            # all the markers found where the pair predicts them; failing that, each one left out in turn
            # (a neighbouring slip's marker of the same id may lie near where this slip's is missing)
            sets = [members] + ([members[:2] + [m] for m in members[2:]] if len(members) == 4 else [])
            for group in sets:
                key = tuple(sorted(n for n, _ in group))
                if len(group) < 3 or key in seen:
                    continue
                seen.add(key)
                fitted = _fit(t, markers, group)
                if fitted is None or fitted[1] > FIT_TOLERANCE:
                    continue
                if _plausible(t, fitted[0], markers, set(key), owned):
                    out.append(_Assembly(t, key, fitted[0], fitted[1]))
                    break
    return out


def _assemble(markers: list[Marker], templates: tuple[Template, ...]) -> tuple[list[Located], int]:
    """The slips of the page, most markers and closest fit first, each marker used once; and the number
    of known markers left over."""
    owned = {mid: (t, k) for t in templates for k, mid in enumerate(t.markers.ids)}
    candidates = [a for t in templates for a in _assemblies(t, markers, owned)]
    candidates.sort(key=lambda a: (-len(a.members), a.miss))
    used: set[int] = set()
    slips = []
    for a in candidates:
        if used.intersection(a.members):
            continue
        used.update(a.members)
        t = a.template
        outline = _project(a.homography, [(0, 0), (t.width_mm, 0), (t.width_mm, t.height_mm), (0, t.height_mm)])
        side = float(np.mean([markers[n].side for n in a.members]))
        slips.append(Located(t, a.homography, tuple(map(tuple, outline.tolist())), len(a.members), side))
    orphans = sum(1 for n, m in enumerate(markers) if m.id in owned and n not in used)
    return slips, orphans


def find_slips(gray: np.ndarray, templates: tuple[Template, ...]) -> PageMarkers:
    """All complete slips (≥ 3 of 4 markers) of the given templates on a grey page, in page pixels.

    The page is looked at downscaled first; when that leaves a slip short of a marker, a known marker
    unused, or markers too small to trust at that scale, it is looked at again at full size and both
    passes are merged before the slips are assembled."""
    by_dict: dict[str, list[Template]] = {}
    for t in templates:
        by_dict.setdefault(t.markers.dictionary, []).append(t)
    slips: list[Located] = []
    unknown: set[int] = set()
    orphans = 0
    small = min(1.0, DETECT_MAX_SIDE / max(gray.shape))
    for dictionary, group in by_dict.items():
        known = {mid for t in group for mid in t.markers.ids}
        passes = [_detect(gray, dictionary, small)]
        markers = _merge(passes)
        found, left = _assemble(markers, tuple(group))
        tiny = any(m.side * small < 2.5 * MIN_MARKER_PX for m in markers)
        if small < 1 and (left or tiny or not found or any(s.markers_found < 4 for s in found)):
            passes.append(_detect(gray, dictionary, 1.0))
            markers = _merge(passes)
            found, left = _assemble(markers, tuple(group))
        unknown |= {m.id for m in markers if m.id not in known}
        slips += found
        orphans += left
    slips.sort(key=lambda s: (round(np.mean([c[1] for c in s.corners_px]) / 50), np.mean([c[0] for c in s.corners_px])))
    return PageMarkers(slips, sorted(unknown), orphans)


def rectify(page: np.ndarray, loc: Located, px_per_mm: float) -> np.ndarray:
    """The slip seen straight on at px_per_mm, whatever its position and rotation on the page."""
    t = loc.template
    scale = np.diag([1.0 / px_per_mm, 1.0 / px_per_mm, 1.0])
    m = loc.homography @ scale
    size = (int(round(t.width_mm * px_per_mm)), int(round(t.height_mm * px_per_mm)))
    return cv2.warpPerspective(page, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
