"""The reading: what the scanner hands to the rest of the system, one JSON object per slip.

Documented in scanner/README.md ("Reading record"); the corrector depends on this record only.
`Reading.from_dict` loads a record back, including records written before `classes`, `probs` and
`marks` existed (they load as empty).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import numpy as np

FORMAT = "fluturas.reading/1"
MARK_KINDS = ("circle", "dot", "tick")


@dataclass
class CharReading:
    """One written box: the reader's top-k (char, probability), ink share, and any joker mark on it.

    `probs` is the full calibrated distribution over `Reading.classes` (same order); `marks` the
    confidence of each mark kind found or tested on the box; `joker` the mark decided from them.
    `probs_as_written` is the box read with its mark left in, where a mark was found and erased: what
    the box holds if the mark is a stroke of the letter and no joker mark (empty elsewhere).
    """

    top_k: list[tuple[str, float]]
    ink: float
    joker: str | None = None  # "circle" | "dot" | "tick"
    probs: list[float] = field(default_factory=list)
    marks: dict[str, float] = field(default_factory=dict)
    probs_as_written: list[float] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d: dict) -> "CharReading":
        return cls([(str(ch), float(p)) for ch, p in d.get("top_k") or ()], float(d.get("ink", 0.0)),
                   d.get("joker"), [float(p) for p in d.get("probs") or ()],
                   {str(k): float(v) for k, v in (d.get("marks") or {}).items()},
                   [float(p) for p in d.get("probs_as_written") or ()])


@dataclass
class FieldReading:
    text: str
    confidence: float  # posterior of `text` among the strings the field's grammar allows
    accepted: bool  # confidence >= the reader's calibrated threshold and the text is well formed
    valid: bool  # the written cells fit the field's grammar (length, letter/number order)
    chars: list[CharReading] = field(default_factory=list)
    jokers: list[int] = field(default_factory=list)  # 0-based indices into text
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d: dict) -> "FieldReading":
        return cls(str(d.get("text", "")), float(d.get("confidence", 0.0)), bool(d.get("accepted", False)),
                   bool(d.get("valid", False)), [CharReading.from_dict(c) for c in d.get("chars") or ()],
                   [int(j) for j in d.get("jokers") or ()], [str(w) for w in d.get("warnings") or ()])


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
    classes: str = ""  # the reader's class alphabet: the order of every CharReading.probs
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
                c["probs"] = [round(p, 5) for p in c["probs"]]
                c["probs_as_written"] = [round(p, 5) for p in c["probs_as_written"]]
                c["marks"] = {k: round(v, 4) for k, v in c["marks"].items()}
        return {"format": FORMAT, **d}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=False)

    @classmethod
    def from_dict(cls, d: dict) -> "Reading":
        """A record as written by `to_dict`; keys added since (classes, probs, marks) may be absent."""
        return cls(str(d.get("source", "")), int(d.get("page", 0)), int(d.get("slip_index", 0)), d.get("template_id"),
                   d.get("slip_box"), {str(k): FieldReading.from_dict(v) for k, v in (d.get("fields") or {}).items()},
                   d.get("qr"), str(d.get("reader", "cnn")), float(d.get("threshold", 1.0)),
                   [str(w) for w in d.get("warnings") or ()], d.get("error"), str(d.get("classes", "")))

    @classmethod
    def from_json(cls, line: str) -> "Reading":
        return cls.from_dict(json.loads(line))
