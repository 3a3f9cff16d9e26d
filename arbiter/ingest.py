"""Filing scanned slips into a round, idempotently.

A slip is identified by the sha256 of its image and its index on that image, held unique by the
database: scanning the same pile twice, or again after a crash, neither duplicates nor drops a
slip. Each slip is filed in its own transaction with its audit entry and review items, so a
kill -9 loses at most the slip in flight, which the re-run files. A second, different slip for a
table already filed is never merged silently: `choose` says which one to keep, the other stays
in the store as `superseded`."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from exitcodes import FluturasError

from .audit import Change, record
from .errors import MissingComponent, ReadingError
from .models import Game, Player, ReviewItem, Round, Slip
from .readings import Parser, SlipReading, parse_reading, read_readings_file
from .scanchecks import DEFAULT_THRESHOLD, Problems, guarded, qr_problem, same_paper, scan_records
from .store import Store

Keep = Literal["old", "new"]
Chooser = Callable[[Slip, SlipReading], Keep]
READING_SUFFIXES = (".json", ".jsonl")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".pdf")


@dataclass(frozen=True)
class Filed:
    """What happened to one reading: filed, duplicate (already in the store) or superseded."""

    outcome: str
    slip_id: int
    table: int | None
    source: str
    review: tuple[str, ...] = ()


def collect_readings(paths: Iterable[Path], threshold: float | None, reader: str = "cnn",
                     parse: Parser = parse_reading, problems: Problems | None = None) -> Iterator[SlipReading]:
    """Readings files are read here; images go through the scanner (issue 5). `parse` turns one
    record into a reading (an anticipation game has its own, `arbiter.anticipation.slips`). A
    threshold of None: the reader's calibrated one for images, DEFAULT_THRESHOLD for readings files.
    Pages with no slip and unreadable images go to `problems` (`arbiter.scanchecks`)."""
    for path in paths:
        if path.is_dir():
            yield from collect_readings(sorted(p for p in path.iterdir()
                                               if p.suffix.lower() in READING_SUFFIXES + IMAGE_SUFFIXES),
                                        threshold, reader, parse, problems)
        elif not path.exists():
            raise ReadingError(f"{path}: no such file")
        elif path.suffix.lower() in READING_SUFFIXES:
            yield from read_readings_file(path, DEFAULT_THRESHOLD if threshold is None else threshold, parse)
        else:
            yield from _scan_image(path, threshold, reader, parse, problems)


def _scan_image(path: Path, threshold: float | None, reader: str, parse: Parser,
                problems: Problems | None) -> Iterator[SlipReading]:
    """The scanner reads the image (issue 5); the slip's identity is the image's own sha256."""
    try:
        from scanner import ScannerError
    except ImportError as exc:
        raise MissingComponent(f"{path}: reading images needs the scanner (scanner.scan_paths); "
                               f"pass the scanner's readings .jsonl instead") from exc
    try:
        for number, raw in enumerate(scan_records(path, reader, threshold, problems)):
            yield parse(raw, f"{path}: slip {number + 1}", DEFAULT_THRESHOLD if threshold is None else threshold, None)
    except ScannerError as exc:
        raise ReadingError(f"{path}: {exc}") from exc


def file_reading(store: Store, game_id: int, round_number: int, reading: SlipReading, actor: str,
                 choose: Chooser) -> Filed:
    """File one slip in its own transaction (retried once if another arbiter filed it meanwhile)."""
    try:
        return _file(store, game_id, round_number, reading, actor, choose)
    except IntegrityError:
        return _file(store, game_id, round_number, reading, actor, choose)


def _file(store: Store, game_id: int, round_number: int, reading: SlipReading, actor: str, choose: Chooser) -> Filed:
    with store.session() as session:
        rnd = session.scalar(select(Round).where(Round.game_id == game_id, Round.number == round_number))
        assert rnd is not None, "round checked by the caller"
        same = session.scalar(select(Slip).where(Slip.game_id == game_id, Slip.sha256 == reading.sha256,
                                                 Slip.slip_index == reading.slip_index))
        if same is not None:
            return Filed("duplicate", same.id, same.table_no, reading.source)
        refused, qr_reason = qr_problem(session.get(Game, game_id), rnd.number, reading.raw.get("qr"))
        if refused:
            return Filed("refused", 0, None, reading.source, (refused,))
        paper = same_paper(session, game_id, rnd.id, reading.content())
        if paper is not None:  # the same paper scanned again: other bytes, same slip
            return Filed("duplicate", paper.id, paper.table_no, reading.source)
        table = reading.table if "table" not in reading.unsure else None
        seated = table is not None and session.scalar(
            select(Player.id).where(Player.game_id == game_id, Player.table_no == table)) is not None
        slip = Slip(game_id=game_id, round_id=rnd.id, table_no=table if seated else None, sha256=reading.sha256,
                    slip_index=reading.slip_index, source=reading.source, reading=reading.raw,
                    content=reading.content(), confidence=reading.confidence, state="filed")
        outcome = "filed"
        other = None
        if slip.table_no is not None:
            other = session.scalar(select(Slip).where(Slip.round_id == rnd.id, Slip.table_no == slip.table_no,
                                                      Slip.state == "filed"))
        if other is not None:
            keep = choose(other, reading)
            if keep == "new":
                other.state = "superseded"
                session.flush()  # the old one leaves the one-filed-slip-per-table index first
                record(session, actor, Change("slip.supersede", "slip", other.id, before={"state": "filed"},
                                              after={"state": "superseded"},
                                              reason=f"replaced by {reading.source}"), game_id)
            else:
                slip.state, outcome = "superseded", "superseded"
        session.add(slip)
        session.flush()
        reasons: list[str] = []
        if slip.state == "filed":
            if table is None:
                reasons.append("table number unreadable")
            elif not seated:
                reasons.append(f"table {table} is not seated")
            unsure = [f for f in reading.unsure if f not in ("table", "decoder")]
            if reading.doubt:
                reasons.append(f"decoder: {reading.doubt}")
            if unsure:
                reasons.append("unsure: " + ", ".join(unsure))
            if reading.round is not None and "round" not in reading.unsure and reading.round != rnd.number:
                reasons.append(f"the slip says round {reading.round}, filed in round {rnd.number}")
            if qr_reason:
                reasons.append(qr_reason)
            if reasons:  # one queue item per slip, with every reason the arbiter must see
                session.add(ReviewItem(game_id=game_id, round_id=rnd.id, slip_id=slip.id, table_no=slip.table_no,
                                       kind="reading", reason="; ".join(reasons), candidates=reading.candidates))
        record(session, actor, Change("slip.file", "slip", slip.id,
                                      after={"round": rnd.number, "table": slip.table_no, "state": slip.state,
                                             "source": slip.source, "sha256": slip.sha256,
                                             "slip_index": slip.slip_index, "content": slip.content}), game_id)
        return Filed(outcome, slip.id, slip.table_no, reading.source, tuple(reasons))


def missing_tables(store: Store, game_id: int, round_number: int) -> list[int]:
    """Seated tables with no filed slip in the round (a missing slip scores 0, RULES.md §4)."""
    with store.session() as session:
        rnd = session.scalar(select(Round).where(Round.game_id == game_id, Round.number == round_number))
        seated = set(session.scalars(select(Player.table_no).where(Player.game_id == game_id)))
        filed = set(session.scalars(select(Slip.table_no).where(Slip.round_id == rnd.id, Slip.state == "filed")))
    return sorted(seated - filed)


def collect_batch(paths: Iterable[Path], threshold: float | None, reader: str, problems: Problems,
                  parse=None) -> list:
    """Every file of the pile, one at a time: a file that fails is reported and the others are read."""
    from .validation import check_json_size

    out = []
    for path in _expand(paths):
        try:
            if path.suffix.lower() in READING_SUFFIXES:
                check_json_size(path)
            out.extend(collect_readings([path], threshold, reader, guarded(parse or parse_reading), problems=problems))
        except FluturasError as exc:
            problems.add(str(exc))
        except RecursionError:
            problems.add(f"{path}: JSON nested too deep; not filed")
    return out


def _expand(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.suffix.lower() in READING_SUFFIXES + IMAGE_SUFFIXES)
        else:
            out.append(path)
    return out
