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

from ..errors import ReadingError

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
    doubt: str | None = None  # the decoder's reason for review (arbiter/slips/decoding.py)
    candidates: list[dict[str, Any]] | None = None  # and its competing readings
    notes: tuple[str, ...] = ()  # why the pile sends it to review (a wrong pile filed anyway)
    in_hand: str = ""  # a decided slip's note for the audit: boxes read in the player's hand, twins (`Verdict.audit_note`)

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


@dataclass(frozen=True)
class FieldRead:
    """One field of a record: its value (an int for a numeric field), its confidence, whether it
    is sure (accepted by the scanner, or at the threshold), its jokers, and whether the scanner
    saw nothing written in it."""

    value: Any
    confidence: float | None
    sure: bool
    jokers: tuple[int, ...] | None = None
    empty: bool = False


def read_field(item: Any, name: str, where: str, threshold: float, numeric: bool = False) -> FieldRead:
    """A field as the scanner (`{text, confidence, accepted, valid, jokers}`) or a typist (a plain
    value) gives it. A numeric field that is not a number is never guessed: no value, unsure."""
    text, conf, accepted, jokers, empty = item, None, None, None, False
    if isinstance(item, dict):
        text, conf, accepted = item.get("text"), item.get("confidence"), item.get("accepted")
        if item.get("valid") is False:
            accepted = False  # the written boxes do not fit the field's grammar
        if item.get("jokers") is not None:
            jokers = tuple(item["jokers"])
        empty = "empty" in (item.get("warnings") or ())
    if conf is not None and (not isinstance(conf, (int, float)) or not 0 <= conf <= 1):
        raise ReadingError(f"{where}: field {name}.confidence: expected a number 0–1, found {conf!r}")
    conf = None if conf is None else float(conf)
    text = None if text is None else str(text).strip() or None
    if text is not None and numeric:
        if not (text.isascii() and text.isdigit()):
            return FieldRead(None, conf, False, jokers)
        value: Any = int(text)
    else:
        value = text
    # The scanner's calibrated `accepted` decides when it is given; else our threshold does.
    sure = not (accepted is False or (accepted is None and conf is not None and conf < threshold))
    return FieldRead(value, conf, sure, jokers, empty and text is None)


def slip_identity(record: dict[str, Any], where: str) -> int:
    """The slip's index in its file: `(page - 1) * PAGE_STRIDE + slip_index`."""
    index, page = record.get("slip_index", 0), record.get("page", 1)
    if not isinstance(index, int) or not 0 <= index < PAGE_STRIDE:
        raise ReadingError(f"{where}: field slip_index: expected an integer 0–{PAGE_STRIDE - 1}, found {index!r}")
    if not isinstance(page, int) or page < 1:
        raise ReadingError(f"{where}: field page: expected an integer ≥ 1, found {page!r}")
    return index + (page - 1) * PAGE_STRIDE


def slip_source(record: dict[str, Any], where: str, base: Path | None) -> str:
    """The slip's file, absolute when it exists (the review queue and the slip PDF open it later)."""
    source = str(record.get("source") or where)
    if base is not None and not Path(source).is_absolute() and (base / source).is_file():
        source = str((base / source).resolve())
    return source


def apply_qr_table(record: dict[str, Any], values: dict[str, Any], unsure: list[str]) -> None:
    """A pre-filled slip names its player: the QR's table wins over the handwriting, and a
    written table that differs is reviewed (`table_written`)."""
    qr_table = _qr_table(record.get("qr"))
    if qr_table is None:
        return
    if values.get("table") not in (None, qr_table):
        unsure.append("table_written")
    if "table" in unsure:
        unsure.remove("table")
    values["table"] = qr_table


def check_template(record: dict[str, Any], where: str, prefix: str, kind: str) -> None:
    """A scanner record of another game type's slip is an error, not a slip full of blanks."""
    template = record.get("template_id")
    if isinstance(template, str) and not template.startswith(prefix):
        raise ReadingError(f"{where}: a {template} slip cannot be filed in a {kind} game")


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
    check_template(record, where, "duplicat", "duplicate")
    for name in ALIASES:
        f = read_field(_field(record, name), name, where, threshold, numeric=name in NUMERIC)
        if f.confidence is not None:
            confidences.append(f.confidence)
        if name == "word" and f.jokers is not None:
            jokers = f.jokers
        if f.value is not None:
            values[name] = f.value
        if not f.sure or (name in ("round", "table") and f.value is None):
            unsure.append(name)
    if not all(isinstance(j, int) and j >= 0 for j in jokers):
        raise ReadingError(f"{where}: field word.jokers: expected 0-based tile indices, found {list(jokers)!r}")
    index = slip_identity(record, where)
    apply_qr_table(record, values, unsure)
    return SlipReading(source=slip_source(record, where, base), slip_index=index,
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
