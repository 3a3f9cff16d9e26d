"""Slip readings: the scanner's JSON records (one per slip), turned into what the judge needs.

The scanner (issue 5) writes `readings.jsonl`; `round scan` also accepts such files directly,
so slips read elsewhere, or typed in by hand, enter the same way. A record:

    {"source": "scans/r03-a.png", "sha256": "<of the image bytes>", "slip_index": 0,
     "fields": {"round": {"text": "03", "confidence": 0.99},
                "table": {"text": "012", "confidence": 0.97},
                "score": {"text": "26", "confidence": 0.99},
                "position": {"text": "H4", "confidence": 0.98},
                "word": {"text": "MODEL", "confidence": 0.93, "jokers": [2]}}}

Field names may also be the slip's own (TUR, MASA, PUNCTE, POZ, DEPUNERE); a field may be a
plain value. The scanner's own record (`fluturas.reading/1`, scanner/README.md) is read as is:
its calibrated `accepted` (and `valid`) decide whether a field is sure, `page` joins `slip_index`
in the slip's identity, a pre-filled slip's QR names the table. Nothing is
silently wrong: a field that is missing, unparsable or below the threshold is listed in
`unsure`, and the slip goes to the review queue."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ReadingError

ALIASES = {
    "round": ("round", "tur"), "table": ("table", "masa"), "score": ("score", "puncte"),
    "position": ("position", "poz"), "word": ("word", "depunere"),
}
PAGE_STRIDE = 1000  # slip identity on a multi-page file: (page - 1) * PAGE_STRIDE + slip_index
NUMERIC = ("round", "table", "score")


@dataclass(frozen=True)
class SlipReading:
    source: str
    slip_index: int
    sha256: str
    values: dict[str, Any]
    jokers: tuple[int, ...]
    confidence: float | None
    unsure: tuple[str, ...]
    raw: dict[str, Any] = field(repr=False)

    @property
    def table(self) -> int | None:
        return self.values.get("table")

    @property
    def round(self) -> int | None:
        return self.values.get("round")

    def content(self) -> dict[str, Any]:
        """The slip in the judge's CASE form (issue 4): table, round, score, position, word, jokers."""
        return {"table": self.table, "round": self.round, "score": self.values.get("score"),
                "position": self.values.get("position"), "word": self.values.get("word"),
                "jokers": list(self.jokers)}


def _field(record: dict[str, Any], name: str) -> Any:
    fields = {str(k).lower(): v for k, v in (record.get("fields") or {}).items()}
    top = {str(k).lower(): v for k, v in record.items()}
    for alias in ALIASES[name]:
        if alias in fields:
            return fields[alias]
        if alias in top:
            return top[alias]
    return None


