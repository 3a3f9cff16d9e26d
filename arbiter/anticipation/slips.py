"""Anticipation slips, typed or scanned, as the anticipation correction takes them.

Typed (A 5.3): one JSON record per slip, in the slip form of docs/anticipation.md — `table`,
`round`, one move (`position`, `word`, `jokers`, `score`) or `moves` (one or two; round 1: the
2-letter group first), `total`, `cancel_round` ("Anulez turul X"), `verify` ("Verificare"),
`verify_words` — plus, optionally, `source` and `sha256`. Each record is checked against the slip
definition of `corrector/anticipation/case.schema.json` (the judge's own).

Scanned: the scanner's `fluturas.reading/1` record of the `anticipatie-v1` slip
(templates/anticipatie.json), from an image `round scan` reads or a readings .jsonl. TUR, MASA,
POZ/DEPUNERE/PUNCTE 1 and 2, TOTAL, ANULEZ TURUL, VERIFICARE and CUVÂNT DE VERIFICAT (the word to
check, `verify_words`; absent from the slip when the box is empty) become the same slip form,
always with `moves`. Each field is read as a duplicate slip's is (`readings.read_field`: the
scanner's calibrated `accepted`, else the threshold); a field that is not sure is listed in
`unsure` and sends the slip to review, never guessed. A box the scanner saw empty is a blank
(no second move, no total, no cancellation), except TUR and MASA, and a move written only in
part: those are unsure too.

Either becomes an `AnticipationReading`, which the duplicate filing path (`ingest.file_reading`)
stores as it stores duplicate slips: same identity rule (the image's sha256 and the slip's index,
or the typed record's hash), same supersede choice, same audit entry, same review item."""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from corrector.anticipation.judge import SCHEMA

from ..errors import ReadingError
from ..slips.ingest import Chooser, Filed, collect_readings, file_reading
from ..slips.readings import (FieldRead, SlipReading, apply_qr_table, check_template, content_hash, read_field,
                        slip_identity, slip_source)
from ..store.games import get_game, get_round, require_kind
from ..store.store import Store

IDENTITY_KEYS = ("source", "sha256", "slip_index")
TEMPLATE = "anticipatie"  # templates/anticipatie.json, any version
WORDS_FIELD = "verificare_cuvinte"  # the form's box for an adjacent word to verify (A 5.3 "Verificare")
MOVE_FIELDS = (("position", "poz_{}", False), ("word", "depunere_{}", False), ("score", "puncte_{}", True))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    defs = json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]
    return jsonschema.Draft202012Validator({"$ref": "#/$defs/slip", "$defs": defs})


@dataclass(frozen=True)
class AnticipationReading(SlipReading):
    """A typed slip; `content()` is the slip exactly as the anticipation input takes it."""

    slip: dict[str, Any] | None = None

    def content(self) -> dict[str, Any]:
        return dict(self.slip or {})


def slip_errors(slip: dict[str, Any]) -> list[str]:
    """Every way `slip` breaks the judge's slip schema, by field ('field moves.0.score: ...')."""
    errors = sorted(_validator().iter_errors(slip), key=lambda e: list(map(str, e.path)))
    return [f"field {'.'.join(map(str, e.path)) or '(slip)'}: {e.message}" for e in errors]


def parse_anticipation_record(record: Any, where: str, threshold: float, base: Path | None = None) -> AnticipationReading:
    """A scanner record (it has `fields`) or a typed slip."""
    if isinstance(record, dict) and isinstance(record.get("fields"), dict):
        return parse_anticipation_scan(record, where, threshold, base)
    return parse_anticipation_reading(record, where, threshold, base)


