"""The top of a round when the judge input says `"continuation": "top"`: every top the game
master finds (over every rack the variant allows) and its D 5.3.7 preference among equal tops."""
from __future__ import annotations

from collections import Counter

from corrector.game.continuation import find_tops, rank_tops
from corrector.judging.decision import RoundContext
from corrector.errors import CaseError
from corrector.placement import Placement
from corrector.game.variants import load_duplicate_rules


def top_move(ctx: RoundContext, where: str) -> Placement:
    from corrector.words.movegen import top_moves

    rules = load_duplicate_rules(ctx.pack)
    group = ctx.group
    stock = group.stock_counts
    tops = find_tops(ctx.board, list(group.drawn), stock, group.variant, ctx.pack, ctx.lexicon, top_moves)
    if not tops:
        raise CaseError(f"{where}: key 'continuation': the group allows no move; the game should have ended")
    in_play = stock + Counter(group.drawn)  # D 5.3.7: every letter not on the board before the move
    return rank_tops(tops, in_play, ctx.pack, rules.continuation, rules.end)[0].placement


def tactic_top(ctx_a: RoundContext, ctx_b: RoundContext, where: str) -> tuple[Placement, ...]:
    """D 8.6: the continuation of a tactic round written as `"top"`: the best pair of moves (one
    per group, either order, `corrector.game.tactic`), the D 5.3.7 choice among equal pairs."""
    from corrector.game.tactic import find_tactic_tops, rank_tactic_tops

    rules = load_duplicate_rules(ctx_a.pack)
    groups = [list(ctx_a.group.drawn), list(ctx_b.group.drawn)]
    tops = find_tactic_tops(ctx_a.board, groups, ctx_a.group.variant, ctx_a.pack, ctx_a.lexicon)
    if not tops:
        raise CaseError(f"{where}: key 'continuation': the groups allow no move; the game should have ended")
    in_play = ctx_a.group.stock_counts + Counter(groups[0])  # every letter not on the board
    best = rank_tactic_tops(tops, in_play, ctx_a.pack, rules.continuation, rules.end)[0]
    return tuple(m.placement for m in best.moves)
