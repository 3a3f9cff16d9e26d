"""Entering a round's group (the physical bag, D 5.3.1–5.3.2), and judging a corrected round
again when its group changes. Apart from `games` because it needs the judge, which needs `games`."""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..errors import WorkflowError
from ..store.audit import Change, record
from ..store.games import check_group
from ..store.models import Decision, Game, Round
from ..store.validation import blockers, require_not_final, whole
from .judging import rejudge


def set_rack(session: Session, game: Game, rack: str, actor: str, number: int | None = None,
             source: str = "manual", reason: str | None = None) -> Round:
    """Enter the group of a round (the physical bag, D 5.3.1–5.3.2). A new round follows the
    last closed one; changing the group of a round already corrected is refused."""
    require_not_final(game, "changing a group")
    letters = check_group(game, rack)
    if number is None:
        last = session.scalar(select(func.max(Round.number)).where(Round.game_id == game.id)) or 0
        number = last + 1
    whole(number, "--round", 1, "a round number")
    existing = session.scalar(select(Round).where(Round.game_id == game.id, Round.number == number))
    if existing is not None and existing.status == "closed":
        raise WorkflowError(f"round {number} is closed; its group can only change on appeal")
    text = "".join(letters)
    if existing is None:
        previous = session.scalar(select(Round).where(Round.game_id == game.id, Round.number == number - 1))
        if number > 1 and (previous is None or previous.status != "closed"):
            raise WorkflowError(f"round {number}: round {number - 1} is not closed yet")
        existing = Round(game_id=game.id, number=number, rack=text, rack_source=source, equal_tops=[], notices=[])
        session.add(existing)
        session.flush()
        record(session, actor, Change("round.rack", "round", number, after={"rack": text, "source": source},
                                      reason=reason), game.id)
    elif existing.rack != text:
        before = {"rack": existing.rack, "continuation": existing.continuation, "top_score": existing.top_score}
        existing.rack, existing.rack_source = text, source
        # The continuation was found (and checked) against the old group: it goes with it, and the
        # round waits for `round set-top` again (`round close` refuses a round without one).
        existing.continuation, existing.top_score = None, None
        existing.equal_tops, existing.notices = [], []
        record(session, actor, Change("round.rack", "round", number, before=before,
                                      after={"rack": text, "continuation": None, "top_score": None},
                                      reason=reason), game.id)
        _rejudge_round(session, game, existing, actor)
    return existing


def _rejudge_round(session: Session, game: Game, rnd: Round, actor: str) -> None:
    """A corrected round whose group changed is judged again in the same transaction (the judge
    finds the top of the new group itself), each changed decision audited; refused while a
    reading waits in review, since the judge would count that slip as missing."""
    session.flush()
    if session.scalar(select(Decision.id).where(Decision.round_id == rnd.id).limit(1)) is None:
        return
    waiting = blockers(session, game, round_id=rnd.id, readings_only=True)
    if waiting:
        raise WorkflowError(f"round {rnd.number} is corrected and {waiting[0]}: review it first "
                            f"(`fluturas review`), then change the group")
    rejudge(session, game, actor, f"the group of round {rnd.number}")
