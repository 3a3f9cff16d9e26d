"""Find slips on a page by their ArUco corner markers and compute each slip's homography.

The marker ids say which template and which corner, so any rotation (upside down included) and any
number of slips per page come out the same way: each marker's own four corners predict where its
three partners must be, and the partners closest to the prediction complete the slip.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from scanner.template import Template

MATCH_TOLERANCE = 0.12  # allowed miss, as a share of the slip's diagonal in the image


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


@lru_cache(maxsize=4)
def _detector(dictionary: str) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.adaptiveThreshWinSizeMin = 7  # two threshold passes instead of three: markers are large
    params.adaptiveThreshWinSizeMax = 27
    params.adaptiveThreshWinSizeStep = 20
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary)), params)


def _project(h: np.ndarray, pts: list[tuple[float, float]]) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), h).reshape(-1, 2)


def find_slips(gray: np.ndarray, templates: tuple[Template, ...]) -> PageMarkers:
    """All complete slips (≥ 3 of 4 markers) of the given templates on a grey page."""
    by_dict: dict[str, list[Template]] = {}
    for t in templates:
        by_dict.setdefault(t.markers.dictionary, []).append(t)
    slips: list[Located] = []
    unknown: set[int] = set()
    orphans = 0
    for dictionary, group in by_dict.items():
        corners, ids, _ = _detector(dictionary).detectMarkers(gray)
        if ids is None:
            continue
        dets = [(int(i), c.reshape(4, 2)) for i, c in zip(ids.ravel(), corners)]
        owner = {mid: (t, k) for t in group for k, mid in enumerate(t.markers.ids)}
        unknown |= {i for i, _ in dets if i not in owner}
        used: set[int] = set()
        for anchor, (aid, acorners) in enumerate(dets):
            if anchor in used or aid not in owner:
                continue
            t, k = owner[aid]
            h_marker = cv2.getPerspectiveTransform(np.float32(t.markers.corners(k)), np.float32(acorners))
            diag = float(np.linalg.norm(np.ptp(_project(h_marker, [(0, 0), (t.width_mm, t.height_mm)]), axis=0)))
            src, dst, members = list(t.markers.corners(k)), [p for p in acorners], [anchor]
            for j, mid in enumerate(t.markers.ids):
                if j == k:
                    continue
                expected = _project(h_marker, t.markers.corners(j)).mean(axis=0)
                best, best_d = None, MATCH_TOLERANCE * diag
                for n, (did, dc) in enumerate(dets):
                    if did == mid and n not in used:
                        d = float(np.linalg.norm(dc.mean(axis=0) - expected))
                        if d < best_d:
                            best, best_d = n, d
                if best is not None:
                    members.append(best)
                    src += t.markers.corners(j)
                    dst += list(dets[best][1])
            if len(members) < 3:
                continue
            h, _ = cv2.findHomography(np.float32(src), np.float32(dst), 0)
            if h is None:
                continue
            used.update(members)
            outline = _project(h, [(0, 0), (t.width_mm, 0), (t.width_mm, t.height_mm), (0, t.height_mm)])
            side = float(np.mean([np.linalg.norm(dets[m][1][0] - dets[m][1][1]) for m in members]))
            slips.append(Located(t, h, tuple(map(tuple, outline.tolist())), len(members), side))
        orphans += sum(1 for n, (i, _) in enumerate(dets) if i in owner and n not in used)
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