def content_hash(record: dict[str, Any], base: Path | None = None) -> str:
    """The image's sha256 when the record or the file gives it; else that of the record itself."""
    given = record.get("sha256") or record.get("image_sha256")
    if isinstance(given, str) and len(given) == 64:
        return given.lower()
    source = record.get("source")
    if isinstance(source, str):
        path = Path(source) if base is None or Path(source).is_absolute() else base / source
        if path.is_file():
            return hashlib.sha256(path.read_bytes()).hexdigest()
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def parse_reading(record: Any, where: str, threshold: float, base: Path | None = None) -> SlipReading:
    """One record → SlipReading; a record that is not an object is a ReadingError naming `where`."""
    if not isinstance(record, dict):
        raise ReadingError(f"{where}: a reading must be a JSON object, found {type(record).__name__}")
    values: dict[str, Any] = {}
    unsure: list[str] = []
    confidences: list[float] = []
    jokers: tuple[int, ...] = tuple(record.get("jokers") or ())
    if record.get("error"):
        raise ReadingError(f"{where}: {record.get('source', 'the file')} could not be read: {record['error']}")
    for name in ALIASES:
        item = _field(record, name)
        text, conf, accepted = item, None, None
        if isinstance(item, dict):
            text, conf, accepted = item.get("text"), item.get("confidence"), item.get("accepted")
            if item.get("valid") is False:
                accepted = False  # the written boxes do not fit the field's grammar
            if name == "word" and item.get("jokers") is not None:
                jokers = tuple(item["jokers"])
        if conf is not None:
            if not isinstance(conf, (int, float)) or not 0 <= conf <= 1:
                raise ReadingError(f"{where}: field {name}.confidence: expected a number 0–1, found {conf!r}")
            confidences.append(float(conf))
        text = None if text is None else str(text).strip() or None
        if text is not None and name in NUMERIC:
            if text.isdigit():
                values[name] = int(text)
            else:
                unsure.append(name)  # a reading that is not a number is never guessed
                continue
        elif text is not None:
            values[name] = text
        # The scanner's calibrated `accepted` decides when it is given; else our threshold does.
        if accepted is False or (accepted is None and conf is not None and conf < threshold):
            unsure.append(name)
        if name in ("round", "table") and text is None:
            unsure.append(name)
    if not all(isinstance(j, int) and j >= 0 for j in jokers):
        raise ReadingError(f"{where}: field word.jokers: expected 0-based tile indices, found {list(jokers)!r}")
    index, page = record.get("slip_index", 0), record.get("page", 1)
    if not isinstance(index, int) or not 0 <= index < PAGE_STRIDE:
        raise ReadingError(f"{where}: field slip_index: expected an integer 0–{PAGE_STRIDE - 1}, found {index!r}")
    if not isinstance(page, int) or page < 1:
        raise ReadingError(f"{where}: field page: expected an integer ≥ 1, found {page!r}")
    index += (page - 1) * PAGE_STRIDE
    qr_table = _qr_table(record.get("qr"))
    if qr_table is not None:  # a pre-filled slip names its player: it wins over the handwriting
        if values.get("table") not in (None, qr_table):
            unsure.append("table_written")  # written ≠ printed: filed under the QR's table, reviewed
        if "table" in unsure:
            unsure.remove("table")
        values["table"] = qr_table
    source = str(record.get("source") or where)
    if base is not None and not Path(source).is_absolute() and (base / source).is_file():
        source = str((base / source).resolve())  # the review queue and the slip PDF open it later
    return SlipReading(source=source, slip_index=index,
                       sha256=content_hash(record, base), values=values, jokers=jokers,
                       confidence=min(confidences) if confidences else None,
                       unsure=tuple(dict.fromkeys(unsure)), raw=record)


def _qr_table(qr: Any) -> int | None:
    """`fluturas:v1;game=G;round=N;table=N` (scanner/README.md) → N."""
    if not isinstance(qr, str) or not qr.startswith("fluturas:"):
        return None
    parts = dict(p.split("=", 1) for p in qr.split(";")[1:] if "=" in p)
    return int(parts["table"]) if parts.get("table", "").isdigit() else None


Parser = Callable[[Any, str, float, "Path | None"], SlipReading]


def read_readings_file(path: Path, threshold: float, parse: Parser = parse_reading) -> list[SlipReading]:
    """A .jsonl (one record a line) or .json (one record or a list) file of readings; `parse`
    turns one record into a reading (an anticipation slip has its own form)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReadingError(f"{path}: cannot read: {exc}") from exc
    base = path.parent
    if path.suffix.lower() == ".jsonl":
        out = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ReadingError(f"{path}: line {number}: not JSON ({exc.msg}, column {exc.colno})") from exc
            out.append(parse(record, f"{path}: line {number}", threshold, base))
        return out
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReadingError(f"{path}: line {exc.lineno}: not JSON ({exc.msg})") from exc
    records = data if isinstance(data, list) else [data]
    return [parse(r, f"{path}: record {i + 1}", threshold, base) for i, r in enumerate(records)]
