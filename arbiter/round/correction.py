"""`round correct` and `round close` as functions, so the CLI and `fluturas demo` run the very same
steps (the demo proves the workflow only if it takes the arbiter's path). A correction keeps, per
round, what it gave the judge (`arbiter.round.consistency`), so a slip filed beside it or after it is
seen as not judged."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ..errors import WorkflowError
from ..store.audit import Change, record
from ..store.games import get_game, get_round
from ..store.models import Game, Round
from ..store.store import Store
from ..store.validation import blockers, load_json, require_no_blockers, require_not_final
from .announce import Announcement, announce
from .consistency import keep_judged, views
from .judging import build_case, check_judge_output, has_decisions, run_judge, store_judgement


def pending(session: Session, game: Game) -> list[str]:
    """Readings that keep the game from being judged again (`validation.blockers`)."""
    return blockers(session, game, readings_only=True)


CASE_TRIES = 20  # reads of the case while scans file slips beside it, before giving up


@dataclass(frozen=True)
class Corrected:
    """One correction pass: the round, the judge's counts (changed, unchanged, flagged) and how many
    slips were held back because their reading waits in the review queue."""

    round: int
    counts: dict[str, int]
    held: int


def correct_round(store: Store, game_id: int, number: int | None, actor: str,
                  output: dict[str, Any] | None = None, source: str = "fluturas judge") -> Corrected:
    """Judge the game up to the round (or store the judge `output` given) and keep the decisions.
    An anticipation game is corrected by its own corrector (RULES.md §7), never by the duplicate judge."""
    with store.session() as s:
        game = get_game(s, game_id)
        require_not_final(game, "round correct")
        anticipation = game.kind == "anticipation"
    if anticipation:
        if output is not None:
            raise WorkflowError("an anticipation game is corrected from its slips; --judge-output is for duplicate games")
        from ..anticipation.correction import correct_anticipation

        with store.session() as s:  # taken before: a slip filed meanwhile shows as not judged
            judged = views(s, get_game(s, game_id), number)
        number, counts, held = correct_anticipation(store, game_id, number, actor)
        with store.session() as s:
            keep_judged(s, judged)
        return Corrected(number, counts, held)
    case, held, judged, number = _case_between_equal_views(store, game_id, number)
    if output is None:
        output = run_judge(case)  # outside any transaction: the judge takes seconds
    with store.session() as s:
        game = get_game(s, game_id)
        counts = store_judgement(s, game, output, actor, source)
        keep_judged(s, judged)
        rnd = get_round(s, game, number)
        if rnd.status == "open":
            rnd.status = "corrected"
    return Corrected(number, counts, held)


def _case_between_equal_views(store: Store, game_id: int, number: int | None) -> tuple[dict, int, dict, int]:
    """The judge's case with the slips it holds (`consistency.views`), both of one state of the store.

    A session's reads on SQLite are separate statements, not one snapshot, so a slip filed by a
    scan running beside the correction can be missing from the case yet present in a view taken a
    moment later. The round would then look judged while its slip was never given to the judge.
    The views are taken before and after the case: when they are equal, no slip was filed, moved
    or changed while the case was read. Otherwise the case is read again."""
    for _ in range(CASE_TRIES):
        with store.session() as s:
            game = get_game(s, game_id)
            rnd = get_round(s, game, number)
            require_no_blockers(s, game, "round correct", through=rnd.number, readings_only=True)
            before = views(s, game, rnd.number)
            case, held = build_case(s, game, rnd.number)
            after = views(s, game, rnd.number)
            if before == after:
                return case, held, after, rnd.number
    raise WorkflowError(f"round correct: slips of game {game_id} were filed while the correction read them, "
                        f"{CASE_TRIES} times running; run `fluturas round correct` again when the scan has finished")


def load_judge_output(path: Path) -> dict[str, Any]:
    """A `fluturas judge --json` output given to `round correct --judge-output`."""
    output = load_json(path, "the judge output")
    check_judge_output(output, str(path))
    return output


def recorrect(store: Store, game_id: int, actor: str) -> Corrected | None:
    """After a sanction or an appeal, judge the game again so the totals follow; nothing to do
    (None) while no round has been corrected yet, or while readings wait in review (`round
    correct` after the review brings the totals up to date)."""
    with store.session() as s:
        if not has_decisions(s, game_id) or pending(s, get_game(s, game_id)):
            return None
    return correct_round(store, game_id, None, actor)


def close_round(session: Session, game: Game, rnd: Round, actor: str) -> Announcement:
    """Close the round and return its D 5.3.7 announcements (closing twice changes nothing).
    An anticipation round has no shared board, hence no continuation and nothing to announce."""
    if rnd.status != "closed":
        require_not_final(game, "closing a round")
    if game.kind == "anticipation":
        if rnd.status != "closed":
            record(session, actor, Change("round.close", "round", rnd.number, before={"status": rnd.status},
                                          after={"status": "closed"}), game.id)
            rnd.status = "closed"
        return Announcement(rnd.number, None, ())
    if not rnd.continuation:
        raise WorkflowError(f"round {rnd.number}: record the top first (`fluturas round set-top`)")
    found = announce(session, game, rnd)
    if rnd.status != "closed":
        record(session, actor, Change("round.close", "round", rnd.number, before={"status": rnd.status},
                                      after={"status": "closed", "announcements": list(found.lines)}), game.id)
        rnd.status = "closed"
    return found
