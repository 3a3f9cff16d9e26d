""""Anulez turul X" (RULES.md §7, A 5.3): round X's move leaves the player's board and every later
move is replayed without it, with the very tiles it placed: kept, rescored (an adjacent word
disappeared, or a word lost letters) or cancelled (no longer legal), each with its reason.
Cancellations cascade: a cancelled move leaves the board before the next one is replayed."""
from __future__ import annotations

from collections.abc import Container, Sequence

from corrector.board import Board
from corrector.coords import Position, square_name
from corrector.placement import Move, Placement, apply_placement, place_move, word_squares
from corrector.reasons import Reason, Violation
from corrector.rulepack import RulePack
from corrector.tiles import Tile
from corrector.anticipation.outcome import CancellationRequest, MoveRuling, Outcome, Revision


def _run(board: Board, new: dict[tuple[int, int], Tile], start: tuple[int, int], horizontal: bool) -> list[tuple[int, int]]:
    """The squares of the maximal line of tiles through `start`, the new tiles included."""
    dr, dc = (0, 1) if horizontal else (1, 0)
    return word_squares(board, start[0], start[1], dr, dc, new)[1]


def replace_tiles(board: Board, old: Placement, pack: RulePack, lexicon: Container[str]) -> Placement | Violation:
    """Lay the tiles `old` placed on `board` again and judge the move they make now: one line
    without gaps, connected (or over the start square on an empty board), every word listed."""
    new = {(r, c): tile for r, c, tile in old.new_tiles}
    first = min(new)
    horizontal = old.move.position.horizontal
    squares = _run(board, new, first, horizontal)
    if len(squares) < 2 and len(new) == 1:  # a single tile may now read only the other way
        horizontal = not horizontal
        squares = _run(board, new, first, horizontal)
    gap = [sq for sq in new if sq not in squares]
    if gap:
        return Violation(Reason.WORD_SPLIT, square_name(*min(gap)))
    if len(squares) < 2:
        return Violation(Reason.NOT_CONNECTED)
    tiles = tuple(new.get(sq) or board[sq] for sq in squares)
    placed = place_move(board, Move(Position(squares[0][0], squares[0][1], horizontal), tiles), pack)
    if isinstance(placed, Violation):
        return placed
    for word in placed.words:
        if word.text not in lexicon:
            return Violation(Reason.WORD_NOT_IN_LIST, word.text)
    return placed


def board_of(moves: Sequence[MoveRuling]) -> Board:
    """The player's board: every move still on it, in the order played."""
    board = Board()
    for move in moves:
        if move.placement is not None:
            apply_placement(board, move.placement)
    return board


def cancel_round(moves: Sequence[MoveRuling], cancelled: int, at_round: int, pack: RulePack,
                 lexicon: Container[str]) -> CancellationRequest:
    """Apply "Anulez turul `cancelled`" written on the slip of `at_round` to the moves played so
    far (mutated in place: placements and revisions). Both moves of round 1 leave together."""
    if not 1 <= cancelled < at_round:
        return CancellationRequest(cancelled, False, f"round {cancelled} is not an earlier round")
    targets = [m for m in moves if m.round == cancelled and m.placement is not None]
    if not targets:
        return CancellationRequest(cancelled, False, f"round {cancelled} has no move on the board")
    for move in targets:
        move.revisions.append(Revision(at_round, cancelled, Outcome.WITHDRAWN, move.score, 0))
        move.placement = None
    board = Board()
    for move in moves:
        if move.placement is None:
            continue
        if move.round < cancelled:
            apply_placement(board, move.placement)
            continue
        old = move.placement
        result = replace_tiles(board, old, pack, lexicon)
        if isinstance(result, Violation):
            move.revisions.append(Revision(at_round, cancelled, Outcome.CANCELLED, old.score, 0, result))
            move.placement = None
            continue
        before = [w.text for w in old.words]
        after = [w.text for w in result.words]
        gone = tuple(w for w in before if w not in after)
        changed = result.score != old.score or gone or len(before) != len(after)
        outcome = Outcome.RESCORED if changed else Outcome.KEPT
        move.revisions.append(Revision(at_round, cancelled, outcome, old.score, result.score, None, gone))
        move.placement = result
        apply_placement(board, result)
    return CancellationRequest(cancelled, True)
