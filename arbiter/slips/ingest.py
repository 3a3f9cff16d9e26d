"""Filing scanned slips into a round, idempotently.

A slip is identified by the sha256 of its image and its index on that image, held unique by the
database: scanning the same pile twice, or again after a crash, neither duplicates nor drops a
slip. The same paper in other bytes (scanned again, saved as JPEG) is recognised by the ink of
its boxes (`arbiter.slips.paper`), never by its reading: two players who wrote the same move are two
slips. A rescan is kept as a discarded slip with a resolved review item (`undo review` files it);
one the machine only suspects is filed, in review beside the other. Each slip is filed in its own
transaction, the game's row held (`lock_game`), with its audit entry and review items, so a
kill -9 loses at most the slip in flight, which the re-run files, and two scans at once never file
one paper twice. A second, different slip for a table already filed is never merged silently:
`choose` says which one to keep, the other stays in the store as `superseded`, in review. A slip
discarded earlier (a wrong pile) scanned again is filed anew where it is scanned."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from exitcodes import FluturasError

from ..errors import MissingComponent, ReadingError
from ..store.audit import Change, record
from ..store.models import Game, Player, ReviewItem, Round, Slip, utcnow
from ..store.store import Store
from . import paper
from .readings import Parser, SlipReading, parse_reading, read_readings_file
from .scanchecks import DEFAULT_THRESHOLD, Problems, guarded, qr_problem, scan_ahead, scan_records

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
    item: int | None = None  # the review item it opened (or the one that set it aside)
    others: tuple[str, ...] = ()  # slips already stored that this one sent to review, with their items


def collect_readings(paths: Iterable[Path], threshold: float | None, reader: str = "cnn",
                     parse: Parser = parse_reading, problems: Problems | None = None,
                     ahead: dict[str, list] | None = None) -> Iterator[SlipReading]:
    """Readings files are read here; images go through the scanner (issue 5), or come from the
    pile's scan done ahead in worker processes (`ahead`, `scanchecks.scan_ahead`). `parse` turns one
    record into a reading (an anticipation game has its own, `arbiter.anticipation.slips`). A
    threshold of None: the reader's calibrated one for images, DEFAULT_THRESHOLD for readings files.
    Pages with no slip and unreadable images go to `problems` (`arbiter.slips.scanchecks`)."""
    for path in paths:
        if path.is_dir():
            yield from collect_readings(sorted(p for p in path.iterdir()
                                               if p.suffix.lower() in READING_SUFFIXES + IMAGE_SUFFIXES),
                                        threshold, reader, parse, problems, ahead)
        elif not path.exists():
            raise ReadingError(f"{path}: no such file")
        elif path.suffix.lower() in READING_SUFFIXES:
            yield from read_readings_file(path, DEFAULT_THRESHOLD if threshold is None else threshold, parse)
        else:
            yield from _scan_image(path, threshold, reader, parse, problems, ahead)


def _scan_image(path: Path, threshold: float | None, reader: str, parse: Parser,
                problems: Problems | None, ahead: dict[str, list] | None = None) -> Iterator[SlipReading]:
    """The scanner reads the image (issue 5); the slip's identity is the image's own sha256."""
    try:
        from scanner import ScannerError
    except ImportError as exc:
        raise MissingComponent(f"{path}: reading images needs the scanner (scanner.scan_paths); "
                               f"pass the scanner's readings .jsonl instead") from exc
    try:
        for number, raw in enumerate(scan_records(path, reader, threshold, problems, ahead)):
            yield parse(raw, f"{path}: slip {number + 1}", DEFAULT_THRESHOLD if threshold is None else threshold, None)
    except ScannerError as exc:
        raise ReadingError(f"{path}: {exc}") from exc


@dataclass
class PileRef:
    """One scan's pile: its number is the id of the audit entry written with its first stored slip
    (a scan that stores nothing leaves no trace), naming the round and the files."""

    files: list[str]
    id: int | None = None

    def number(self, session: Session, actor: str, rnd: Round, game_id: int) -> int:
        if self.id is None:
            entry = record(session, actor, Change("scan.pile", "round", rnd.number,
                                                  after={"round": rnd.number, "files": self.files}), game_id)
            session.flush()
            return entry.id
        return self.id


def file_reading(store: Store, game_id: int, round_number: int, reading: SlipReading, actor: str,
                 choose: Chooser, pile: PileRef | None = None) -> Filed:
    """File one slip in its own transaction (retried once if another arbiter filed it meanwhile)."""
    try:
        filed, number = _file(store, game_id, round_number, reading, actor, choose, pile)
    except IntegrityError:
        filed, number = _file(store, game_id, round_number, reading, actor, choose, pile)
    if pile is not None and number is not None:
        pile.id = number  # committed with the slip
    return filed


def lock_game(session: Session, game_id: int) -> None:
    """Take the game's row for the rest of the transaction, so two scans of the same paper (other
    bytes, run at once) file one after the other and the second sees the first. As the first
    statement of a transaction this is SQLite's write lock; on PostgreSQL a row lock."""
    session.execute(text("UPDATE game SET status = status WHERE id = :g"), {"g": game_id})


