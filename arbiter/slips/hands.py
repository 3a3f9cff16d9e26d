"""The players' hands as a game's settled slips show them (corrector/decoding/hands.py): before a
round is decoded, every slip of the game's earlier rounds filed at a table and no longer in review
(decided, or cleared by an arbiter) teaches that table's hand how the reader reads its player's
letters. A slip still in review teaches nothing: its letters are not settled yet."""
from __future__ import annotations

from sqlalchemy import select

from corrector.decoding import Hands

from ..store.models import ReviewItem, Round, Slip
from ..store.store import Store


def settled_hands(store: Store, game_id: int, before_round: int) -> Hands:
    """The hands of the game's players, learnt from its settled slips of rounds before `before_round`."""
    hands = Hands()
    with store.session() as s:
        in_review = select(ReviewItem.slip_id).where(ReviewItem.state == "open", ReviewItem.slip_id.is_not(None))
        slips = s.scalars(select(Slip).join(Round, Slip.round_id == Round.id)
                          .where(Slip.game_id == game_id, Round.number < before_round, Slip.state == "filed",
                                 Slip.table_no.is_not(None), Slip.id.not_in(in_review))
                          .order_by(Round.number, Slip.id))
        for slip in slips:
            content = slip.content or {}
            if isinstance(slip.reading, dict):
                hands.learn(slip.table_no, slip.reading, content.get("position"), content.get("word"))
    return hands
