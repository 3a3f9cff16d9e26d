"""What the arbiter knows about a round before reading any slip: the board, the group, the word
list (the judge's `RoundContext`), the round number, the seated tables, and every legal move of
the round written as a slip writes it (position in FRS form, whole main word, jokers marked)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from corrector.judging.decision import RoundContext
from corrector.words.movegen import Play, generate_moves


@dataclass(frozen=True)
class LegalMove:
    """A legal move as a slip writes it: `word` in capitals, `jokers` the marked letters."""

    position: str
    word: str
    jokers: tuple[int, ...]
    score: int


@dataclass(frozen=True)
class RoundKnowledge:
    """The round a batch of slips belongs to. `moves` are best first."""

    ctx: RoundContext
    round: int
    tables: frozenset[int]
    moves: tuple[LegalMove, ...]
    words: tuple[str, ...]
    top_score: int

    @classmethod
    def build(cls, ctx: RoundContext, round_no: int, tables: Sequence[int],
              plays: Sequence[Play] | None = None) -> "RoundKnowledge":
        """`plays` from the move generator on the round's board and group (computed when None)."""
        if plays is None:
            plays = generate_moves(ctx.board, list(ctx.group.drawn), ctx.pack, ctx.lexicon)
        seen: dict[tuple[str, str, tuple[int, ...]], LegalMove] = {}
        for p in plays:
            word = p.move.word
            move = LegalMove(p.move.position.frs(), word.upper(), tuple(i for i, ch in enumerate(word) if ch.islower()),
                             p.score)
            key = (move.position, move.word, move.jokers)
            if key not in seen or seen[key].score < move.score:
                seen[key] = move
        moves = tuple(sorted(seen.values(), key=lambda m: -m.score))
        return cls(ctx, round_no, frozenset(tables), moves, tuple(m.word for m in moves),
                   moves[0].score if moves else 0)

    def move_logprior(self, other_weight: float) -> np.ndarray:
        """log prior weight of each legal move relative to a top (weight 1): `other_weight` for the
        rest. Per move, not shared out over the round's moves: a legal move is a far likelier thing
        to write than any one free string, however many moves the round has."""
        scores = np.array([m.score for m in self.moves])
        return np.where(scores == self.top_score, 0.0, np.log(other_weight))
