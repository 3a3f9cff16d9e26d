"""The top of a round when the judge input says `"continuation": "top"`: every maximum-score
move from the move generator, and the arbiter's preferred one among equal tops (D 5.3.7)."""
from __future__ import annotations

from .decision import RoundContext
from .errors import CaseError
from .placement import Placement, place_move


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
    play = min(moves, key=_preference)
    placed = place_move(ctx.board, play.move, ctx.pack)
    assert isinstance(placed, Placement)  # the generator and the scorer agree (tested in lexgen)
    return placed


def _preference(play) -> tuple:
    """D 5.3.7 tie order, as far as it is mechanical: no joker, then more tiles, then board order
    (the arbiter may choose otherwise by writing the continuation move)."""
    return (sum(t.joker for t in play.tiles_used), -len(play.tiles_used), play.move.position, play.move.word)
