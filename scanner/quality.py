"""Image-quality warnings an arbiter should see before trusting a reading."""
from __future__ import annotations

import cv2
import numpy as np

MIN_MARKER_PX = 28  # below this the letters are too small to read reliably (~90 dpi)
MIN_SHARPNESS = 40.0  # variance of the Laplacian on the rectified slip
MIN_CONTRAST = 60.0


def slip_warnings(gray_slip: np.ndarray, marker_px: float, markers_found: int) -> list[str]:
    out = []
    if marker_px < MIN_MARKER_PX:
        out.append(f"low_resolution: markers {marker_px:.0f} px wide")
    if markers_found < 4:
        out.append("marker_missing: slip located from 3 markers")
    if float(cv2.Laplacian(gray_slip, cv2.CV_32F).var()) < MIN_SHARPNESS:
        out.append("blurred")
    hist = np.cumsum(cv2.calcHist([gray_slip], [0], None, [256], [0, 256]).ravel())
    lo, hi = np.searchsorted(hist, 0.01 * hist[-1]), np.searchsorted(hist, 0.99 * hist[-1])
    if hi - lo < MIN_CONTRAST:
        out.append("low_contrast")
    return out
