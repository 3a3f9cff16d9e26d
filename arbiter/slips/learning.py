"""Learning from arbiters (issue 5): every field an arbiter corrects in review is kept with the
cells the scanner cut for it and the true text, through the scanner's own
`scanner.samples.save_correction`, so `fluturas reader finetune DIR` can retrain on them.

The store keeps the reading record, not the cell images (they are large and the record is JSON),
so the slip's image is scanned again here; the same image and the same reader give the same
cells. A slip that did not come from an image (typed readings), or whose image has changed or
gone since, gives no sample: nothing is stored that might not match its truth."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from .readings import PAGE_STRIDE

SLIP_FIELD = {"round": "tur", "table": "masa", "position": "poz", "score": "puncte", "word": "depunere",
              "total": "total", "cancel_round": "anulez_tur"}  # the last two: the anticipation slip
MOVE_FIELD = {"position": "poz_{}", "word": "depunere_{}", "score": "puncte_{}"}  # anticipation: move k


def field_truths(before: dict[str, Any], correction: dict[str, Any]) -> dict[str, str]:
    """Scanner field name → the text the arbiter says is written, for each field that changed.
    A field the arbiter blanks (nothing written) teaches nothing about characters and is left out."""
    out = {}
    for key, value in correction.items():
        if key in SLIP_FIELD and value is not None and value != before.get(key):
            out[SLIP_FIELD[key]] = str(value)
        elif key == "moves" and isinstance(value, list):
            old = before.get("moves") or []
            for k, move in enumerate(value, start=1):
                was = old[k - 1] if k <= len(old) else {}
                for name, field in MOVE_FIELD.items():
                    if move.get(name) is not None and move.get(name) != was.get(name):
                        out[field.format(k)] = str(move[name])
    return out


@lru_cache(maxsize=4)
def _scan(source: str, sha256: str, reader: str) -> tuple[Any, ...]:
    """Every reading of one image (cells included), kept for the few corrections of one page."""
    from scanner import ScanOptions, scan_paths

    return tuple(scan_paths([Path(source)], ScanOptions(reader=reader)))


def save_field_corrections(directory: Path, slip_reading: dict[str, Any], sha256: str, slip_index: int,
                           before: dict[str, Any], correction: dict[str, Any]) -> list[Path]:
    """Store the cells + truth of each corrected field of one slip; the paths written."""
    truths = field_truths(before, correction)
    source = slip_reading.get("source")
    if not truths or not isinstance(source, str) or slip_reading.get("format") != "fluturas.reading/1":
        return []
    path = Path(source)
    if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != sha256:
        return []
    from scanner.samples import save_correction

    page, index = slip_index // PAGE_STRIDE + 1, slip_index % PAGE_STRIDE
    reading = next((r for r in _scan(str(path.resolve()), sha256, str(slip_reading.get("reader") or "cnn"))
                    if r.page == page and r.slip_index == index), None)
    if reading is None:
        return []
    written = [save_correction(directory, reading, name, truth) for name, truth in truths.items()]
    return [p for p in written if p is not None]
