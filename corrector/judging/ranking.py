"""The one ranking function family (RULES.md §4, §6; D 6.6, D 8.4): totals with shared places,
the percentage of the game's top, and the duplicate-top ranking with its tie-breaks."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass


def shared_places(keys: Mapping[int, Hashable], order: Callable[[int], tuple]) -> dict[int, int]:
    """Place of each table, sorted by `order`; equal keys share the higher place (D 6.6: 1, 2, 2, 4)."""
    ranked = sorted(keys, key=lambda table: (order(table), table))
    places: dict[int, int] = {}
    for i, table in enumerate(ranked):
        previous = ranked[i - 1] if i else None
        places[table] = places[previous] if previous is not None and keys[previous] == keys[table] else i + 1
    return places


def rank_totals(totals: Mapping[int, int]) -> dict[int, int]:
    """D 6.6: total descending, no tie-break. Eliminated players are left out by the caller."""
    return shared_places(totals, lambda table: (-totals[table],))


def percent_of_top(total: int, top_total: int) -> float:
    """A total as a percentage of the game's top (the sum of the top moves), two decimals."""
    return round(100.0 * total / top_total, 2) if top_total else 0.0


@dataclass(frozen=True)
class TopRecord:
    """A player in a duplicate-top game (D 8.4): tops after deductions, then the tie-breaks."""

    tops: int
    found: int
    finders_sum: int
    top_points: int

    def key(self) -> tuple[int, int, int]:
        # Tie-breaks: (1) smaller sum of finders over the player's top rounds, (2) larger top points.
        return (-self.tops, self.finders_sum, -self.top_points)


def rank_tops(records: Mapping[int, TopRecord]) -> dict[int, int]:
    keys = {table: record.key() for table, record in records.items()}
    return shared_places(keys, lambda table: keys[table])
