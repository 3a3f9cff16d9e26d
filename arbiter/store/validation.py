"""Checks made against the game before anything is stored (issue 12): rounds that exist, tables
that are seated, letters the set has, scores that are not negative, a game not yet final. Each
refusal names the field at fault and is raised before the first write, so nothing changes."""
from __future__ import annotations

import json
import math
import re
from datetime import datetime, time
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrector.coords import parse_frs
from corrector.errors import NotationError
from corrector.rulepack import RulePack, load_pack

from ..errors import ReadingError, WorkflowError
from .models import Game, Player, ReviewItem, Round, Slip


MAX_JSON_BYTES = 64 * 2**20  # a judge output or a readings file of a whole day is a few MiB


def check_json_size(path: Path) -> None:
    """A JSON file too large to be a tournament's is refused before it is read into memory."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ReadingError(f"{path}: cannot read: {exc.strerror}") from exc
    if size > MAX_JSON_BYTES:
        raise ReadingError(f"{path}: {size / 2**20:.0f} MiB; a JSON file is at most {MAX_JSON_BYTES // 2**20} MiB")


def load_json(path: Path, what: str) -> Any:
    """A JSON file, refused with one line naming it when it is too large, not JSON, or nested too deep."""
    check_json_size(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReadingError(f"{path}: cannot read {what}: {exc}") from exc
    except RecursionError as exc:
        raise ReadingError(f"{path}: cannot read {what}: nested too deep") from exc


def require_not_final(game: Game, action: str) -> None:
    """Final results are final (D 6.5): only `results reopen --reason` lets anything change again."""
    if game.status == "final":
        raise WorkflowError(f"game {game.id}: the results are final; {action} is refused "
                            f"(`fluturas results reopen --reason ...` first)")


LARGEST = 2**31 - 1  # what the store's INTEGER columns hold on SQLite and PostgreSQL alike


def whole(value: Any, field: str, least: int, what: str) -> int:
    """`value` as a whole number from `least` to LARGEST, or a refusal naming the field."""
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= LARGEST:
        raise WorkflowError(f"{field} {value!r}: expected {what} ≥ {least}")
    return value


def require_round(session: Session, game: Game, number: Any, field: str = "--round") -> Round:
    """Round `number` of the game, or a refusal naming the field and the rounds there are."""
    whole(number, field, 1, "a round number")
    rnd = session.scalar(select(Round).where(Round.game_id == game.id, Round.number == number))
    if rnd is None:
        numbers = list(session.scalars(select(Round.number).where(Round.game_id == game.id).order_by(Round.number)))
        have = f"rounds {numbers[0]}–{numbers[-1]}" if numbers else "no round yet"
        raise WorkflowError(f"{field} {number}: game {game.id} has no such round ({have})")
    return rnd


def require_seated(session: Session, game: Game, table: Any, field: str = "table") -> Player:
    whole(table, field, 1, "a table number")
    player = session.scalar(select(Player).where(Player.game_id == game.id, Player.table_no == table))
    if player is None:
        raise WorkflowError(f"{field} {table}: table {table} is not seated in game {game.id}")
    return player


def check_points(value: Any, field: str, game: Game | None = None) -> int:
    """Points ≥ 0; with the game, also no more than one round can give (`round_ceiling`)."""
    whole(value, field, 0, "a whole number of points")
    if game is not None and value > round_ceiling(game):
        raise WorkflowError(f"{field} {value}: more than one round of this game can give "
                            f"(at most {round_ceiling(game)} points, rule pack {game.rules})")
    return value


def move_ceiling(pack: RulePack, tiles_placed: int) -> int:
    """The most one move could score by the pack's own numbers, a bound no real move reaches:
    the 15-tile main word and one cross word per tile placed, every tile the dearest letter on
    the best letter premium, every word under the best product of word premiums a line holds,
    plus the bingo bonus (RULES.md §1; in Romanian 8 × 15 × 10 × 3 × 27 + 50 = 97 250)."""
    letter = max(pack.board.premium(r, c)[0] for r in range(15) for c in range(15))
    lines = [[pack.board.premium(r, c)[1] for c in range(15)] for r in range(15)]
    lines += [[pack.board.premium(r, c)[1] for r in range(15)] for c in range(15)]
    word = max(math.prod(line) for line in lines)
    dearest = max(pack.tiles.values.values())
    return (1 + tiles_placed) * 15 * dearest * letter * word + pack.bingo_bonus


def round_ceiling(game: Game) -> int:
    """The most a round can credit (the upper bound on every score stored): a move of the
    variant's largest placement for each move a round takes (two in tactic, D 8.6, and in
    anticipation round 1, A 5.2.d)."""
    pack = load_pack(game.rules)
    tiles, moves = pack.rack_size, 2
    if game.kind != "anticipation":
        from corrector.game.variants import load_duplicate_rules

        variant = load_duplicate_rules(pack).variant(game.variant)
        tiles, moves = max(variant.use_max, variant.rack_size), variant.groups
    return moves * move_ceiling(pack, tiles)


def game_ceiling(game: Game) -> int:
    """The most a game total can reach: every round at the round bound plus its solo bonus, and
    no more rounds than tiles in the bag (each round places at least one, RULES.md §1)."""
    pack = load_pack(game.rules)
    return pack.tiles.total * (round_ceiling(game) + pack.sanctions.solo_bonus)


def total_floor(game: Game) -> int:
    """The lowest a game total can fall: a warning and a technical penalty in every round (no
    more rounds than tiles) and every disciplinary deduction up to elimination (D 6.2–6.4); in
    Romanian −(100 × (5 + 20) + 2 × 20) = −2 540. A total is never stored below it."""
    pack = load_pack(game.rules)
    rules = pack.sanctions
    return -(pack.tiles.total * (rules.warning_cost + rules.technical_penalty)
             + rules.disciplinary_eliminates_at * rules.disciplinary_deduction)


DEADLINE = re.compile(r"(\d{1,2})[:.](\d{2})")


def check_deadline(text: str, today: datetime) -> datetime:
    """The appeal deadline as notice boards write it: 'HH:MM' or 'HH.MM' today (the venue's
    time), or a full ISO date-time (date and hour); anything else ('18,30', '18') is
    refused, never read as another time."""
    clock = DEADLINE.fullmatch(text.strip())
    try:
        if clock:
            moment = datetime.combine(today.date(), time(int(clock[1]), int(clock[2])), tzinfo=today.tzinfo)
        elif re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)?", text.strip()):
            parsed = datetime.fromisoformat(text.strip())
            moment = parsed if parsed.tzinfo else parsed.replace(tzinfo=today.tzinfo)
        else:
            raise ValueError(text)
    except ValueError as exc:
        raise WorkflowError(f"--deadline {text!r}: expected HH:MM today (18:30 or 18.30) or a date-time "
                            f"2026-05-17T18:30") from exc
    return moment


def check_threshold(value: float) -> float:
    """A confidence threshold is a probability; NaN or a value outside 0–1 would file every reading."""
    if math.isnan(value) or not 0 <= value <= 1:
        raise WorkflowError(f"--threshold {value}: expected a confidence between 0 and 1")
    return value


def check_slip_fields(game: Game, content: dict[str, Any], field_prefix: str = "") -> None:
    """A duplicate slip's written fields as the judge will read them: a position on the board, a
    word of the set's letters, joker marks inside the word, a score ≥ 0 (RULES.md §2)."""
    pack = load_pack(game.rules)
    if content.get("score") is not None:
        check_points(content["score"], f"{field_prefix}score", game)
    if content.get("position") is not None:
        try:
            parse_frs(str(content["position"]))
        except (NotationError, ValueError) as exc:
            raise WorkflowError(f"{field_prefix}position {content['position']!r}: {exc}") from exc
    word = content.get("word")
    if word is not None:
        try:
            tiles = pack.tiles.parse_word(str(word))
        except (NotationError, ValueError) as exc:
            raise WorkflowError(f"{field_prefix}word {word!r}: {exc}") from exc
        for j in content.get("jokers") or ():
            if not isinstance(j, int) or not 0 <= j < len(tiles):
                raise WorkflowError(f"{field_prefix}jokers {content.get('jokers')!r}: expected tile indices "
                                    f"0–{len(tiles) - 1} of {word}")


