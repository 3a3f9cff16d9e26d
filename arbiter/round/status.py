"""`fluturas status`: where a game stands, for the arbiter at the table: the game, the round, its
group and top, how many slips are filed, decided, waiting in review, filed without a table, and
which seated tables have none, which tables were filed or changed since the last correction (the
round is then not consistent: nothing is published from it), and the board as text (duplicate: the shared board after the
round's continuation, RULES.md §5; anticipation has no shared board, RULES.md §7)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrector.placement import apply_placement
from corrector.rulepack import load_pack

from ..store.games import board_before, continuation_moves, rounds
from ..store.models import Decision, Game, Player, ReviewItem, Round, Slip
from .consistency import changed_tables


@dataclass(frozen=True)
class RoundStatus:
    """The counts of one round (slips `filed` only: superseded ones are history)."""

    number: int
    group: str
    continuation: str | None
    top_score: int | None
    state: str
    filed: int
    decided: int
    in_review: int
    without_table: int
    missing: tuple[int, ...]
    unjudged: tuple[int, ...] = ()  # tables whose slip is not what the last correction judged
    corrected: bool = False


@dataclass(frozen=True)
class GameStatus:
    game: Game
    players: int
    round: RoundStatus | None
    board: str | None  # None: anticipation (each player's own board)

    def lines(self) -> list[str]:
        g = self.game
        out = [f"game {g.id}: {g.name} ({g.kind}, {g.variant}, {g.category}, rules {g.rules}); {g.status}; "
               f"{self.players} players seated; {len(g.rounds)} rounds"]
        r = self.round
        if r is None:
            out.append("no round yet")
        else:
            top = f"{r.continuation} = {r.top_score}" if r.continuation else (
                f"top {r.top_score}" if r.top_score is not None else "no top yet")
            out.append(f"round {r.number} ({r.state}): group {r.group}; {top}")
            out.append(f"slips: {r.filed} filed, {r.decided} decided, {r.in_review} in review, "
                       f"{r.without_table} without a table, {len(r.missing)} missing"
                       + (f" (tables {', '.join(map(str, r.missing))})" if r.missing else ""))
            if r.unjudged and r.corrected:
                out.append(f"not consistent: tables {', '.join(map(str, r.unjudged))} filed or changed since the last "
                           f"correction; results are not published until `fluturas round correct` runs again")
            elif r.unjudged:
                out.append(f"not corrected yet: `fluturas round correct` judges tables "
                           f"{', '.join(map(str, r.unjudged))}")
        if self.board is not None:
            out += ["", self.board.rstrip("\n")]
        elif g.kind == "anticipation":
            out.append("each player builds an own board (RULES.md §7)")
        return out


def _count(session: Session, stmt) -> int:
    return session.scalar(select(func.count()).select_from(stmt.subquery())) or 0


def round_status(session: Session, game: Game, rnd: Round) -> RoundStatus:
    filed = select(Slip).where(Slip.round_id == rnd.id, Slip.state == "filed")
    seated = set(session.scalars(select(Player.table_no).where(Player.game_id == game.id)))
    with_slip = set(session.scalars(select(Slip.table_no).where(Slip.round_id == rnd.id, Slip.state == "filed")))
    stale = changed_tables(session, rnd)
    judged = with_slip - set(stale)
    return RoundStatus(
        number=rnd.number,
        group=rnd.rack,
        continuation=rnd.continuation,
        top_score=rnd.top_score,
        state=rnd.status,
        filed=_count(session, filed),
        decided=_count(session, select(Decision).where(Decision.round_id == rnd.id,
                                                       Decision.table_no.in_(judged))),
        in_review=_count(session, select(ReviewItem).where(ReviewItem.round_id == rnd.id, ReviewItem.state == "open")),
        without_table=_count(session, filed.where(Slip.table_no.is_(None))),
        missing=tuple(sorted(seated - with_slip)),
        unjudged=tuple(stale),
        corrected=rnd.judged is not None,
    )


def game_status(session: Session, game: Game, number: int | None = None) -> GameStatus:
    """The status of round `number` (default: the newest) and the board after it."""
    stored = rounds(session, game)
    rnd = next((r for r in stored if r.number == number), None) if number is not None else (stored[-1] if stored else None)
    if number is not None and rnd is None:
        from ..errors import WorkflowError

        raise WorkflowError(f"game {game.id} has no round {number}")
    players = _count(session, select(Player).where(Player.game_id == game.id))
    board_text = None
    if game.kind == "duplicate":
        pack = load_pack(game.rules)
        upto = rnd.number if rnd is not None else 1
        board = board_before(session, game, upto, pack)
        if rnd is not None and rnd.continuation:
            for placed in continuation_moves(board, rnd.continuation, pack, rnd.number):
                apply_placement(board, placed)
        board_text = board.to_text()
    return GameStatus(game, players, round_status(session, game, rnd) if rnd is not None else None, board_text)
