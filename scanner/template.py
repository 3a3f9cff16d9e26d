"""Slip templates: JSON files validated against templates/slip.schema.json, loaded into frozen records.

Defaults are merged first and only the merged document is validated; every schema error is reported
at once, sorted by path (a template author fixes them in one pass).
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from scanner.errors import TemplateError
from scanner.grammar import Grammar

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"
SCHEMA_PATH = TEMPLATE_DIR / "slip.schema.json"
FIELD_DEFAULTS = {"gap_mm": 0.0, "joker_tick_mm": None, "prefill": None}
TEMPLATE_DEFAULTS = {"box_rgb": [246, 150, 150]}


@dataclass(frozen=True)
class Rect:
    """Millimetres from the slip's top-left corner."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    grammar: Grammar
    boxes: tuple[Rect, ...]
    ticks: tuple[Rect, ...]  # joker tick-boxes, one under each box, or empty
    prefill: str | None


@dataclass(frozen=True)
class Markers:
    dictionary: str
    size_mm: float
    ids: tuple[int, int, int, int]  # top-left, top-right, bottom-right, bottom-left
    positions: tuple[tuple[float, float], ...]  # top-left corner of each marker

    def corners(self, k: int) -> list[tuple[float, float]]:
        """The 4 corners of marker k in ArUco's order (its own top-left, clockwise), in mm."""
        x, y = self.positions[k]
        s = self.size_mm
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]


@dataclass(frozen=True)
class Template:
    id: str
    title: str
    width_mm: float
    height_mm: float
    box_rgb: tuple[int, int, int]
    markers: Markers
    fields: tuple[Field, ...]
    qr: Rect | None
    header: tuple[float, float] | None
    source: Path

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise TemplateError(f"{self.source}: template {self.id} has no field {name!r}")


@lru_cache(maxsize=1)
def _schema() -> dict:
    try:
        return json.loads(SCHEMA_PATH.read_text())
    except (OSError, ValueError) as exc:
        raise TemplateError(f"{SCHEMA_PATH}: cannot read the template schema ({exc})") from exc


def _with_defaults(doc: dict) -> dict:
    merged = copy.deepcopy(doc)
    for k, v in TEMPLATE_DEFAULTS.items():
        merged.setdefault(k, v)
    for f in merged.get("fields", []) if isinstance(merged.get("fields"), list) else []:
        if isinstance(f, dict):
            for k, v in FIELD_DEFAULTS.items():
                f.setdefault(k, v)
    return merged


def validate(doc: dict, source: Path) -> dict:
    """Merged document, or TemplateError listing every schema violation sorted by path."""
    import jsonschema

    merged = _with_defaults(doc)
    validator = jsonschema.Draft202012Validator(_schema())
    errors = sorted(validator.iter_errors(merged), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        lines = [f"  {'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}" for e in errors]
        raise TemplateError(f"{source}: invalid slip template\n" + "\n".join(lines))
    names = [f["name"] for f in merged["fields"]]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise TemplateError(f"{source}: duplicate field names {dupes}")
    return merged


def _field(d: dict) -> Field:
    bw, bh = d["box_mm"]
    boxes = tuple(Rect(d["x_mm"] + i * (bw + d["gap_mm"]), d["y_mm"], bw, bh) for i in range(d["count"]))
    t = d["joker_tick_mm"]
    ticks = tuple(Rect(b.x + (bw - t) / 2, b.y + bh + 1.0, t, t) for b in boxes) if t else ()
    return Field(d["name"], d["label"], Grammar.from_dict(d["grammar"]), boxes, ticks, d["prefill"])


def parse(doc: dict, source: Path) -> Template:
    d = validate(doc, source)
    m = d["markers"]
    qr = d.get("qr")
    header = d.get("header")
    return Template(
        id=d["id"], title=d["title"], width_mm=d["size_mm"][0], height_mm=d["size_mm"][1],
        box_rgb=tuple(d["box_rgb"]),
        markers=Markers(m["dictionary"], m["size_mm"], tuple(m["ids"]), tuple(tuple(p) for p in m["positions_mm"])),
        fields=tuple(_field(f) for f in d["fields"]),
        qr=Rect(qr["x_mm"], qr["y_mm"], qr["size_mm"], qr["size_mm"]) if qr else None,
        header=(header["x_mm"], header["y_mm"]) if header else None,
        source=source,
    )


def load_template(path: str | Path) -> Template:
    """Load one template file, or a built-in one by id (e.g. 'duplicat-v1') or stem ('duplicat')."""
    p = Path(path)
    if not p.suffix and not p.exists():
        for candidate in builtin_templates():
            if candidate.id == str(path) or candidate.source.stem == str(path):
                return candidate
        raise TemplateError(f"{path}: no such template file or built-in template id")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TemplateError(f"{p}: cannot read template ({exc.strerror})") from exc
    except ValueError as exc:
        raise TemplateError(f"{p}: not valid JSON ({exc})") from exc
    if not isinstance(doc, dict):
        raise TemplateError(f"{p}: a template must be a JSON object")
    return parse(doc, p)


@lru_cache(maxsize=1)
def builtin_templates() -> tuple[Template, ...]:
    """Templates shipped in templates/ (every *.json except the schema)."""
    return tuple(load_template(p) for p in sorted(TEMPLATE_DIR.glob("*.json")) if p != SCHEMA_PATH)


def check_markers_unique(templates: tuple[Template, ...]) -> None:
    """Marker ids identify the template on a scan, so two templates may not share one."""
    seen: dict[int, str] = {}
    for t in templates:
        for i in t.markers.ids:
            if i in seen and seen[i] != t.id:
                raise TemplateError(f"{t.source}: marker id {i} already used by template {seen[i]}")
            seen[i] = t.id
