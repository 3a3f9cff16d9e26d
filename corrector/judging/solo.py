"""Solo bonus (RULES.md §4, D 5.3.8): +10 to a player who alone found the round's top, or alone
found the highest score anyone in the room found that round, in a game of at least 15 players."""
from __future__ import annotations

from collections.abc import Mapping

from corrector.rulepack import Sanctions


def find_solo(scores: Mapping[int, int], players: int, sanctions: Sanctions) -> int | None:
    """The table that earns the solo this round, or None.

    `scores` maps each table with a legal move to its score on the basis the pack's
    `solo_basis` policy names (RULES.md §4 Decision). The round's top can never be beaten, so
    "alone found the top" is the case where the room's best equals the top: one rule covers both.
    """
    if players < sanctions.solo_min_players or not scores:
        return None
    best = max(scores.values())
    finders = [table for table, score in scores.items() if score == best]
    return finders[0] if best > 0 and len(finders) == 1 else None