def _file(store: Store, game_id: int, round_number: int, reading: SlipReading, actor: str, choose: Chooser,
          pile_ref: PileRef | None) -> tuple[Filed, int | None]:
    with store.session() as session:
        lock_game(session, game_id)
        rnd = session.scalar(select(Round).where(Round.game_id == game_id, Round.number == round_number))
        assert rnd is not None, "round checked by the caller"
        same = session.scalar(select(Slip).where(Slip.game_id == game_id, Slip.sha256 == reading.sha256,
                                                 Slip.slip_index == reading.slip_index))
        if same is not None and same.state != "discarded":
            return Filed("duplicate", same.id, same.table_no, reading.source), None
        refused, qr_reason = qr_problem(session.get(Game, game_id), rnd.number, reading.raw.get("qr"))
        if refused:
            return Filed("refused", 0, None, reading.source, (refused,)), None
        ink = reading.raw.get("ink") if isinstance(reading.raw.get("ink"), str) else None
        twin, far = nearest_paper(session, game_id, ink, None if same is None else same.id,
                                  reading.sha256, reading.raw.get("qr"))
        if twin is not None and far <= paper.SAME and same is not None:
            return Filed("duplicate", twin.id, twin.table_no, reading.source), None  # discarded bytes of a filed paper
        table = reading.table if "table" not in reading.unsure else None
        seated = table is not None and session.scalar(
            select(Player.id).where(Player.game_id == game_id, Player.table_no == table)) is not None
        pile = None if pile_ref is None else pile_ref.number(session, actor, rnd, game_id)
        before = None if same is None else {"state": same.state, "round": same.round_id, "table": same.table_no}
        slip = same or Slip(game_id=game_id, sha256=reading.sha256, slip_index=reading.slip_index)
        slip.round_id, slip.table_no, slip.source, slip.reading = rnd.id, table if seated else None, reading.source, reading.raw
        slip.content, slip.confidence, slip.ink_print, slip.pile = reading.content(), reading.confidence, ink, pile
        if twin is not None and far <= paper.SAME:  # the same paper scanned again: kept, discarded, undoable
            slip.state = "discarded"
            session.add(slip)
            session.flush()
            why = f"the same paper as slip {twin.id} ({_where(session, twin)}) scanned again"
            item = ReviewItem(game_id=game_id, round_id=rnd.id, slip_id=slip.id, table_no=slip.table_no, kind="reading",
                              reason=why, state="resolved", resolved_by=actor, resolved_at=utcnow(),
                              resolution={"action": "discard", "as": "duplicate", "reason": why})
            session.add(item)
            session.flush()
            _audit_filed(session, actor, slip, rnd, game_id, before, why)
            return Filed("duplicate", slip.id, slip.table_no, reading.source, (why,), item.id), pile
        slip.state = "filed"
        outcome = "filed"
        other = None
        if slip.table_no is not None:
            other = session.scalar(select(Slip).where(Slip.round_id == rnd.id, Slip.table_no == slip.table_no,
                                                      Slip.state == "filed", Slip.id != slip.id))
        reasons: list[str] = []
        if other is not None:
            keep = choose(other, reading)
            loser = other if keep == "new" else slip
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
        others: list[str] = []
        if other is not None:  # two papers for one table: one may be another player's, its table misread
            winner = slip if loser is other else other
            why = (f"table {slip.table_no} has two slips in round {rnd.number}: slip {winner.id} is filed, slip "
                   f"{loser.id} ({loser.source}) is set aside; if it is another player's slip, correct its table "
                   f"(c masa=N), else discard it or accept it as set aside")
            if loser is other:
                others.append(_open_item(session, other, rnd, why))
            else:
                reasons.append(why)
        if twin is not None and far <= paper.SUSPECT:  # perhaps the same paper: both wait for an arbiter
            reasons.append(f"perhaps the same paper as slip {twin.id} ({_where(session, twin)}) scanned again: "
                           f"discard one (`fluturas slip discard ID --as duplicate`) or accept both")
            others.append(_open_item(session, twin, session.get(Round, twin.round_id),
                                     f"perhaps scanned again as slip {slip.id} ({slip.source}) in round {rnd.number}"))
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
            reasons += reading.notes
        item_id = None
        if reasons:  # one queue item per slip, with every reason the arbiter must see
            item = ReviewItem(game_id=game_id, round_id=rnd.id, slip_id=slip.id, table_no=slip.table_no,
                              kind="reading", reason="; ".join(reasons), candidates=reading.candidates)
            session.add(item)
            session.flush()
            item_id = item.id
        _audit_filed(session, actor, slip, rnd, game_id, before, reading.in_hand or None)
        return Filed(outcome, slip.id, slip.table_no, reading.source, tuple(reasons), item_id,
                     tuple(o for o in others if o)), pile