def parse_anticipation_scan(record: dict[str, Any], where: str, threshold: float,
                            base: Path | None = None, template: str = TEMPLATE,
                            kind: str = "anticipation") -> AnticipationReading:
    """A scanner record of the anticipation slip → reading, each unsure field named in `unsure`
    (TUR and MASA as `round` and `table`, the rest by the template's field names). The tactic slip
    (`tactic-v1`, D 8.6) has the same two moves and total and is read here too (`template`)."""
    if record.get("error"):
        raise ReadingError(f"{where}: {record.get('source', 'the file')} could not be read: {record['error']}")
    check_template(record, where, template, kind)
    fields = {str(k).lower(): v for k, v in record["fields"].items()}
    unsure: list[str] = []
    confidences: list[float] = []

    def take(name: str, numeric: bool = False, label: str | None = None, required: bool = False) -> FieldRead:
        f = read_field(fields.get(name), name, where, threshold, numeric)
        if f.confidence is not None:
            confidences.append(f.confidence)
        if not (f.sure or f.empty) or (required and f.value is None):
            unsure.append(label or name)
        return f

    values = {"round": take("tur", True, "round", required=True).value,
              "table": take("masa", True, "table", required=True).value}
    apply_qr_table(record, values, unsure)
    moves = []
    for k in (1, 2):
        names = {key: (name.format(k), numeric) for key, name, numeric in MOVE_FIELDS}
        if all(_blank(fields.get(name)) for name, _ in names.values()):
            continue  # nothing written: no such move
        read = {key: take(name, numeric, required=True) for key, (name, numeric) in names.items()}
        jokers = list(read["word"].jokers or ())
        if not all(isinstance(j, int) and j >= 0 for j in jokers):
            raise ReadingError(f"{where}: field depunere_{k}.jokers: expected 0-based tile indices, found {jokers!r}")
        moves.append({"position": read["position"].value, "word": read["word"].value, "jokers": jokers,
                      "score": read["score"].value})
    if not moves:
        unsure.append("moves")  # a slip with no move is read wrong or is the arbiter's to judge
    total = take("total", True).value
    cancel = take("anulez_tur", True)
    if cancel.value == 0:
        unsure.append("anulez_tur")  # no round 0: a misread
    verify = take("verificare").value is not None
    slip = {"table": values["table"], "round": values["round"], "moves": moves, "total": total,
            "cancel_round": cancel.value or None, "verify": verify}
    if not _blank(fields.get(WORDS_FIELD)):  # the word written after "Verificare" (RULES.md §7)
        word = take(WORDS_FIELD, required=True).value
        slip["verify_words"] = [word] if word else []
    return AnticipationReading(source=slip_source(record, where, base), slip_index=slip_identity(record, where),
                               sha256=content_hash(record, base), values=values, jokers=(),
                               confidence=min(confidences) if confidences else None,
                               unsure=tuple(dict.fromkeys(unsure)), raw=record, slip=slip)


def parse_tactic_record(record: Any, where: str, threshold: float, base: Path | None = None) -> AnticipationReading:
    """A tactic slip (D 8.6): the scanner's `tactic-v1` record, or a typed one (`table`, `round`,
    `moves`, `total`, checked against the same slip schema)."""
    if isinstance(record, dict) and isinstance(record.get("fields"), dict):
        return parse_anticipation_scan(record, where, threshold, base, "tactic", "tactic")
    return parse_anticipation_reading(record, where, threshold, base)


def _blank(item: Any) -> bool:
    """Nothing written: no field at all, or one the scanner saw empty."""
    if item is None:
        return True
    if isinstance(item, dict):
        return not str(item.get("text") or "").strip() and "empty" in (item.get("warnings") or ())
    return not str(item).strip()


def parse_anticipation_reading(record: Any, where: str, _threshold: float = 1.0,
                               base: Path | None = None) -> AnticipationReading:
    """One typed record → reading; every schema error is reported at once, by field."""
    if not isinstance(record, dict):
        raise ReadingError(f"{where}: a slip must be a JSON object, found {type(record).__name__}")
    slip = {k: v for k, v in record.items() if k not in IDENTITY_KEYS}
    errors = slip_errors(slip)
    if errors:
        raise ReadingError("\n".join(f"{where}: {e}" for e in errors))
    index = record.get("slip_index", 0)
    if not isinstance(index, int) or index < 0:
        raise ReadingError(f"{where}: field slip_index: expected an integer ≥ 0, found {index!r}")
    return AnticipationReading(source=str(record.get("source") or where), slip_index=index,
                               sha256=content_hash(record, base), values={"table": slip["table"], "round": slip["round"]},
                               jokers=(), confidence=None, unsure=(), raw=record, slip=slip)


def collect_anticipation_readings(paths: Iterable[Path], threshold: float = 0.95,
                                  reader: str = "cnn") -> list[AnticipationReading]:
    """Slips from images (through the scanner), scanner readings and typed slips (.jsonl/.json),
    or the folders holding them."""
    return list(collect_readings(paths, threshold, reader, parse_anticipation_record))  # type: ignore[arg-type]


def file_anticipation_slips(store: Store, game_id: int, readings: list[AnticipationReading], actor: str,
                            choose: Chooser, number: int | None = None) -> list[Filed]:
    """File each slip in the round it names (or `number`), each in its own transaction as
    `round scan` does; every round must be laid out first (`round order`). A slip whose round
    cannot be read goes to the newest round, in review (the arbiter's correction moves it)."""
    with store.session() as s:
        game = get_game(s, game_id)
        require_kind(game, "anticipation", "filing anticipation slips")
        newest = get_round(s, game).number
        for n in sorted({number} if number is not None else {r.round for r in readings if r.round is not None}):
            get_round(s, game, n)
    return [file_reading(store, game_id, number if number is not None else r.round if r.round is not None else newest,
                         r, actor, choose) for r in readings]