def blockers(session: Session, game: Game, round_id: int | None = None, through: int | None = None,
             readings_only: bool = False) -> list[str]:
    """What keeps a round (or the whole game, or the rounds up to `through`) from being judged
    right: filed slips with no table and open review items (only those of readings with
    `readings_only`: a flagged decision does not change what the judge is given), each named."""
    out = []
    slips = select(Slip, Round.number).join(Round, Round.id == Slip.round_id).where(
        Slip.game_id == game.id, Slip.state == "filed", Slip.table_no.is_(None))
    items = select(ReviewItem, Round.number).join(Round, Round.id == ReviewItem.round_id).where(
        ReviewItem.game_id == game.id, ReviewItem.state == "open")
    if round_id is not None:
        slips, items = slips.where(Slip.round_id == round_id), items.where(ReviewItem.round_id == round_id)
    if through is not None:
        slips, items = slips.where(Round.number <= through), items.where(Round.number <= through)
    if readings_only:
        items = items.where(ReviewItem.kind == "reading")
    for slip, number in session.execute(slips.order_by(Slip.id)):
        out.append(f"slip {slip.id} of round {number} ({slip.source}) has no table")
    for item, number in session.execute(items.order_by(ReviewItem.id)):
        out.append(f"review item {item.id} of round {number} is open ({item.reason})")
    return out


def require_no_blockers(session: Session, game: Game, action: str, **where: Any) -> None:
    found = blockers(session, game, **where)
    if found:
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        raise WorkflowError(f"{action} refused: " + "; ".join(found[:3]) + more +
                            " (`fluturas review`, `fluturas slip discard`)")


