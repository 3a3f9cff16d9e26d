"""Read a judge input (CASE.json, documented in docs/judge.md) into records. The structure is
validated against `case.schema.json` first (all errors at once, sorted by path), then the
references between its parts (tables, rounds). A broken file is a CaseError naming the key and
the slip; what a slip says, however wrong, is left for `decision` to rule on."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from corrector.errors import CaseError, FluturasError
from corrector.words.lexicon import Lexicon, load_lexicon
from corrector.rulepack import RulePack, load_pack
from corrector.judging.slip import Slip, WrittenMove

_SCHEMA = Path(__file__).with_name("case.schema.json")


@dataclass(frozen=True)
class RoundInput:
    number: int
    racks: tuple[str, ...]               # one group; two in tactic
    continuation: tuple[str, ...] | None  # None: the top, found by the move generator
    slips: dict[int, Slip]
    stock: str | None
    where: str


@dataclass(frozen=True)
class Appeal:
    """A contestation ruled by the chief arbiter (D 6.5): who, when, why, and what changes."""

    table: int
    round: int
    action: str
    reason: str
    by: str
    at: str = ""
    score: int | None = None
    cap: int | None = None
    slip: Slip | None = None


@dataclass(frozen=True)
class Case:
    source: str
    pack: RulePack
    youth: bool
    variant: str
    words: Lexicon
    players: dict[int, str]
    rounds: tuple[RoundInput, ...]
    disciplinary: dict[int, tuple[int, ...]]
    cheating: dict[int, int]             # table -> round: eliminated (D 7.1.3)
    appeals: tuple[Appeal, ...]


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    return json.loads(_SCHEMA.read_text(encoding="utf-8"))


def _path(parts: list[Any]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _slip_label(data: dict[str, Any], parts: list[Any]) -> str:
    """'rounds[2].slips[4] (table 9, round 3)' for an error inside a slip."""
    if len(parts) >= 4 and parts[0] == "rounds" and parts[2] == "slips":
        try:
            slip = data["rounds"][parts[1]]["slips"][parts[3]]
            return f" (table {slip.get('table')}, round {slip.get('round')})"
        except (KeyError, IndexError, TypeError, AttributeError):
            return ""
    return ""


def _validate(data: Any, source: str) -> None:
    errors = sorted(jsonschema.Draft202012Validator(_schema()).iter_errors(data), key=lambda e: [str(p) for p in e.path])
    if errors:
        lines = []
        for err in errors:
            parts = list(err.path)
            lines.append(f"{source}: {_path(parts)}{_slip_label(data, parts)}: {err.message}")
        raise CaseError("\n".join(lines))


def _words(spec: Any, pack: RulePack, base: Path, source: str) -> Lexicon:
    """The word list, folded as the pack folds (RULES.md §1: diacritics ignored); a file path is
    relative to the CASE.json and may be any format `lexicon` reads."""
    try:
        if isinstance(spec, dict):
            return load_lexicon(base / spec["file"], pack)
        return Lexicon.from_words([w.strip() for w in spec if w.strip()], pack, label=f"{source}: words")
    except FluturasError as exc:
        raise CaseError(f"{source}: key 'words': {exc}") from exc


def _written(data: dict[str, Any]) -> WrittenMove:
    return WrittenMove(data.get("position"), data.get("word"), tuple(data.get("jokers", ())), data.get("score"))


def _slip(data: dict[str, Any], round_no: int, where: str, players: dict[int, str], tactic: bool) -> Slip:
    label = f"{where} (table {data.get('table')}, round {data.get('round')})"
    table = data.get("player_table", data.get("table"))
    if table is None:
        raise CaseError(f"{label}: key 'player_table': needed when the slip has no table number")
    if table not in players:
        key = "player_table" if "player_table" in data else "table"
        raise CaseError(f"{label}: key {key!r}: unknown table {table} (not in 'players')")
    if data.get("round") is not None and data["round"] != round_no:
        raise CaseError(f"{label}: key 'round': the slip says round {data['round']} but is filed under round {round_no}")
    if tactic:
        if "moves" not in data:
            raise CaseError(f"{label}: key 'moves': missing (a tactic slip holds two moves)")
        if "total" not in data:
            raise CaseError(f"{label}: key 'total': missing (a tactic slip declares the round total)")
        moves = tuple(_written(m) for m in data["moves"])
    else:
        for key in ("score", "position", "word"):
            if key not in data:
                raise CaseError(f"{label}: key {key!r}: missing (write null when the slip leaves it blank)")
        if "moves" in data:
            raise CaseError(f"{label}: key 'moves': only tactic slips hold several moves")
        moves = (_written(data),)
    return Slip(
        table=table, round=round_no, moves=moves, total=data.get("total"),
        table_written=data.get("table") == table, round_written=data.get("round") is not None,
        back_ok=data.get("back_ok", True),
    )


def _check_ref(table: int, round_no: int, where: str, players: dict[int, str], rounds: int) -> None:
    if table not in players:
        raise CaseError(f"{where}: key 'table': unknown table {table} (not in 'players')")
    if not 1 <= round_no <= rounds:
        raise CaseError(f"{where} (table {table}): key 'round': round {round_no} is out of range 1–{rounds}")


def _tuple(value: str | list[str]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def parse_case(data: Any, source: str = "CASE.json", base: Path = Path(".")) -> Case:
    _validate(data, source)
    try:
        pack = load_pack(data["rules"])
        if data.get("policies"):
            pack = pack.with_policies(**data["policies"])
    except FluturasError as exc:
        raise CaseError(f"{source}: rules/policies: {exc}") from exc
    tactic = data["variant"] == "tactic"
    players: dict[int, str] = {}
    for i, player in enumerate(data["players"]):
        if player["table"] in players:
            raise CaseError(f"{source}: players[{i}]: key 'table': table {player['table']} is listed twice")
        players[player["table"]] = player["name"]
    rounds: list[RoundInput] = []
    for i, rnd in enumerate(data["rounds"]):
        where = f"{source}: rounds[{i}]"
        if rnd["round"] != i + 1:
            raise CaseError(f"{where}: key 'round': expected round {i + 1}, found {rnd['round']} (rounds are listed in order)")
        racks, continuation = _tuple(rnd["rack"]), _tuple(rnd["continuation"])
        if len(racks) != (2 if tactic else 1):
            raise CaseError(f"{where}: key 'rack': a {data['variant']} round has {2 if tactic else 1} group(s)")
        slips: dict[int, Slip] = {}
        for j, slip_data in enumerate(rnd["slips"]):
            slip = _slip(slip_data, rnd["round"], f"{where}.slips[{j}]", players, tactic)
            if slip.table in slips:
                raise CaseError(f"{where}.slips[{j}] (table {slip.table}, round {rnd['round']}): key 'table': a second slip for this table")
            slips[slip.table] = slip
        top = continuation == ("top",)
        rounds.append(RoundInput(rnd["round"], racks, None if top else continuation, slips, rnd.get("stock"), where))
    disciplinary: dict[int, list[int]] = {}
    cheating: dict[int, int] = {}
    for i, entry in enumerate(data.get("disciplinary", [])):
        _check_ref(entry["table"], entry["round"], f"{source}: disciplinary[{i}]", players, len(rounds))
        if entry.get("cheating"):
            cheating[entry["table"]] = min(entry["round"], cheating.get(entry["table"], entry["round"]))
        else:
            disciplinary.setdefault(entry["table"], []).append(entry["round"])
    appeals = []
    for i, entry in enumerate(data.get("appeals", [])):
        where = f"{source}: appeals[{i}]"
        _check_ref(entry["table"], entry["round"], where, players, len(rounds))
        if entry["action"] == "set_score" and "score" not in entry:
            raise CaseError(f"{where}: key 'score': missing (set_score needs the score)")
        slip = None
        if entry["action"] == "reread":
            if "slip" not in entry:
                raise CaseError(f"{where}: key 'slip': missing (reread needs the slip as it should have been read)")
            slip = _slip({**entry["slip"], "player_table": entry["table"]}, entry["round"], f"{where}.slip", players, tactic)
        appeals.append(Appeal(entry["table"], entry["round"], entry["action"], entry["reason"], entry["by"],
                              entry.get("at", ""), entry.get("score"), entry.get("cap"), slip))
    return Case(source, pack, data["category"] == "youth", data["variant"], _words(data["words"], pack, base, source),
                players, tuple(rounds), {t: tuple(sorted(r)) for t, r in disciplinary.items()}, cheating, tuple(appeals))


def read_case(path: str | Path) -> dict:
    """A judge input file as data; an unreadable file or bad JSON names the file and the place."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(f"{path}: cannot read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise CaseError(f"{path}: not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise CaseError(f"{path}: expected a JSON object, found {type(data).__name__}")
    return data


def load_case(path: str | Path) -> Case:
    path = Path(path)
    return parse_case(read_case(path), str(path), path.parent)
