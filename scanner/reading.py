"""The reading: what the scanner hands to the rest of the system, one JSON object per slip.

Documented in scanner/README.md ("Reading record"); the corrector depends on this record only.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import numpy as np

FORMAT = "fluturas.reading/1"


@dataclass
class CharReading:
    """One written box: the reader's top-k (char, probability), ink share, and any joker mark on it."""

    top_k: list[tuple[str, float]]
    ink: float
    joker: str | None = None  # "circle" | "dot" | "tick"


@dataclass
class FieldReading:
    text: str
    confidence: float  # posterior of `text` among the strings the field's grammar allows
    accepted: bool  # confidence >= the reader's calibrated threshold and the text is well formed
    valid: bool  # the written cells fit the field's grammar (length, letter/number order)
    chars: list[CharReading] = field(default_factory=list)
    jokers: list[int] = field(default_factory=list)  # 0-based indices into text
    warnings: list[str] = field(default_factory=list)


@dataclass
class Reading:
    source: str
    page: int  # 1-based page of a PDF or multi-page TIFF; 1 for plain images
    slip_index: int  # 0-based order on the page (top to bottom, left to right)
    template_id: str | None
    slip_box: list[list[float]] | None  # slip outline TL, TR, BR, BL in page pixels
    fields: dict[str, FieldReading] = field(default_factory=dict)
    qr: str | None = None
    reader: str = "cnn"
    threshold: float = 1.0
    warnings: list[str] = field(default_factory=list)
    error: str | None = None  # set when the file itself could not be read
    # normalised cells per field (n x 32 x 32), kept for review/finetuning; not serialised
    cells: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("cells")
        for f in d["fields"].values():
            f["confidence"] = round(f["confidence"], 6)
            for c in f["chars"]:
                c["top_k"] = [[ch, round(p, 5)] for ch, p in c["top_k"]]
                c["ink"] = round(c["ink"], 4)
        return {"format": FORMAT, **d}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=False)
