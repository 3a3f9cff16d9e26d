"""The same paper scanned again, recognised from its ink, never from its reading.

In a duplicate game many players write the same move (the top), so two slips that read alike are
no proof of a rescan: only the handwriting is. The scanner cuts every written box of a slip into
a normalised 32×32 cell (`scanner.Reading.cells`, upright whatever the page's angle or scale);
the slip's print is those cells, 16×16 and 16 grey levels, field by field. Two prints are
compared box by box over the boxes inked in either: the mean difference of the ink, relative to
the ink there is.

Measured on synthetic slips of one move (`C6 NEAZURIU 106`, 16 writers, each scanned again as a
JPEG of quality 40, blurred, turned up to 3° and scaled 0.85–1.1): the same paper differs by at
most 0.19, two writers by at least 0.48. At most SAME apart it is the same paper; up to SUSPECT
the machine is not sure and an arbiter decides (both slips in review)."""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

SAME = 0.25
SUSPECT = 0.40
SIDE = 16  # a cell's print: SIDE × SIDE grey levels 0–15, one hex digit each
INKED = 0.1  # a cell whose brightest ink (0–1) stays below this is an empty box


def print_of(cells: Mapping[str, np.ndarray]) -> str | None:
    """The slip's print from the scanner's cells (`{field: n × 32 × 32}`, ink 0–1), as text:
    `field:hex;field:hex` in field order; None when no box is written."""
    parts = []
    for name in sorted(cells):
        stack = np.asarray(cells[name], dtype=np.float32)
        if stack.size == 0:
            parts.append(f"{name}:")
            continue
        n, h, w = stack.shape
        small = stack.reshape(n, SIDE, h // SIDE, SIDE, w // SIDE).mean(axis=(2, 4))
        levels = np.clip(np.rint(small * 15), 0, 15).astype(np.uint8).reshape(-1)
        parts.append(f"{name}:" + "".join("0123456789abcdef"[v] for v in levels))
    if all(p.endswith(":") for p in parts):
        return None
    return ";".join(parts)


def _cells(text: str) -> dict[str, np.ndarray]:
    out = {}
    for part in text.split(";"):
        name, _, digits = part.partition(":")
        values = np.frombuffer(digits.encode("ascii"), dtype=np.uint8)
        values = np.where(values >= 97, values - 87, values - 48).astype(np.float32) / 15
        out[name] = values.reshape(-1, SIDE, SIDE)
    return out


def distance(a: str, b: str) -> float:
    """How far two prints are: 0 the same ink; 1 or more, other writing. Slips whose written
    boxes differ in number (another word length, another field filled) are far apart."""
    ca, cb = _cells(a), _cells(b)
    if ca.keys() != cb.keys() or any(ca[k].shape != cb[k].shape for k in ca):
        return float("inf")
    x = np.concatenate([ca[k] for k in sorted(ca)])
    y = np.concatenate([cb[k] for k in sorted(cb)])
    if not len(x):
        return float("inf")
    inked = (x.max(axis=(1, 2)) > INKED) | (y.max(axis=(1, 2)) > INKED)
    if not inked.any():
        return float("inf")
    x, y = x[inked], y[inked]
    return float(np.abs(x - y).mean() / max(1e-6, (x.mean() + y.mean()) / 2))