def _audit_filed(session: Session, actor: str, slip: Slip, rnd: Round, game_id: int, before: dict | None,
                 reason: str | None = None) -> None:
    record(session, actor, Change("slip.file", "slip", slip.id, before=before,
                                  after={"round": rnd.number, "table": slip.table_no, "state": slip.state,
                                         "source": slip.source, "sha256": slip.sha256, "pile": slip.pile,
                                         "slip_index": slip.slip_index, "content": slip.content},
                                  reason=reason), game_id)


def _where(session: Session, slip: Slip) -> str:
    rnd = session.get(Round, slip.round_id)
    table = slip.table_no if slip.table_no is not None else "?"
    return f"round {rnd.number}, table {table}, {slip.source}"


def _open_item(session: Session, slip: Slip, rnd: Round, reason: str) -> str:
    """An open review item for a slip already stored (unless it has one): the arbiter sees it.
    The line that says so, naming the item."""
    have = session.scalar(select(ReviewItem.id).where(ReviewItem.slip_id == slip.id, ReviewItem.state == "open"))
    if have is None:
        item = ReviewItem(game_id=slip.game_id, round_id=rnd.id, slip_id=slip.id, table_no=slip.table_no,
                          kind="reading", reason=reason)
        session.add(item)
        session.flush()
        have = item.id
    return f"{slip.source} — {reason} (item {have})"


def nearest_paper(session: Session, game_id: int, ink: str | None, besides: int | None,
                  image: str | None = None, qr: str | None = None) -> tuple[Slip | None, float]:
    """The stored slip (not discarded) whose ink is nearest this print, and how far (`arbiter.slips.paper`).
    Never a slip of the same image (a page holds a paper once) nor a pre-filled slip whose QR names
    another table or round (two printed papers): however alike two hands write one move, those are
    two papers."""
    if ink is None:
        return None, float("inf")
    best, far = None, float("inf")
    query = select(Slip.id, Slip.ink_print, Slip.sha256, Slip.reading).where(
        Slip.game_id == game_id, Slip.ink_print.is_not(None), Slip.state != "discarded")
    for slip_id, other, other_image, other_reading in session.execute(query):
        if slip_id == besides or (image is not None and other_image == image):
            continue
        other_qr = other_reading.get("qr") if isinstance(other_reading, dict) else None
        if qr and other_qr and qr != other_qr:
            continue
        d = paper.distance(ink, other)
        if d < far:
            best, far = slip_id, d
    return (session.get(Slip, best) if best is not None else None), far


