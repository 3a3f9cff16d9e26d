"""Game records: GCG files and FRS duplicate game logs, read into a list of events.

GCG: `>player: RACK POS WORD +SCORE TOTAL`, GCG positions (`8D` horizontal), `.` or `(X)` for
letters already on the board, lowercase for a blank; `--` withdraws the player's last move,
`-LETTERS`/`-` are exchanges/passes, `(challenge)`/`(time)`/`(RACK)` lines adjust totals.
FRS log: `RACK POSITION WORD SCORE`, one move a line, FRS positions (`H4` horizontal), jokers
lowercase, `+`/`-` markers in racks, `#` starts a comment.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from corrector.coords import Position, parse_frs, parse_gcg
from corrector.errors import NotationError, RecordError


class EventKind(Enum):
    PLACEMENT = "placement"
    WITHDRAWN = "withdrawn"     # a challenged-off play: the player's last placement leaves the board
    EXCHANGE = "exchange"
    PASS = "pass"
    ADJUSTMENT = "adjustment"   # challenge bonus, end-of-game rack points, time penalty


@dataclass(frozen=True)
class Event:
    kind: EventKind
    line: int
    player: str
    rack: str
    position: Position | None = None
    word: str = ""              # as written: '.', '(..)' mark letters already on the board
    recorded_score: int | None = None


@dataclass(frozen=True)
class GameRecord:
    path: str
    format: str                 # "gcg" or "frs"
    events: tuple[Event, ...]


def read_text(path: Path) -> str:
    """UTF-8 (with or without BOM), else latin-1, as older GCG files are."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


_GCG_MOVE = re.compile(r"^>([^:]*):\s*(.*)$")
_SCORE = re.compile(r"^[+-]\d+$")


def _gcg_event(player: str, body: str, where: str, line_no: int) -> Event:
    tokens = body.split()
    if not tokens:
        raise RecordError(f"{where}: empty move")
    # The last two tokens are the move's score and the running total (the total may be absent).
    scores = [t for t in tokens if _SCORE.match(t) or t.isdigit()]
    score_token = next((t for t in tokens if t.startswith(("+", "-")) and _SCORE.match(t)), None)
    if body.lstrip().startswith("(") or "(challenge)" in tokens or "(time)" in tokens:
        return Event(EventKind.ADJUSTMENT, line_no, player, "", recorded_score=_int(score_token, where))
    if len(tokens) >= 2 and tokens[1] == "--":
        return Event(EventKind.WITHDRAWN, line_no, player, tokens[0], recorded_score=_int(score_token, where))
    if len(tokens) >= 2 and tokens[1].startswith("-"):
        kind = EventKind.PASS if tokens[1] == "-" else EventKind.EXCHANGE
        return Event(kind, line_no, player, tokens[0], recorded_score=_int(score_token, where))
    if len(tokens) < 4 or not scores:
        raise RecordError(f"{where}: expected 'RACK POSITION WORD +SCORE TOTAL', got {body!r}")
    rack, pos_text, word = tokens[0], tokens[1], tokens[2]
    try:
        position = parse_gcg(pos_text)
    except NotationError as exc:
        raise RecordError(f"{where}: field position: {exc}") from exc
    return Event(EventKind.PLACEMENT, line_no, player, rack, position, word, _int(tokens[3], where))


def _int(token: str | None, where: str) -> int | None:
    if token is None:
        return None
    try:
        return int(token)
    except ValueError as exc:
        raise RecordError(f"{where}: field score: {token!r} is not a number") from exc


def parse_gcg_text(text: str, source: str) -> GameRecord:
    events = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        match = _GCG_MOVE.match(line.strip())
        if match:
            events.append(_gcg_event(match.group(1).strip(), match.group(2), f"{source}:{line_no}", line_no))
    return GameRecord(source, "gcg", tuple(events))


def parse_frs_log_text(text: str, source: str) -> GameRecord:
    events = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        where = f"{source}:{line_no}"
        tokens = body.split()
        if len(tokens) != 4:
            raise RecordError(f"{where}: expected 'RACK POSITION WORD SCORE', got {body!r}")
        rack, pos_text, word, score_text = tokens
        try:
            position = parse_frs(pos_text)
        except NotationError as exc:
            raise RecordError(f"{where}: field position: {exc}") from exc
        score = _int(score_text, where)
        events.append(Event(EventKind.PLACEMENT, line_no, "", rack, position, word, score))
    return GameRecord(source, "frs", tuple(events))


def read_record(path: str | Path) -> GameRecord:
    """Read a GCG file (by its `>player:` lines) or an FRS duplicate game log."""
    path = Path(path)
    try:
        text = read_text(path)
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc}") from exc
    if path.suffix.lower() == ".gcg" or any(line.startswith(">") for line in text.splitlines()):
        return parse_gcg_text(text, str(path))
    return parse_frs_log_text(text, str(path))
