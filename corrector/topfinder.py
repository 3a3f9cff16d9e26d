"""The top of a round when the judge input says `"continuation": "top"`: every maximum-score
move from the move generator, and the arbiter's preferred one among equal tops (D 5.3.7)."""
from __future__ import annotations

from .decision import RoundContext
from .errors import CaseError
from .placement import Placement


def top_move(ctx: RoundContext, where: str) -> Placement:
    try:
        from .movegen import top_moves  # type: ignore[attr-defined]
    except ImportError as exc:
        raise CaseError(f"{where}: key 'continuation': 'top' needs the move generator (corrector.movegen), "
                        "which this build lacks; write the continuation move instead") from exc
    if ctx.group.choose:
        raise CaseError(f"{where}: key 'continuation': 'top' is not available when players choose letters "
                        "from the stock; write the continuation move")
    moves = top_moves(ctx.board, list(ctx.group.drawn), ctx.pack, ctx.lexicon)
    if not moves:
        raise CaseError(f"{where}: key 'continuation': the group allows no move; the game should have ended")
    return _preferred(moves)


def _preferred(moves: list[Placement]) -> Placement:
    """D 5.3.7 tie order, as far as it is mechanical: no joker, then more tiles, then board order."""
    def key(p: Placement) -> tuple:
        jokers = sum(t.joker for _, _, t in p.new_tiles)
        return (jokers, -len(p.new_tiles), p.move.position, p.move.word)
    return min(moves, key=key)