MISSING_NOTE = "; tables of this round without a slip: "


def flag_missing(store: Store, game_id: int, round_number: int) -> list[int]:
    """Seated tables with no slip while slips of the round wait set aside or without a table: one
    of those may be a missing table's paper, its number misread. Each waiting slip's review item
    names them (kept up to date after every scan), so the arbiter resolving it sees whose slip it
    may be, and no player is scored missing unseen while their paper is in the store. Returns
    the tables named."""
    with store.session() as session:
        lock_game(session, game_id)
        rnd = session.scalar(select(Round).where(Round.game_id == game_id, Round.number == round_number))
        seated = set(session.scalars(select(Player.table_no).where(Player.game_id == game_id)))
        filed = set(session.scalars(select(Slip.table_no).where(Slip.round_id == rnd.id, Slip.state == "filed")))
        missing = sorted(seated - filed)
        items = list(session.scalars(
            select(ReviewItem).join(Slip, ReviewItem.slip_id == Slip.id)
            .where(Slip.round_id == rnd.id, ReviewItem.state == "open",
                   (Slip.state == "superseded") | ((Slip.state == "filed") & Slip.table_no.is_(None)))))
        note = f"{MISSING_NOTE}{', '.join(map(str, missing))} (it may be one of theirs)" if missing else ""
        for item in items:
            reason = item.reason.split(MISSING_NOTE)[0] + note
            if reason != item.reason:
                item.reason = reason  # the version is the resolution's compare-and-set: a note does not move it
        return missing if items else []


def missing_tables(store: Store, game_id: int, round_number: int) -> list[int]:
    """Seated tables with no filed slip in the round (a missing slip scores 0, RULES.md §4)."""
    with store.session() as session:
        rnd = session.scalar(select(Round).where(Round.game_id == game_id, Round.number == round_number))
        seated = set(session.scalars(select(Player.table_no).where(Player.game_id == game_id)))
        filed = set(session.scalars(select(Slip.table_no).where(Slip.round_id == rnd.id, Slip.state == "filed")))
    return sorted(seated - filed)


def collect_batch(paths: Iterable[Path], threshold: float | None, reader: str, problems: Problems,
                  parse=None) -> list:
    """Every file of the pile, in order: a file that fails is reported and the others are read. The
    pile's images are scanned first, side by side in worker processes (`scanchecks.scan_ahead`)."""
    from ..store.validation import check_json_size

    out = []
    files = _expand(paths)
    ahead = _scan_ahead(files, reader)
    for path in files:
        try:
            if path.suffix.lower() in READING_SUFFIXES:
                check_json_size(path)
            out.extend(collect_readings([path], threshold, reader, guarded(parse or parse_reading), problems=problems,
                                        ahead=ahead))
        except FluturasError as exc:
            problems.add(str(exc))
        except RecursionError:
            problems.add(f"{path}: JSON nested too deep; not filed")
    return out


def _scan_ahead(files: list[Path], reader: str) -> dict[str, list]:
    """The pile's images read ahead (`scanchecks.scan_ahead`); none without the scanner installed."""
    images = [p for p in files if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()]
    if not images:
        return {}
    try:
        return scan_ahead(images, reader)
    except ImportError:
        return {}  # without the scanner, each image reports it where it lies


def _expand(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out += sorted(p for p in path.iterdir() if p.suffix.lower() in READING_SUFFIXES + IMAGE_SUFFIXES)
        else:
            out.append(path)
    return out
