"""`round scan` of a duplicate round as one function, so the command and `fluturas demo` take the
very same path: read the pile (one failing file never stops it, `arbiter.scanchecks`), decode every
slip against the stored round (`arbiter.decoding`, RULES.md §3), file each in its own transaction
(`arbiter.ingest`), and say what went to review."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .decoding import decode_readings, filed_tables, round_decoder
from .ingest import Chooser, Filed, collect_batch, file_reading, missing_tables
from .readings import SlipReading
from .scanchecks import Problems
from .store import Store

Pile = Iterable[tuple[SlipReading, object]]


@dataclass
class RoundScan:
    """What one pile did to a round: outcomes counted, slips decided against the round, review
    lines, tables still without a slip, and the files or pages that were not filed."""

    round: int
    readings: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    decoder: object | None = None  # the round's decoder; None where the variant is not decoded
    decided: int = 0
    queued: list[str] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)


def scan_round(store: Store, game_id: int, number: int, paths: Iterable[Path], threshold: float | None,
               reader: str, actor: str, choose: Chooser, parse=None,
               track: Callable[[Pile], Iterator[tuple[SlipReading, object]]] = iter,
               on_filed: Callable[[SlipReading, object, Filed], None] | None = None) -> RoundScan:
    """File a round's pile; `track` wraps the pile (a progress bar), `on_filed` sees every slip
    with the decoder's verdict and what filing did (the demo checks it against its truth)."""
    done = RoundScan(number)
    readings = collect_batch(paths, threshold, reader, done.problems, parse)
    done.readings = len(readings)
    decoder = round_decoder(store, game_id, number)
    done.decoder = decoder
    for reading, verdict in track(decode_readings(decoder, readings, filed_tables(store, game_id, number))):
        done.decided += bool(verdict and verdict.decided)
        filed = file_reading(store, game_id, number, reading, actor, choose)
        done.counts[filed.outcome] = done.counts.get(filed.outcome, 0) + 1
        if filed.outcome == "refused":
            done.problems.add(f"{filed.source}: {'; '.join(filed.review)}")
        elif filed.review:
            done.queued.append(f"{filed.source} — {'; '.join(filed.review)}")
        if on_filed is not None:
            on_filed(reading, verdict, filed)
    done.missing = missing_tables(store, game_id, number)
    return done
