"""Anticipation slips typed from the paper (A 5.3): one JSON record per slip, in the slip form of
docs/anticipation.md — `table`, `round`, one move (`position`, `word`, `jokers`, `score`) or
`moves` (one or two; round 1: the 2-letter group first), `total`, `cancel_round` ("Anulez
turul X"), `verify` ("Verificare"), `verify_words` — plus, optionally, `source` and `sha256`.

Each record is checked against the slip definition of `corrector/anticipation/case.schema.json`
(the judge's own), so what is filed is what the correction accepts. A record becomes an
`AnticipationReading`, which the duplicate filing path (`ingest.file_reading`) stores as it
stores scanned slips: same identity rule (sha256 of the record unless given), same supersede
choice, same audit entry, same review item when the table is not seated."""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from corrector.anticipation.judge import SCHEMA

from ..errors import MissingComponent, ReadingError
from ..games import get_game, get_round, require_kind
from ..ingest import READING_SUFFIXES, Chooser, Filed, file_reading
from ..readings import SlipReading, content_hash, read_readings_file
from ..store import Store

IDENTITY_KEYS = ("source", "sha256", "slip_index")


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


def parse_anticipation_reading(record: Any, where: str, _threshold: float = 1.0,
                               base: Path | None = None) -> AnticipationReading:
    """One typed record → reading; every schema error is reported at once, by field."""
    if not isinstance(record, dict):
        raise ReadingError(f"{where}: a slip must be a JSON object, found {type(record).__name__}")
    slip = {k: v for k, v in record.items() if k not in IDENTITY_KEYS}
    errors = sorted(_validator().iter_errors(slip), key=lambda e: list(map(str, e.path)))
    if errors:
        raise ReadingError("\n".join(f"{where}: field {'.'.join(map(str, e.path)) or '(slip)'}: {e.message}"
                                     for e in errors))
    index = record.get("slip_index", 0)
    if not isinstance(index, int) or index < 0:
        raise ReadingError(f"{where}: field slip_index: expected an integer ≥ 0, found {index!r}")
    return AnticipationReading(source=str(record.get("source") or where), slip_index=index,
                               sha256=content_hash(record, base), values={"table": slip["table"], "round": slip["round"]},
                               jokers=(), confidence=None, unsure=(), raw=record, slip=slip)


def collect_anticipation_readings(paths: Iterable[Path]) -> list[AnticipationReading]:
    """Typed slips from .jsonl/.json files (or the folders holding them). Images of anticipation
    slips are not read yet: the scanner has no anticipation template, so they are refused."""
    out: list[AnticipationReading] = []
    for path in paths:
        if path.is_dir():
            out += collect_anticipation_readings(sorted(p for p in path.iterdir() if p.suffix.lower() in READING_SUFFIXES))
        elif not path.exists():
            raise ReadingError(f"{path}: no such file")
        elif path.suffix.lower() in READING_SUFFIXES:
            out += read_readings_file(path, 1.0, parse_anticipation_reading)  # type: ignore[arg-type]
        else:
            raise MissingComponent(f"{path}: anticipation slips are filed from typed readings (.jsonl); "
                                   f"reading their images is not supported yet")
    return out


def file_anticipation_slips(store: Store, game_id: int, readings: list[AnticipationReading], actor: str,
                            choose: Chooser, number: int | None = None) -> list[Filed]:
    """File each slip in the round it names (or `number`), each in its own transaction as
    `round scan` does; every round must be laid out first (`round order`)."""
    with store.session() as s:
        game = get_game(s, game_id)
        require_kind(game, "anticipation", "filing anticipation slips")
        for n in sorted({number} if number is not None else {r.round for r in readings}):
            get_round(s, game, n)
    return [file_reading(store, game_id, number if number is not None else r.round, r, actor, choose)
            for r in readings]
