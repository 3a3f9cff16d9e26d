"""`round scan` of a duplicate round as one function, so the command and `fluturas demo` take the
very same path: read the pile (one failing file never stops it, `arbiter.slips.scanchecks`), ask when
the pile mostly names another round (the wrong pile), decode every slip against the stored round
(`arbiter.slips.decoding`, RULES.md §3), file each in its own transaction (`arbiter.slips.ingest`) under one
pile number (`slip discard --pile N` takes the whole pile back), and say what went to review."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from exitcodes import ExitCode, FluturasError

from ..store.games import get_game
from ..store.store import Store
from ..store.validation import require_round
from .decoding import decode_readings, filed_tables, has_boxes, round_decoder
from .ingest import Chooser, Filed, PileRef, collect_batch, file_reading, flag_missing, missing_tables
from .readings import SlipReading
from .scanchecks import Problems

Pile = Iterable[tuple[SlipReading, object]]
WRONG_PILE_LEAST = 3  # fewer slips of another round are late slips, each in review as it says
Mismatch = Literal["file", "move"]


@dataclass(frozen=True)
class WrongPile:
    """Most slips of the pile whose round was read name another round than the one scanned."""

    scanned: int
    named: int
    naming: int  # slips that name `named`
    slips: int

    def question(self) -> str:
        return (f"{self.naming} of {self.slips} slips say round {self.named}, not round {self.scanned}: "
                f"the wrong pile?")


class WrongPileRefused(FluturasError):
    """The wrong pile and no choice given: nothing was filed."""

    exit_code = ExitCode.BAD_INPUT


def wrong_pile(readings: list[SlipReading], number: int) -> WrongPile | None:
    """The pile's round as its slips write it, when most of the pile (and at least
    WRONG_PILE_LEAST slips) names another round."""
    named = Counter(r.round for r in readings if r.round is not None and "round" not in r.unsure)
    if not named:
        return None
    other, count = named.most_common(1)[0]
    if other == number or 2 * count <= len(readings) or count < WRONG_PILE_LEAST:
        return None
    return WrongPile(number, other, count, len(readings))


def refuse_wrong_pile(found: WrongPile) -> Mismatch:
    raise WrongPileRefused(f"round scan refused, nothing filed: {found.question()} Scan it with --round "
                           f"{found.named}, or pass --round-mismatch move (file it in round {found.named}) or "
                           f"--round-mismatch file (file it in round {found.scanned}, every slip in review)")


@dataclass
class RoundScan:
    """What one pile did to a round: outcomes counted, slips filed as decided against the round,
    review lines, tables still without a slip, the files or pages not filed, the pile's number."""

    round: int
    readings: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    decoder: object | None = None  # the round's decoder; None where the variant is not decoded
    decided: int = 0
    queued: list[str] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    pile: int | None = None
    rescans: list[str] = field(default_factory=list)  # the same paper again, set aside (each undoable)
    flagged: list[int] = field(default_factory=list)  # tables without a slip put in review
    others: list[str] = field(default_factory=list)  # slips stored earlier that this pile sent to review


def scan_round(store: Store, game_id: int, number: int, paths: Iterable[Path], threshold: float | None,
               reader: str, actor: str, choose: Chooser, parse=None,
               track: Callable[[Pile], Iterator[tuple[SlipReading, object]]] = iter,
               on_filed: Callable[[SlipReading, object, Filed], None] | None = None,
               on_wrong_pile: Callable[[WrongPile], Mismatch] = refuse_wrong_pile) -> RoundScan:
    """File a round's pile; `track` wraps the pile (a progress bar), `on_filed` sees every slip
    with the decoder's verdict and what filing did (the demo checks it against its truth);
    `on_wrong_pile` says what to do with a pile that mostly names another round: file it here
    (every slip in review), move it to the round it names, or raise (the default; nothing filed)."""
    paths = list(paths)
    problems = Problems()
    readings = collect_batch(paths, threshold, reader, problems, parse)
    found = wrong_pile(readings, number)
    if found is not None:
        if on_wrong_pile(found) == "move":
            with store.session() as s:
                require_round(s, get_game(s, game_id), found.named, "the pile's round")
            number = found.named
        else:
            note = f"the pile mostly says round {found.named}, filed in round {number} (the wrong pile?)"
            readings = [replace(r, notes=r.notes + (note,)) for r in readings]
    done = RoundScan(number, problems=problems)
    done.readings = len(readings)
    decoder = round_decoder(store, game_id, number) if any(map(has_boxes, readings)) else None
    done.decoder = decoder
    pile = PileRef([str(p) for p in paths])
    for reading, verdict in track(decode_readings(decoder, readings, filed_tables(store, game_id, number), threshold)):
        filed = file_reading(store, game_id, number, reading, actor, choose, pile)
        done.decided += bool(verdict and verdict.decided and filed.outcome == "filed" and not filed.review)
        done.counts[filed.outcome] = done.counts.get(filed.outcome, 0) + 1
        if filed.outcome == "refused":
            done.problems.add(f"{filed.source}: {'; '.join(filed.review)}")
        elif filed.outcome == "duplicate" and filed.item is not None:
            done.rescans.append(f"{filed.source} — {'; '.join(filed.review)} (item {filed.item})")
        elif filed.review:
            item = f" (item {filed.item})" if filed.item is not None else ""
            done.queued.append(f"{filed.source} — {'; '.join(filed.review)}{item}")
        done.others += filed.others
        if on_filed is not None:
            on_filed(reading, verdict, filed)
    if readings:
        done.flagged = flag_missing(store, game_id, number)
    done.missing = missing_tables(store, game_id, number)
    done.pile = pile.id
    return done

