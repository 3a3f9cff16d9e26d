"""The group of letters a move may use (RULES.md §3 step 4: letters outside the group make it
incorrect), for a classic round: `corrector.game.variants.use_rack` with the group alone."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from corrector.game.variants import Variant, use_rack
from corrector.reasons import Violation
from corrector.rulepack import SIZE
from corrector.tiles import Tile

# No limit on the tiles placed but the board's: the group alone decides what a move may use.
GROUP_ONLY = Variant("classic", "D 5.3", drawn=7, chosen=0, use_max=SIZE, groups=1, swaps=0, draw_rule="classic")


def take_from_rack(rack: Sequence[str], new_tiles: Iterable[Tile]) -> list[str] | Violation:
    """The leave once the tiles of a move are taken from the group, or the letters missing.
    A joker tile consumes a '?'; a real letter consumes that letter only."""
    used = use_rack(GROUP_ONLY, rack, {}, new_tiles)
    return used if isinstance(used, Violation) else list(used.leave)
