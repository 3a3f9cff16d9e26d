"""The group of letters a move may use (RULES.md §3 step 4: letters outside the group make it incorrect)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from corrector.reasons import Reason, Violation
from corrector.tiles import JOKER, Tile


def take_from_rack(rack: Sequence[str], new_tiles: Iterable[Tile]) -> list[str] | Violation:
    """Remove the tiles a move places from the group; return the leave, or the letters missing.

    A joker tile consumes a '?'; a real letter consumes that letter only.
    """
    left = Counter(rack)
    missing: list[str] = []
    for tile in new_tiles:
        key = JOKER if tile.joker else tile.letter
        if left[key] > 0:
            left[key] -= 1
        else:
            missing.append(str(tile) if not tile.joker else f"?({tile.letter.lower()})")
    if missing:
        return Violation(Reason.LETTERS_NOT_IN_GROUP, "".join(missing))
    leave: list[str] = []
    for letter in rack:  # keep the group's own order
        if left[letter] > 0:
            leave.append(letter)
            left[letter] -= 1
    return leave
