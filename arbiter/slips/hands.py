"""The players' hands as the tournament's settled slips show them (corrector/decoding/hands.py):
before a round is decoded, every settled slip (filed at a table and no longer in review: decided,
or cleared by an arbiter) teaches its player's hand how the reader reads that player's letters —
the slips of the game's earlier rounds, and the player's slips in the tournament's earlier
duplicate games, wherever the player sat then. A player keeps a pen and a hand from one game to the
next: an R the reader took for a K in the morning's game is the same R in the afternoon's. A slip
still in review teaches nothing: its letters are not settled yet; nor does a slip decided beside
a twin (a slip that may carry its table number and says the same, corrector/decoding/pile.py),
which may be the other player's paper, until an arbiter touches it."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from corrector.decoding import TWIN_NOTE, Hands

from ..store.models import AuditEntry, Game, Player, ReviewItem, Round, Slip
from ..store.store import Store


def settled_hands(store: Store, game_id: int, before_round: int) -> Hands:
    """The hands of the game's players, learnt from its settled slips of rounds before
    `before_round` and from their settled slips in the tournament's earlier duplicate games."""
    hands = Hands()
    with store.session() as s:
        game = s.get(Game, game_id)
        in_review = select(ReviewItem.slip_id).where(ReviewItem.state == "open", ReviewItem.slip_id.is_not(None))
        settled = (select(Slip).join(Round, Slip.round_id == Round.id)
                   .where(Slip.state == "filed", Slip.table_no.is_not(None), Slip.id.not_in(in_review)))
        twins = filed_beside_twins(s)
        settled = settled.where(Slip.id.not_in(twins)) if twins else settled
        seat = earlier_seats(s, game) if game is not None else {}
        if seat:
            earlier = s.scalars(settled.where(Slip.game_id.in_({g for g, _ in seat}))
                                .order_by(Slip.game_id, Round.number, Slip.id))
            for slip in earlier:
                _learn(hands, seat.get((slip.game_id, slip.table_no)), slip)
        own = s.scalars(settled.where(Slip.game_id == game_id, Round.number < before_round)
                        .order_by(Round.number, Slip.id))
        for slip in own:
            _learn(hands, slip.table_no, slip)
    return hands


def filed_beside_twins(session: Session) -> set[int]:
    """The slips whose last audited change is their filing beside a twin (`Verdict.twin_note`)."""
    filed = dict(session.execute(
        select(AuditEntry.entity_id, func.max(AuditEntry.id))
        .where(AuditEntry.entity == "slip", AuditEntry.action == "slip.file", AuditEntry.reason.contains(TWIN_NOTE))
        .group_by(AuditEntry.entity_id)).all())
    if not filed:
        return set()
    later = dict(session.execute(
        select(AuditEntry.entity_id, func.max(AuditEntry.id))
        .where(AuditEntry.entity == "slip", AuditEntry.entity_id.in_(filed)).group_by(AuditEntry.entity_id)).all())
    return {int(k) for k, at in filed.items() if later.get(k) == at and k is not None and k.isdigit()}


def _learn(hands: Hands, table: int | None, slip: Slip) -> None:
    content = slip.content or {}
    if table is not None and isinstance(slip.reading, dict):
        hands.learn(table, slip.reading, content.get("position"), content.get("word"))


def earlier_seats(session: Session, game: Game) -> dict[tuple[int, int], int]:
    """(earlier game, table there) → the table the same player holds in `game`, for the
    tournament's duplicate games stored before it. A player is the same by name and club (case and
    spaces aside); a name and club seated twice in either game names no one for sure and is left
    out."""
    here = _people(session.scalars(select(Player).where(Player.game_id == game.id)))
    earlier = session.scalars(select(Player).join(Game, Player.game_id == Game.id)
                              .where(Game.tournament_id == game.tournament_id, Game.id < game.id,
                                     Game.kind == "duplicate"))
    by_game: dict[int, list[Player]] = {}
    for p in earlier:
        by_game.setdefault(p.game_id, []).append(p)
    return {(other, table): here[person] for other, players in by_game.items()
            for person, table in _people(players).items() if person in here}


def _people(players) -> dict[tuple[str, str], int]:
    """Each player's identity → table, without the identities seated twice."""
    seen: dict[tuple[str, str], list[int]] = {}
    for p in players:
        who = (" ".join(p.name.split()).casefold(), " ".join((p.club or "").split()).casefold())
        seen.setdefault(who, []).append(p.table_no)
    return {who: tables[0] for who, tables in seen.items() if len(tables) == 1}
